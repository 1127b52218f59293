"""The tab of any scored benchmark (QA, Saraiki, the next ones), built from its declarations alone.

Rankings with rank ranges (ranked runs, then the partial and incomplete ones), their search and
CSV, the figures per breakdown (language, domain, task) with a plot of each, the item browser
and the downloads: columns, labels, directions and breakdowns come from the benchmark's metrics
and board (`eval_backend.benchmarks.board_view`), so a new benchmark has no tab code of its own.
Items open by clicking their row; the opened item is in the page's address
(`?tab=qa&qa_model=<run id>&qa_item=<config>:<index>`), a link to it opens it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr
import pandas as pd

from eval_backend.benchmarks import ScoredBenchmark
from eval_backend.dataset_loader import configured_benchmarks
from leaderboard.context import AppContext, as_updates
from leaderboard.judgment_links import known_run, parse_item_key
from leaderboard.results import ResultsStore, Snapshot, UnknownRunError
from leaderboard.scored_figures import group_heatmap, metric_bars
from leaderboard.scored_tables import (
    ALL,
    breakdown_frame,
    groups,
    item_filters,
    item_view,
    item_labels,
    items_frame,
    labels,
    metric_matrix,
    ranking_frame,
    ranking_of,
    shown_ranking,
    tab_id,
)
from leaderboard.tabs.plots_tab import failsafe
from leaderboard.tabs.scored_tab_parts import (
    RankingsView,
    empty_table,
    item_downloads,
    rankings_section,
    rankings_view,
    rounded_table,
    run_downloads,
)

ITEMS_LABEL = "Items (click a row to read it in full)"
ITEM_URL_SCRIPT = """(model, item) => {{
  const params = new URLSearchParams(window.location.search);
  if (params.get("tab") !== "{tab}") return;
  model ? params.set("{tab}_model", model) : params.delete("{tab}_model");
  item ? params.set("{tab}_item", item) : params.delete("{tab}_item");
  window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
}}"""
"""Keeps the address in step with the opened item (in the browser only), under the tab's own parameters."""
LINK_SCRIPT = """(query, model, item) => {{
  const params = new URLSearchParams(query || "");
  // `model=<run id>` is how a model page links a run's items (`score_links.items_address`).
  const asked = params.get("{tab}_model") || params.get("model");
  if (params.get("tab") !== "{tab}" || !asked) return [model, item];
  return [asked.slice(0, 512), (params.get("{tab}_item") || "").slice(0, 512)];
}}"""
"""Reads a link's model and item in the browser: an address naming neither asks the server nothing. The server
checks both (`known_run`, `parse_item_key`) before it shows anything."""


@dataclass(frozen=True)
class Board:
    """One render of the tab's results: rankings, breakdown, figures, the model choices."""

    table: Any
    unranked: Any
    download: Any
    no_match: Any
    problems: Any
    breakdown: Any
    bars: Any
    heatmap: Any
    model: Any


@dataclass(frozen=True)
class Items:
    """The item browser for one model: its items under the filters, the group choices, the downloads."""

    items: Any
    group: Any
    jsonl: Any
    csv: Any
    parquet: Any


@dataclass(frozen=True)
class Detail:
    """One item in full (plain text: a model's output is never rendered as HTML)."""

    title: Any
    shots_panel: Any
    shots: Any
    question: Any
    response: Any
    verdict: Any


def build(context: AppContext, benchmark: ScoredBenchmark) -> None:
    """Lay out the benchmark's tab and wire it to its results and its own controls."""
    prefix, names = tab_id(benchmark), labels(benchmark)
    gr.Markdown(_intro(context, benchmark), elem_id=f"{prefix}-intro")
    search, rankings = rankings_section(prefix, context.page_link, f"{prefix}_q",
                                        lambda terms: rankings_of(context, benchmark, terms),
                                        empty_table(_ranking_headers(benchmark), names))
    breakdowns = {breakdown.label: breakdown for breakdown in benchmark.board.breakdowns}
    group_by = gr.Radio(list(breakdowns), value=next(iter(breakdowns)), label="Break down by",
                        elem_id=f"{prefix}-breakdown-group", visible=len(breakdowns) > 1)
    breakdown = gr.Dataframe(empty_table(["model", "revision", benchmark.board.breakdowns[0].name], names),
                             label="Figures per group, with the headline's 95 % interval", interactive=False,
                             elem_id=f"{prefix}-breakdown")
    with gr.Row():
        bars = gr.Plot(label="Every figure in %", elem_id=f"{prefix}-plot-metrics")
        heatmap = gr.Plot(label="The headline per group", elem_id=f"{prefix}-plot-groups")
    gr.Markdown("### Items: each prompt, the answer and how it was scored")
    with gr.Row():
        model = gr.Dropdown(label="Model", elem_id=f"{prefix}-model", scale=2)
        group = gr.Dropdown([ALL], value=ALL, label=benchmark.board.group.label, elem_id=f"{prefix}-group")
        show = gr.Dropdown(item_filters(benchmark), value=ALL, label="Show", elem_id=f"{prefix}-show")
    items = gr.Dataframe(empty_table(list(item_labels(benchmark)), item_labels(benchmark)),
                         label=ITEMS_LABEL, interactive=False, elem_id=f"{prefix}-items", max_height=640, wrap=True,
                         elem_classes=["item-table"])
    files = item_downloads(prefix)
    opened = gr.Textbox(visible=False, elem_id=f"{prefix}-item-key")
    title = gr.Markdown(visible=False, elem_id=f"{prefix}-item-title")
    with gr.Accordion("Few-shot examples of this item's prompt", open=False, visible=False,
                      elem_id=f"{prefix}-shots-panel") as shots_panel:
        shots = gr.Textbox(label="Few-shot examples", lines=8, max_lines=30, elem_id=f"{prefix}-shots")
    question = gr.Textbox(label="The item's prompt", lines=4, max_lines=30, elem_id=f"{prefix}-question")
    response = gr.Textbox(label="The model's answer", lines=4, max_lines=30, elem_id=f"{prefix}-response")
    verdict = gr.Textbox(label="Scored as", lines=3, max_lines=20, elem_id=f"{prefix}-verdict")
    board = {**rankings, "breakdown": breakdown, "bars": bars, "heatmap": heatmap, "model": model}
    browser = {"items": items, "group": group, **files}
    detail = {"title": title, "shots_panel": shots_panel, "shots": shots, "question": question, "response": response,
              "verdict": verdict}

    def render(chosen: str, terms: str) -> dict[Any, Any]:
        return as_updates(render_board(context, benchmark, breakdowns[chosen], terms), board)

    def browse(run_id: str | None, chosen_group: str, chosen_show: str) -> dict[Any, Any]:
        return as_updates(render_items(context, benchmark, run_id, chosen_group, chosen_show), browser)

    def show_item(run_id: str | None, key: str) -> dict[Any, Any]:
        return as_updates(render_item(context, benchmark, run_id, key), detail)

    def select_item(evt: gr.SelectData) -> str:
        row = evt.row_value or []
        return str(row[0]) if row else ""

    def choose_linked(run_id: str, current: str | None) -> Any:
        # A dropdown's update must carry its choices: Gradio rebuilds the session's copy from the update.
        ranking = ranking_of(store_of(context, benchmark).snapshot(), benchmark)
        chosen = known_run(store_of(context, benchmark), run_id) or current
        return gr.update(choices=model_choices(ranking), value=chosen)

    context.results_version.change(render, [group_by, search], list(board.values()), show_progress="hidden")
    group_by.change(render, [group_by, search], list(board.values()))
    model.change(lambda run_id: browse(run_id, ALL, ALL), [model], list(browser.values()))
    for control in (group, show):
        control.input(browse, [model, group, show], list(browser.values()))
    detail_outputs = list(detail.values())
    # Every click opens the item, the same row again too: the key is set, then the item shown from it.
    items.select(select_item, None, opened).then(show_item, [model, opened], detail_outputs).then(
        None, [model, opened], None, js=ITEM_URL_SCRIPT.format(tab=prefix))
    if context.page_link is not None:  # a link's model goes through a plain text box: only a valid one is chosen
        linked = gr.Textbox(visible=False, elem_id=f"{prefix}-linked-model")
        context.page_link.change(None, [context.page_link, linked, opened], [linked, opened], js=LINK_SCRIPT.format(tab=prefix))
        linked.change(choose_linked, [linked, model], model, show_progress="hidden").then(
            show_item, [model, opened], detail_outputs)


def store_of(context: AppContext, benchmark: ScoredBenchmark) -> ResultsStore:
    return context.stores[benchmark.name]


def _intro(context: AppContext, benchmark: ScoredBenchmark) -> str:
    intro = benchmark.board.intro or benchmark.description
    if benchmark.name in configured_benchmarks(context.settings.data):
        return intro
    return (f"{intro}\n\n**No dataset is configured for this benchmark**: set `{benchmark.dataset_setting}` "
            "to its Hub id or a local folder to evaluate models on it.")


def _ranking_headers(benchmark: ScoredBenchmark) -> list[str]:
    return list(shown_ranking(ranking_frame([], benchmark), benchmark).columns.drop(["standing", "standing_note"]))


def model_choices(ranking: pd.DataFrame) -> list[tuple[str, str]]:
    """The item browser's models, in ranking order: (model @ revision, run id)."""
    return [(f"{model} @ {str(revision)[:12]}", run_id)
            for run_id, model, revision in zip(ranking["run_id"], ranking["model"], ranking["revision"])]


def render_board(context: AppContext, benchmark: ScoredBenchmark, breakdown: Any, search: str = "") -> Board:
    """Every run's rankings (those the search keeps, and their CSV), the chosen breakdown, the figures, the models."""
    snapshot = store_of(context, benchmark).snapshot()
    ranking = ranking_of(snapshot, benchmark)
    choices = model_choices(ranking)
    shown = _rankings(context, benchmark, snapshot, ranking, search)
    long = breakdown_frame(snapshot.runs, benchmark, breakdown)
    headline = labels(benchmark)[benchmark.headline]
    matrix = metric_matrix(long, benchmark, breakdown, list(ranking["model"]))
    return Board(
        table=shown.table,
        unranked=shown.unranked,
        download=shown.download,
        no_match=shown.no_match,
        problems=shown.problems,
        breakdown=rounded_table(long, labels(benchmark)),
        bars=failsafe(metric_bars)(ranking, benchmark),
        heatmap=failsafe(group_heatmap)(matrix, headline, breakdown.label),
        model=gr.update(choices=choices, value=choices[0][1] if choices else None),
    )


def rankings_of(context: AppContext, benchmark: ScoredBenchmark, search: str) -> RankingsView:
    """The rankings' rows whose model matches `search` (`;` between several), and their CSV."""
    snapshot = store_of(context, benchmark).snapshot()
    return _rankings(context, benchmark, snapshot, ranking_of(snapshot, benchmark), search)


def _rankings(context: AppContext, benchmark: ScoredBenchmark, snapshot: Snapshot, ranking: pd.DataFrame,
              search: str) -> RankingsView:
    return rankings_view(snapshot, ranking, lambda frame: shown_ranking(frame, benchmark), labels(benchmark),
                         search, context.downloads_dir, tab_id(benchmark), f"{benchmark.name}-leaderboard.csv")


def render_items(context: AppContext, benchmark: ScoredBenchmark, run_id: str | None, group: str,
                 show: str) -> Items:
    """The chosen run's items under the filters, the group choices and the run's downloads."""
    if not run_id:
        hidden = gr.update(value=None, visible=False)
        return Items(gr.skip(), gr.update(choices=[ALL], value=ALL), hidden, hidden, hidden)
    store = store_of(context, benchmark)
    details = _details(store, benchmark, run_id)
    exports = run_downloads(details, context.downloads_dir, f"{benchmark.name}-{run_id}",
                            store.details_version(run_id))
    choices = groups(details, benchmark)
    chosen = group if group in choices else ALL
    shown = items_frame(details, benchmark, chosen, show)
    return Items(items=rounded_table(shown, item_labels(benchmark)), group=gr.update(choices=choices, value=chosen),
                 **exports)


def render_item(context: AppContext, benchmark: ScoredBenchmark, run_id: str | None, key: str | None) -> Detail:
    """One item of the chosen run in full: few-shot examples (folded away), prompt, answer, verdict."""
    item = parse_item_key(key)
    if not run_id or item is None:
        hidden = gr.update(visible=False)
        return Detail(hidden, hidden, "", "", "", "")
    view = item_view(_details(store_of(context, benchmark), benchmark, run_id), benchmark, *item)
    if view is None:  # a link's item the run does not have: nothing is opened
        hidden = gr.update(visible=False)
        return Detail(hidden, hidden, "", "", "", "")
    return Detail(
        title=gr.update(value=f"**Item {item[0]} #{item[1]}**", visible=True),
        shots_panel=gr.update(visible=bool(view.shots)),
        shots=view.shots,
        question=view.question, response=view.response, verdict=view.verdict,
    )


def _details(store: ResultsStore, benchmark: ScoredBenchmark, run_id: str) -> pd.DataFrame:
    try:
        return store.details(run_id)
    except UnknownRunError:
        raise gr.Error(f"No evaluated {benchmark.title} run {run_id!r}: choose one from the list.") from None

