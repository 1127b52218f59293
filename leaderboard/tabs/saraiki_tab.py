"""Saraiki: seven task columns and the two safety rates, each task's figures, the item browser, downloads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.benchmarks.saraiki.tasks import TASKS
from leaderboard.context import AppContext, as_updates
from leaderboard.results import ResultsStore, Snapshot, UnknownRunError
from leaderboard.saraiki_tables import SHOW_FILTERS, item_view, items_frame, ranking_frame, tasks_frame
from leaderboard.tabs.scored_tab_parts import (
    RankingsView,
    rankings_view,
    item_downloads,
    rankings_section,
    rounded_table,
    run_downloads,
)

ALL = "all"
LINK_PARAM = "saraiki_q"
"""The page address's parameter for the rankings' search (the WritingBench board's is `q`)."""
INTRO = (
    "The [Saraiki LLM Benchmark](https://huggingface.co/datasets/themohal/saraiki-llm-bench) (gated): seven "
    "tasks in Saraiki, each reported on its own, exactly as its reference script scores them. Multiple choice "
    "and math are accuracies (%) with their few-shot examples from `dev` (5 shots, math 8); instruction "
    "following is the share of prompts whose every IFEval / IFBench rule is met (strict); truthfulness is "
    "0-shot multiple choice. Safety has two rates, never averaged: **refusals** of harmful requests "
    "(higher is better) and **over-refusals** of benign ones (lower is better). *Mode* says whether the "
    "model was prompted in its chat template or with raw text. Decoding is greedy."
)
LABELS = {
    "model": "Model", "revision": "Revision", "mode": "Mode", "knowledge": "Knowledge %",
    "knowledge_hard": "Knowledge hard %", "commonsense": "Commonsense %", "reading_comprehension": "Reading %",
    "math": "Math %", "instruction_following": "Instruction following %", "truthfulness": "Truthfulness %",
    "refusal_rate": "Refusal rate % ↑", "over_refusal_rate": "Over-refusal rate % ↓",
    "refusal_classifier": "Refusal classifier", "responses": "Answered", "missing_responses": "No answer",
    "created_at": "Scored at", "task": "Task",
}


@dataclass(frozen=True)
class SaraikiBoard:
    """One render of the tab's results: the rankings, its CSV, each task's figures, the model choices."""

    table: Any
    unranked: Any
    download: Any
    no_match: Any
    problems: Any
    tasks: Any
    model: Any


@dataclass(frozen=True)
class SaraikiItems:
    """The item browser for one model: its items under the filters, and the run's downloads."""

    items: Any
    jsonl: Any
    csv: Any
    parquet: Any


@dataclass(frozen=True)
class SaraikiItem:
    """One item in full (all plain text: a model's output is never rendered as HTML)."""

    shots: Any
    question: Any
    response: Any
    verdict: Any


def store_of(context: AppContext) -> ResultsStore:
    return context.stores[SARAIKI.name]


def build(context: AppContext) -> None:
    """Lay out the tab and wire it to the results and its own controls."""
    gr.Markdown(INTRO)
    search, rankings = rankings_section("saraiki", context.page_link, LINK_PARAM,
                                        lambda terms: rankings_of(context, terms))
    tasks = gr.Dataframe(label="Every figure of every task (shots, items, errors)", interactive=False,
                         elem_id="saraiki-tasks")
    gr.Markdown("### Items: each prompt, the reply and how it was scored")
    with gr.Row():
        model = gr.Dropdown(label="Model", elem_id="saraiki-model", scale=2)
        task = gr.Dropdown([ALL, *(spec.name for spec in TASKS)], value=ALL, label="Task", elem_id="saraiki-task")
        show = gr.Dropdown(list(SHOW_FILTERS), value=ALL, label="Show", elem_id="saraiki-show")
    items = gr.Dataframe(label="Items", interactive=False, elem_id="saraiki-items", max_height=420, wrap=True)
    files = item_downloads("saraiki")
    position = gr.Number(label="Item (its position in the list)", precision=0, minimum=0, elem_id="saraiki-position")
    with gr.Accordion("Few-shot examples of this item's prompt", open=False, elem_id="saraiki-shots-panel"):
        shots = gr.Textbox(label="Few-shot examples", lines=8, max_lines=30, elem_id="saraiki-shots")
    question = gr.Textbox(label="The item's prompt", lines=6, max_lines=30, elem_id="saraiki-question")
    response = gr.Textbox(label="The model's reply", lines=4, max_lines=30, elem_id="saraiki-response")
    verdict = gr.Textbox(label="Scored as", lines=2, max_lines=20, elem_id="saraiki-verdict")
    board = {**rankings, "tasks": tasks, "model": model}
    browser = {"items": items, **files}
    detail = {"shots": shots, "question": question, "response": response, "verdict": verdict}

    def render(terms: str) -> dict[Any, Any]:
        return as_updates(render_board(context, terms), board)

    def browse(run_id: str | None, chosen_task: str, chosen_show: str) -> dict[Any, Any]:
        return as_updates(render_items(context, run_id, chosen_task, chosen_show), browser)

    def open_item(run_id: str | None, chosen: float | None) -> dict[Any, Any]:
        return as_updates(render_item(context, run_id, chosen), detail)

    context.results_version.change(render, [search], list(board.values()), show_progress="hidden")
    model.change(lambda run_id: browse(run_id, ALL, ALL), [model], list(browser.values()))
    for control in (task, show):
        control.input(browse, [model, task, show], list(browser.values()))
    position.submit(open_item, [model, position], list(detail.values()))


def render_board(context: AppContext, search: str = "") -> SaraikiBoard:
    """Every Saraiki run's rankings (those the search keeps, and their CSV), task figures and model choices."""
    snapshot = store_of(context).snapshot()
    runs = snapshot.runs
    ranking = ranking_frame(runs)
    choices = [(f"{model} @ {str(revision)[:12]} ({mode})", run_id) for run_id, model, revision, mode
               in zip(ranking["run_id"], ranking["model"], ranking["revision"], ranking["mode"])]
    shown = _rankings(context, snapshot, ranking, search)
    return SaraikiBoard(
        table=shown.table,
        unranked=shown.unranked,
        download=shown.download,
        no_match=shown.no_match,
        problems=shown.problems,
        tasks=rounded_table(tasks_frame(runs), LABELS),
        model=gr.update(choices=choices, value=choices[0][1] if choices else None),
    )


def rankings_of(context: AppContext, search: str) -> RankingsView:
    """The rankings' rows whose model matches `search` (`;` between several), and their CSV."""
    snapshot = store_of(context).snapshot()
    return _rankings(context, snapshot, ranking_frame(snapshot.runs), search)


def _rankings(context: AppContext, snapshot: Snapshot, ranking: pd.DataFrame, search: str) -> RankingsView:
    return rankings_view(snapshot, ranking, LABELS, search, context.downloads_dir, "saraiki",
                         "saraiki-leaderboard.csv")


def render_items(context: AppContext, run_id: str | None, task: str, show: str) -> SaraikiItems:
    """The chosen run's items under the filters, and the run's downloads."""
    if not run_id:
        hidden = gr.update(value=None, visible=False)
        return SaraikiItems(gr.update(value=None), hidden, hidden, hidden)
    details = _details(context, run_id)
    store = store_of(context)
    version = store.details_version(run_id)
    name = f"{SARAIKI.name}-{run_id}"
    exports = run_downloads(details, context.downloads_dir, name, version)
    shown = items_frame(details, task, show)
    return SaraikiItems(items=gr.update(value=shown, datatype=["str"] * len(shown.columns)), **exports)


def render_item(context: AppContext, run_id: str | None, position: float | None) -> SaraikiItem:
    """One item of the chosen run in full: few-shot examples (folded away), prompt, reply, verdict."""
    if not run_id or position is None:
        raise gr.Error("Choose a model, then type the position of an item from the list.")
    try:
        view = item_view(_details(context, run_id), int(position))
    except IndexError as exc:
        raise gr.Error(str(exc)) from None
    return SaraikiItem(view.shots or "(none: 0-shot)", view.question, view.response, view.verdict)


def _details(context: AppContext, run_id: str) -> pd.DataFrame:
    try:
        return store_of(context).details(run_id)
    except UnknownRunError:
        raise gr.Error(f"No evaluated Saraiki run {run_id!r}: choose one from the list.") from None
