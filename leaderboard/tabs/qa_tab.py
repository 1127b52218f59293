"""Indic QA: rankings by scorer, per-language and per-domain breakdowns, plots, the item browser, downloads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from leaderboard.context import AppContext, as_updates
from leaderboard.qa_figures import accuracy_bars, language_heatmap
from leaderboard.qa_tables import (
    BREAKDOWN_GROUPS,
    VERDICT_FILTERS,
    breakdown_frame,
    items_frame,
    language_matrix,
    ranking_frame,
)
from leaderboard.results import ResultsStore, Snapshot, UnknownRunError
from leaderboard.tabs.plots_tab import failsafe
from leaderboard.tabs.scored_tab_parts import (
    RankingsView,
    rankings_view,
    item_downloads,
    rankings_section,
    rounded_table,
    run_downloads,
)

ALL = "all"
LINK_PARAM = "qa_q"
"""The page address's parameter for the rankings' search (the WritingBench board's is `q`)."""
INTRO = (
    "Short factual questions, one per chat turn, answered greedily. Each answer (the text after "
    "`</think>`) is scored three ways: **exact substring** (the golden answer inside the response, "
    "case-insensitive), **word overlap** (every golden word present) and an **LLM judge** of equivalence. "
    "Accuracies are micro-averages in %. *Overlap only* counts answers whose words match but not as a "
    "phrase: they need review. Blank answers count as wrong and are counted."
)
LABELS = {
    "model": "Model", "revision": "Revision", "judge": "Judge %", "exact": "Exact %", "overlap": "Overlap %",
    "blank_responses": "Blanks", "overlap_only": "Overlap only", "n": "Questions", "failed_judgments": "Judge failures",
    "judge_model": "Judge", "created_at": "Scored at", "language": "Language", "domain": "Domain",
}


@dataclass(frozen=True)
class QaBoard:
    """One render of the tab's results: tables, figures, the CSV of the rankings, the model choices."""

    table: Any
    unranked: Any
    download: Any
    no_match: Any
    problems: Any
    breakdown: Any
    accuracy: Any
    languages: Any
    model: Any


@dataclass(frozen=True)
class QaItems:
    """The item browser for one model: its items with each verdict and reason, filters and downloads."""

    items: Any
    language: Any
    jsonl: Any
    csv: Any
    parquet: Any


def store_of(context: AppContext) -> ResultsStore:
    return context.stores[INDIC_QA.name]


def build(context: AppContext) -> None:
    """Lay out the tab and wire it to the results and its own controls."""
    gr.Markdown(INTRO)
    search, rankings = rankings_section("qa", context.page_link, LINK_PARAM,
                                        lambda terms: rankings_of(context, terms))
    group = gr.Radio(list(BREAKDOWN_GROUPS), value="language", label="Break down by", elem_id="qa-breakdown-group")
    breakdown = gr.Dataframe(label="Per language / domain", interactive=False, elem_id="qa-breakdown")
    with gr.Row():
        accuracy = gr.Plot(label="Accuracy by scorer", elem_id="qa-plot-accuracy")
        languages = gr.Plot(label="Judge accuracy per language", elem_id="qa-plot-languages")
    gr.Markdown("### Items: each answer with its three verdicts and the judge's reason")
    with gr.Row():
        model = gr.Dropdown(label="Model", elem_id="qa-model", scale=2)
        language = gr.Dropdown([ALL], value=ALL, label="Language", elem_id="qa-language")
        verdict = gr.Dropdown(list(VERDICT_FILTERS), value=ALL, label="Show", elem_id="qa-verdict")
    items = gr.Dataframe(label="Items", interactive=False, elem_id="qa-items", max_height=480, wrap=True)
    files = item_downloads("qa")
    board = {**rankings, "breakdown": breakdown, "accuracy": accuracy, "languages": languages, "model": model}
    browser = {"items": items, "language": language, **files}

    def render(chosen_group: str, terms: str) -> dict[Any, Any]:
        return as_updates(render_board(context, chosen_group, terms), board)

    def browse(run_id: str | None, lang: str, show: str) -> dict[Any, Any]:
        return as_updates(render_items(context, run_id, lang, show), browser)

    context.results_version.change(render, [group, search], list(board.values()), show_progress="hidden")
    group.change(render, [group, search], list(board.values()))
    model.change(lambda run_id: browse(run_id, ALL, ALL), [model], list(browser.values()))
    for control in (language, verdict):
        control.input(browse, [model, language, verdict], list(browser.values()))


def render_board(context: AppContext, group: str, search: str = "") -> QaBoard:
    """Every QA run's rankings (those the search keeps, and their CSV), the chosen breakdown and the figures."""
    snapshot = store_of(context).snapshot()
    runs = snapshot.runs
    ranking = ranking_frame(runs)
    choices = [(f"{model} @ {str(revision)[:12]}", run_id)
               for run_id, model, revision in zip(ranking["run_id"], ranking["model"], ranking["revision"])]
    shown = _rankings(context, snapshot, ranking, search)
    return QaBoard(
        table=shown.table,
        unranked=shown.unranked,
        download=shown.download,
        no_match=shown.no_match,
        problems=shown.problems,
        breakdown=rounded_table(breakdown_frame(runs, group), LABELS),
        accuracy=failsafe(accuracy_bars)(ranking),
        languages=failsafe(language_heatmap)(language_matrix(runs)),
        model=gr.update(choices=choices, value=choices[0][1] if choices else None),
    )


def rankings_of(context: AppContext, search: str) -> RankingsView:
    """The rankings' rows whose model matches `search` (`;` between several), and their CSV."""
    snapshot = store_of(context).snapshot()
    return _rankings(context, snapshot, ranking_frame(snapshot.runs), search)


def _rankings(context: AppContext, snapshot: Snapshot, ranking: pd.DataFrame, search: str) -> RankingsView:
    return rankings_view(snapshot, ranking, LABELS, search, context.downloads_dir, "qa", "indic-qa-leaderboard.csv")


def render_items(context: AppContext, run_id: str | None, language: str, verdict: str) -> QaItems:
    """The chosen run's items under the filters, the language choices and the run's downloads."""
    if not run_id:
        hidden = gr.update(value=None, visible=False)
        return QaItems(gr.update(value=None), gr.update(choices=[ALL], value=ALL), hidden, hidden, hidden)
    store = store_of(context)
    try:
        details = store.details(run_id)
    except UnknownRunError:
        raise gr.Error(f"No evaluated QA run {run_id!r}: choose one from the list.") from None
    version = store.details_version(run_id)
    name = f"{INDIC_QA.name}-{run_id}"
    exports = run_downloads(details, context.downloads_dir, name, version)
    languages = [ALL, *dict.fromkeys(details["config"])] if "config" in details else [ALL]
    shown = items_frame(details, language, verdict)
    return QaItems(
        items=gr.update(value=shown, datatype=["str"] * len(shown.columns)),
        language=gr.update(choices=languages, value=language if language in languages else ALL),
        **exports,
    )

