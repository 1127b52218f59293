"""One model's answer to the selected item: response, folded reasoning, and the five criteria.

The judgments tab shows two of these side by side (a model and the one compared with it).
Everything here is untrusted model or judge text: the answer is rendered as markdown with its
HTML shown as text (`answer_html`), and every judge field is escaped before it joins our HTML.
Each criterion is one block (its score, what it asks, the judge's reason) with the rubric's
bands folded beneath, so score and reason read top to bottom, never sideways.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.writing_bench.items import BANDS
from leaderboard.answer_html import answer_html
from leaderboard.display import format_score
from leaderboard.judgments import JudgmentView

MAX_SCORE = 10


@dataclass(frozen=True)
class PanelComponents:
    """The components of one panel, in the order `panel_values` fills them."""

    column: gr.Column
    title: gr.Textbox
    response: gr.HTML
    reasoning: gr.Textbox
    criteria: gr.HTML

    def outputs(self) -> list[Any]:
        return [self.column, self.title, self.response, self.reasoning, self.criteria]


def build_panel(name: str, visible: bool = True) -> PanelComponents:
    """Lay out one panel; `name` makes its element ids unique (for people and for tests)."""
    with gr.Column(visible=visible) as column:
        title = gr.Textbox(label="Model", interactive=False, elem_id=f"{name}-title")
        response = gr.HTML(label="Response (as judged)", show_label=True, elem_id=f"{name}-response")
        with gr.Accordion("Reasoning (removed before judging)", open=False):
            reasoning = gr.Textbox(show_label=False, lines=4, max_lines=20, interactive=False,
                                   elem_id=f"{name}-reasoning")
        criteria = gr.HTML(label="Criteria: score, what it asks, the judge's reason, the item's rubric (folded)",
                           show_label=True, elem_id=f"{name}-criteria")
    return PanelComponents(column, title, response, reasoning, criteria)


def panel_values(panel: PanelComponents, model: str, view: JudgmentView | None) -> dict[Any, Any]:
    """Fill the panel with `model`'s judgment of the item (or say that it has none)."""
    if view is None:
        return {panel.column: gr.update(visible=True), panel.title: f"{model}: this run has no such item",
                panel.response: "", panel.reasoning: "", panel.criteria: ""}
    status = f"{view.status}, item score {format_score(view.item_score)}"
    response = view.response or f"(no response: {view.response_error or 'not generated'})"
    return {panel.column: gr.update(visible=True), panel.title: f"{model} — {status}",
            panel.response: answer_html(response), panel.reasoning: view.reasoning,
            panel.criteria: criteria_html(view.criteria)}


def hidden_panel(panel: PanelComponents) -> dict[Any, Any]:
    """The panel hidden and emptied (no model chosen for it)."""
    return {panel.column: gr.update(visible=False), panel.title: "", panel.response: "",
            panel.reasoning: "", panel.criteria: ""}


def criteria_html(criteria: pd.DataFrame) -> str:
    """Each criterion as a block: "1. Name: 7/10", what it asks, the judge's reason, then the rubric folded."""
    return "".join(_criterion_block(number, row) for number, row in enumerate(criteria.to_dict("records"), start=1))


def _criterion_block(number: int, row: dict[str, Any]) -> str:
    score = "no score" if row["score"] is None or pd.isna(row["score"]) else f"{int(row['score'])}/{MAX_SCORE}"
    parts = [f'<h4 dir="auto">{number}. {_text(row["criterion"])}: {score}</h4>']
    parts += [f'<p dir="auto"><strong>{label}:</strong> {_text(row[field])}</p>' for label, field in (
        ("Asks", "description"), ("Judge's reason", "reason"), ("Judge error", "error")) if row[field]]
    bands = "".join(f'<li dir="auto"><strong>{band}:</strong> {_text(row[band])}</li>' for band in BANDS if row[band])
    if bands:
        parts.append(f"<details><summary>Rubric</summary><ul>{bands}</ul></details>")
    return f'<section class="criterion">{"".join(parts)}</section>'


def _text(value: object) -> str:
    return html.escape(str(value))
