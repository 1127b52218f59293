"""The tab of any scored benchmark (QA, Saraiki, the next ones), built from its declarations alone.

Rankings with rank ranges (ranked runs, then the partial and incomplete ones), each row's flags
(`row_flags`, as WritingBench's) and a filter hiding flagged rows, the decoding mode, their search
and CSV, the figures per breakdown (language, domain, task) with a plot of each, the item browser
and the downloads: columns, labels, directions and breakdowns come from the benchmark's metrics
and board (`eval_backend.benchmarks.board_view`), so a new benchmark has no tab code of its own.

Every score is a link to the items behind it (`score_links`): a ranking cell opens the run's items
(a per-task metric: that task's), a breakdown cell those of its group, as an address of this tab
(`?tab=qa&model=<run id>&config=hindi`) that opens the item browser on that model with that filter
set. Items open by clicking their row, counted in the filtered list; the opened item is in the
address (`?tab=qa&qa_model=<run id>&qa_item=<config>:<index>`, with the filters), a link to it opens it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.board_view import Breakdown
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.dataset_loader import configured_benchmarks
from leaderboard.endpoint_inputs import choice, optional_text, refusing_bad_input, text, texts
from leaderboard.context import AppContext, as_updates
from leaderboard.judgment_links import known_run, parse_item_key
from leaderboard.page_link import MAX_LINK_CHARS, read_link
from leaderboard.results import ResultsStore, Snapshot, UnknownRunError
from leaderboard.row_flags import too_few_items
from leaderboard.score_links import items_address, score_link
from leaderboard.scored_tables import (
    ALL,
    breakdown_frame,
    groups,
    item_filters,
    item_groupings,
    item_view,
    item_labels,
    items_frame,
    labels,
    metric_names,
    breakdown_groups,
    chosen_subset,
    ranking_frame,
    ranking_of,
    shown_ranking,
    subset_breakdowns,
    subset_line,
    tab_id,
)
from leaderboard.declared_figures import benchmark_figures, figure_title
from leaderboard.answer_lengths import lengths_of
from leaderboard.style_view import SEED, VIEW_CHOICES, footnote, in_reading, style_view
from leaderboard.tabs.style_choice import style_choice
from leaderboard.scored_rankings import split_standing
from leaderboard.tabs.plots_tab import plot
from leaderboard.tabs.row_clicks import on_row_click
from leaderboard.tabs.scored_tab_parts import (
    CellLink,
    RankingsLayout,
    RankingsView,
    empty_table,
    item_downloads,
    kept_rows,
    linked_table,
    rankings_section,
    rankings_view,
    rounded_table,
    run_downloads,
)

PLOTS_NOTE = ("**Plots** of the ranked runs the search and flags above keep, in the ranking's order (on the chosen "
              "groups, when ticked; at most 60); models are labelled `org/name@revision` (7 characters), the whole id "
              "on hover.")
ITEMS_LABEL = "Items (click a row to read it in full)"
ITEM_URL_SCRIPT = """(model, item, ...values) => {{
  const params = new URLSearchParams(window.location.search);
  if (params.get("tab") !== "{tab}") return;
  const fields = {fields};
  model ? params.set("{tab}_model", model) : params.delete("{tab}_model");
  item ? params.set("{tab}_item", item) : params.delete("{tab}_item");
  params.delete("model");  // a score link's model: the tab's own parameter says which model is shown now
  fields.forEach((field, i) => values[i] && values[i] !== "{all}" ? params.set(field, values[i]) : params.delete(field));
  window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
}}"""
"""Keeps the address in step with the item browser's model, filters and opened item (in the browser only)."""
LINK_SCRIPT = """(query, linked, item) => {{
  const params = new URLSearchParams(query || "");
  // `model=<run id>` is how a score cell and a model page link a run's items (`score_links.items_address`).
  const asked = params.get("{tab}_model") || params.get("model");
  if (params.get("tab") !== "{tab}" || !asked) return [linked, item];
  return [(query || "").slice(0, 8192), (params.get("{tab}_item") || "").slice(0, 512)];
}}"""
"""Hands a link that opens this tab's items to the server: an address naming none asks the server nothing. The
server reads it within bounds (`page_link.read_link`) and checks the run (`known_run`) and item
(`parse_item_key`) before it shows anything."""


@dataclass(frozen=True)
class Board:
    """One render of the tab's results: rankings, what they rank, breakdown, the model choices."""

    table: Any
    unranked: Any
    download: Any
    no_match: Any
    problems: Any
    rule: Any
    breakdown: Any
    model: Any
    style_note: Any


@dataclass(frozen=True)
class Items:
    """The item browser for one model: its items under the filters, each filter's choices, the downloads."""

    items: Any
    groupings: tuple[Any, ...]
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


def build(context: AppContext, benchmark: Benchmark) -> None:
    """Lay out the benchmark's tab and wire it to its results and its own controls."""
    prefix, names = tab_id(benchmark), labels(benchmark)
    gr.Markdown(_intro(context, benchmark), elem_id=f"{prefix}-intro")
    on_groups = subset_breakdowns(benchmark)
    reading = style_choice(context, benchmark)
    filters, rankings = rankings_section(
        prefix, context.page_link, context.results_version, f"{prefix}_q",
        lambda terms, hidden, *rest: rankings_of(context, benchmark, terms, hidden, _ticked(rest[:len(on_groups)]),
                                                 rest[len(on_groups)]),
        empty_table(_ranking_headers(benchmark), names),
        [(breakdown.item_field, breakdown.label) for breakdown in on_groups],
        lambda: [breakdown_groups(store_of(context, benchmark).snapshot().runs, breakdown) for breakdown in on_groups],
        [reading])
    style_note = gr.Markdown(visible=False, elem_id=f"{prefix}-style-note")
    breakdowns = {breakdown.label: breakdown for breakdown in benchmark.board.breakdowns}
    group_by = gr.Radio(list(breakdowns), value=next(iter(breakdowns)), label="Break down by",
                        elem_id=f"{prefix}-breakdown-group", visible=len(breakdowns) > 1)
    breakdown = gr.Dataframe(empty_table(["model", "revision", benchmark.board.breakdowns[0].name], names),
                             label="Figures per group, with the headline's 95 % interval (each opens its items)",
                             interactive=False, elem_id=f"{prefix}-breakdown")
    gr.Markdown(PLOTS_NOTE, elem_id=f"{prefix}-plots-note")
    plots = [plot(figure_title(benchmark, spec), spec, f"{prefix}-") for spec in benchmark.board.figures]
    gr.Markdown("### Items: each prompt, the answer and how it was scored")
    with gr.Row():
        model = gr.Dropdown(label="Model", elem_id=f"{prefix}-model", scale=2)
        groupings = [gr.Dropdown([ALL], value=ALL, label=field.label, elem_id=f"{prefix}-{_grouping_id(benchmark, i)}")
                     for i, field in enumerate(item_groupings(benchmark))]
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
    board = {**rankings, "breakdown": breakdown, "model": model, "style_note": style_note}
    browser = [items, *groupings, *files.values()]
    detail = {"title": title, "shots_panel": shots_panel, "shots": shots, "question": question, "response": response,
              "verdict": verdict}

    @refusing_bad_input
    def render(chosen: object, terms: object, hidden: object, *rest: object) -> dict[Any, Any]:
        grouping = choice(chosen, "group by", breakdowns)
        ticked, (style, current, query) = rest[:len(on_groups)], (*rest[len(on_groups):], None, "")[:3]
        return as_updates(render_board(context, benchmark, breakdowns[grouping], text(terms, "search"),
                                       list(texts(hidden, "hide flags")), optional_text(current, "model"),
                                       text(query or "", "page address", MAX_LINK_CHARS), _ticked(ticked),
                                       _reading(style)), board)

    @refusing_bad_input
    def browse(run_id: object, chosen_show: object, *chosen: object) -> list[Any]:
        picked = tuple(text(value, "item filter") for value in chosen)
        return item_updates(render_items(context, benchmark, optional_text(run_id, "model"),
                                         text(chosen_show, "show"), picked))

    @refusing_bad_input
    def show_item(run_id: object, key: object) -> dict[Any, Any]:
        return as_updates(render_item(context, benchmark, optional_text(run_id, "model"), text(key, "item")), detail)

    def select_item(evt: gr.SelectData) -> str:
        row = evt.row_value or []
        return str(row[0]) if row else ""

    def open_filters(query: str, current: str | None) -> list[Any]:
        return linked_filters(context, benchmark, query, current)

    def open_model(query: str, current: str | None) -> dict[str, Any]:
        return linked_model(context, benchmark, query, current)

    # The board's render reads the model shown and the page's address, and sets the model only where the one shown
    # is not on the board: a render asked for before a link chose its model never puts another back over it.
    board_inputs = [group_by, *filters.inputs, reading, model,
                    *([context.page_link] if context.page_link is not None else [])]
    gr.on([context.results_version.change, group_by.change, reading.change], render, board_inputs, list(board.values()),
          show_progress="hidden", trigger_mode="always_last")
    # The plots draw the ranked rows the rankings' search and flag filter keep, re-drawn when either changes.
    gr.on([context.results_version.change, *(control.change for control in filters.inputs)],
          lambda terms, hidden, *ticked: render_figures(context, benchmark, terms, hidden, _ticked(ticked)),
          filters.inputs, plots,
          show_progress="hidden", trigger_mode="always_last")
    item_inputs = [model, show, *groupings]
    # Keeps the filters a link (or a viewer) chose: a model's items under them, or all where it has none.
    model.change(browse, item_inputs, browser)
    address = ITEM_URL_SCRIPT.format(tab=prefix, all=ALL, fields=json.dumps([f.name for f in item_groupings(benchmark)]))
    # One listener for the item filters (README, "One listener per view").
    gr.on([control.input for control in (*groupings, show)], browse, item_inputs, browser,
          trigger_mode="always_last").then(None, [model, opened, *groupings], None, js=address)
    detail_outputs = list(detail.values())
    # Every click opens the item, the same row again too: the key is set, then the item shown from it. A click
    # made while an item opens is kept (leaderboard/tabs/row_clicks.py).
    on_row_click(items, select_item, opened, show_item, [model, opened], detail_outputs).then(
        None, [model, opened, *groupings], None, js=address)
    if context.page_link is not None:  # a link goes through a plain text box: only a valid run is chosen
        linked = gr.Textbox(visible=False, elem_id=f"{prefix}-linked-model")
        context.page_link.change(None, [context.page_link, linked, opened], [linked, opened], js=LINK_SCRIPT.format(tab=prefix))
        # The filters first, then the model: the model's change lists its items with the filters read as it
        # fires, which (set in one update with the model) could still be the old ones, and arrive last.
        linked.change(open_filters, [linked, model], [*groupings, show], show_progress="hidden").then(
            open_model, [linked, model], model, show_progress="hidden").then(
            browse, item_inputs, browser).then(show_item, [model, opened], detail_outputs)


def _grouping_id(benchmark: Benchmark, position: int) -> str:
    """The element id of an item filter: `group` for the board's group (as before), else `group-<field>`."""
    return "group" if position == 0 else f"group-{item_groupings(benchmark)[position].name}"


def _reading(style: object) -> str:
    return choice(style, "ranking", [value for _, value in VIEW_CHOICES], default=SEED)


def store_of(context: AppContext, benchmark: Benchmark) -> ResultsStore:
    return context.stores[benchmark.name]


def _intro(context: AppContext, benchmark: Benchmark) -> str:
    intro = benchmark.board.intro or benchmark.description
    if benchmark.name in configured_benchmarks(context.settings.data):
        return intro
    return (f"{intro}\n\n**No dataset is configured for this benchmark**, so no model can be evaluated on it yet "
            "and the Submit tab does not offer it. To evaluate models on it, set "
            f"`{benchmark.dataset_setting}` (an environment variable; on a Space, a variable in its settings) to "
            "the dataset's Hub id (`org/name`) or to a local folder holding it, then restart the app.")


def _ranking_headers(benchmark: Benchmark) -> list[str]:
    return list(shown_ranking(ranking_frame([], benchmark), benchmark).columns.drop(["standing", "standing_note",
                                                                                      "run_id"]))


def model_choices(ranking: pd.DataFrame) -> list[tuple[str, str]]:
    """The item browser's models, in ranking order: (model @ revision, run id)."""
    return [(f"{model} @ {str(revision)[:12]}", run_id)
            for run_id, model, revision in zip(ranking["run_id"], ranking["model"], ranking["revision"])]


def ranking_links(benchmark: Benchmark) -> CellLink:
    """A ranking cell's link: each metric opens the run's items in this tab (a per-task metric: that task's)."""
    group = benchmark.board.group.name
    link = score_link(tab_id(benchmark), {}, metric_names(benchmark),
                      {metric: {group: name} for metric, name in benchmark.board.metric_groups.items()})
    return lambda row, column: link(str(row["run_id"]), column)


def breakdown_links(benchmark: Benchmark, breakdown: Breakdown) -> CellLink:
    """A breakdown cell's link: every figure of a group opens that run's items of that group."""
    def link(row: Mapping[str, Any], column: str) -> str | None:
        return items_address(tab_id(benchmark), str(row["run_id"]), {breakdown.item_field: str(row[breakdown.name])})

    return link


def render_board(context: AppContext, benchmark: Benchmark, breakdown: Breakdown, search: str = "",
                 hidden_flags: Sequence[str] = (), current: str | None = None, query: str = "",
                 ranked_on: Sequence[Sequence[str]] = (), style: str = SEED) -> Board:
    """Every run's rankings (those the search and flag filter keep, and their CSV; ranked on the groups `ranked_on`
    ticks, one list per `subset_breakdowns`, in the reading `style`: the seed's, or controlled for style with its
    footnote), the chosen breakdown, the models (and, where the one
    `current` shows is not on the board, the one the address `query` links this tab to, else the first ranked)."""
    snapshot = store_of(context, benchmark).snapshot()
    ranking = _ranking(context, benchmark, snapshot)
    choices = model_choices(ranking)
    shown = _rankings(context, benchmark, snapshot, search, hidden_flags, ranked_on, style)
    few = {run_id for run_id, codes in zip(ranking["run_id"], ranking["flags"]) if too_few_items(codes)}
    long = breakdown_frame(snapshot.runs, benchmark, breakdown, few, lengths_of(snapshot, benchmark))
    controlled = style != SEED and bool(benchmark.board.style_features)
    return Board(
        table=shown.table,
        unranked=shown.unranked,
        download=shown.download,
        no_match=shown.no_match,
        problems=shown.problems,
        rule=shown.rule,
        breakdown=linked_table(long, labels(benchmark), breakdown_links(benchmark, breakdown)),
        model=_model_update(context, benchmark, choices, current, query),
        style_note=gr.update(value=footnote(style_view(snapshot, benchmark, ranking), benchmark) if controlled else "",
                             visible=controlled),
    )


def render_figures(context: AppContext, benchmark: Benchmark, search: str = "",
                   hidden_flags: Sequence[str] = (), ranked_on: Sequence[Sequence[str]] = ()) -> list[Any]:
    """The benchmark's declared figures of the ranked runs the search and flag filter keep, in the order of the
    ranking shown (on the groups `ranked_on` ticks, when any)."""
    snapshot = store_of(context, benchmark).snapshot()
    ranking = ranking_of(snapshot, benchmark, context.settings.judge.model, chosen_subset(benchmark, ranked_on))
    ranked = split_standing(ranking[kept_rows(ranking, search or "", hidden_flags)])[0]
    runs = {run.run_id: run for run in snapshot.runs}
    return benchmark_figures([runs[run_id] for run_id in ranked["run_id"]], benchmark)


def rankings_of(context: AppContext, benchmark: Benchmark, search: str, hidden_flags: Sequence[str] = (),
                ranked_on: Sequence[Sequence[str]] = (), style: object = SEED) -> RankingsView:
    """The rankings' rows whose model matches `search` (`;` between several) and that have none of the flags
    hidden, ranked on the groups `ranked_on` ticks (one list per `subset_breakdowns`), in the reading `style`, and
    their CSV."""
    snapshot = store_of(context, benchmark).snapshot()
    return _rankings(context, benchmark, snapshot, search, hidden_flags, ranked_on, _reading(style))


def _ranking(context: AppContext, benchmark: Benchmark, snapshot: Snapshot) -> pd.DataFrame:
    return ranking_of(snapshot, benchmark, context.settings.judge.model)


def _ticked(values: Sequence[object]) -> list[tuple[str, ...]]:
    """The groups ticked in each "rank on" box, checked as text."""
    return [texts(value, "rank on groups") for value in values]


def _rankings(context: AppContext, benchmark: Benchmark, snapshot: Snapshot, search: str,
              hidden_flags: Sequence[str], ranked_on: Sequence[Sequence[str]] = (), style: str = SEED) -> RankingsView:
    # The controlled reading adjusts the whole headline; a subset is ranked in the seed's reading only.
    subset = chosen_subset(benchmark, ranked_on) if style == SEED else None
    ranking = in_reading(snapshot, benchmark, ranking_of(snapshot, benchmark, context.settings.judge.model, subset),
                         style)
    layout = RankingsLayout(lambda frame: shown_ranking(frame, benchmark), labels(benchmark), ranking_links(benchmark))
    named = "" if style == SEED else f"-{style}"  # each reading its own CSV
    return rankings_view(snapshot, ranking, layout, search, hidden_flags, context.downloads_dir,
                         f"{tab_id(benchmark)}{named}", f"{benchmark.name}-leaderboard{named}.csv",
                         subset_line(benchmark, subset, ranking))


def render_items(context: AppContext, benchmark: Benchmark, run_id: str | None, show: str,
                 chosen: Sequence[str]) -> Items:
    """The chosen run's items under the filters (`chosen`: one value per `item_groupings`; a value the run has
    none of is all), each filter's choices and the run's downloads."""
    fields = item_groupings(benchmark)
    if not run_id:
        hidden = gr.update(value=None, visible=False)
        return Items(gr.skip(), tuple(gr.update(choices=[ALL], value=ALL) for _ in fields), hidden, hidden, hidden)
    store = store_of(context, benchmark)
    details = _details(store, benchmark, run_id)
    exports = run_downloads(details, context.downloads_dir, f"{benchmark.name}-{run_id}",
                            store.details_version(run_id))
    choices = [groups(details, benchmark, field.name) for field in fields]
    values = [value if value in options else ALL for value, options in zip(chosen, choices)]
    shown = items_frame(details, benchmark, show=show if show in item_filters(benchmark) else ALL,
                        where={field.name: value for field, value in zip(fields, values)})
    return Items(items=rounded_table(shown, item_labels(benchmark)),
                 groupings=tuple(gr.update(choices=options, value=value) for options, value in zip(choices, values)),
                 **exports)


def _model_update(context: AppContext, benchmark: Benchmark, choices: Sequence[tuple[str, str]],
                  current: str | None, query: str) -> dict[str, Any]:
    """The Model dropdown's new choices; its value only when the one it shows is no longer on the board.

    `current` is the value when the render was asked for: a link (or a viewer) may have chosen another since,
    which a value sent back with the choices would overwrite, and list another run's items under the link.
    """
    runs = [run_id for _, run_id in choices]
    if current in runs:
        return gr.update(choices=choices)
    return gr.update(choices=choices, value=linked_run(context, benchmark, query) or (runs[0] if runs else None))


def linked_run(context: AppContext, benchmark: Benchmark, query: str | None) -> str | None:
    """The run of this benchmark's board that the address `query` links this tab to (`<tab>_model` or a score
    link's `model`), or None."""
    link = read_link(query)
    if link.text("tab") != tab_id(benchmark):
        return None
    return known_run(store_of(context, benchmark), link.text(f"{tab_id(benchmark)}_model") or link.text("model"))


def item_updates(view: Items) -> list[Any]:
    """An `Items` as the browser's outputs, in order: the table, each filter, the downloads."""
    return [view.items, *view.groupings, view.jsonl, view.csv, view.parquet]


def linked_filters(context: AppContext, benchmark: Benchmark, query: str, current: str | None) -> list[Any]:
    """What a link (`?tab=<tab>&model=<run id>&<field>=<value>`) sets in the item browser's filters: each filter it
    names (with the choices of its run, or of the one shown where the run is not on the board), Show back to all."""
    link, store = read_link(query), store_of(context, benchmark)
    run_id = linked_run(context, benchmark, query) or current
    details = _details(store, benchmark, run_id) if run_id else pd.DataFrame()
    filters = []
    for field in item_groupings(benchmark):
        options = groups(details, benchmark, field.name) if run_id else [ALL]
        asked = link.text(field.name, ALL)
        filters.append(gr.update(choices=options, value=asked if asked in options else ALL))
    return [*filters, ALL]


def linked_model(context: AppContext, benchmark: Benchmark, query: str, current: str | None) -> dict[str, Any]:
    """The model a link sets in the item browser: its run when on the board, else the one shown."""
    ranking = _ranking(context, benchmark, store_of(context, benchmark).snapshot())
    # A dropdown's update must carry its choices: Gradio rebuilds the session's copy from the update.
    return gr.update(choices=model_choices(ranking), value=linked_run(context, benchmark, query) or current)


def render_item(context: AppContext, benchmark: Benchmark, run_id: str | None, key: str | None) -> Detail:
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


def _details(store: ResultsStore, benchmark: Benchmark, run_id: str) -> pd.DataFrame:
    try:
        return store.details(run_id)
    except UnknownRunError:
        raise gr.Error(f"No evaluated {benchmark.title} run {run_id!r}: choose one from the list.") from None
