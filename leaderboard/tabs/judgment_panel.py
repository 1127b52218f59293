"""One model's answer to the selected item: response, folded reasoning, and the five criteria.

The judgments tab shows two of these side by side (a model and the one compared with it).
Everything here is untrusted model or judge text, so it goes into text components only.
Each criterion reads as a short block of lines (its score, what it asks, the judge's reason,
the rubric's bands), so score, reason and rubric read top to bottom, never sideways.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.indic_writing_bench import BANDS
from leaderboard.display import format_score
from leaderboard.judgments import JudgmentView

MAX_SCORE = 10


@dataclass(frozen=True)
class PanelComponents:
    """The components of one panel, in the order `panel_values` fills them."""

    column: gr.Column
    title: gr.Textbox
    response: gr.Textbox
    reasoning: gr.Textbox
    criteria: gr.Textbox

    def outputs(self) -> list[Any]:
        return [self.column, self.title, self.response, self.reasoning, self.criteria]


def build_panel(name: str, visible: bool = True) -> PanelComponents:
    """Lay out one panel; `name` makes its element ids unique (for people and for tests)."""
    with gr.Column(visible=visible) as column:
        title = gr.Textbox(label="Model", interactive=False, elem_id=f"{name}-title")
        response = gr.Textbox(label="Response (as judged)", lines=8, max_lines=30, interactive=False,
                              elem_id=f"{name}-response")
        with gr.Accordion("Reasoning (removed before judging)", open=False):
            reasoning = gr.Textbox(show_label=False, lines=4, max_lines=20, interactive=False,
                                   elem_id=f"{name}-reasoning")
        criteria = gr.Textbox(
            label="Criteria: score, what it asks, the judge's reason, the item's rubric", interactive=False,
            lines=12, max_lines=80, elem_id=f"{name}-criteria",
        )
    return PanelComponents(column, title, response, reasoning, criteria)


def panel_values(panel: PanelComponents, model: str, view: JudgmentView | None) -> dict[Any, Any]:
    """Fill the panel with `model`'s judgment of the item (or say that it has none)."""
    if view is None:
        return {panel.column: gr.update(visible=True), panel.title: f"{model}: this run has no such item",
                panel.response: "", panel.reasoning: "", panel.criteria: ""}
    status = f"{view.status}, item score {format_score(view.item_score)}"
    response = view.response or f"(no response: {view.response_error or 'not generated'})"
    return {panel.column: gr.update(visible=True), panel.title: f"{model} — {status}",
            panel.response: response, panel.reasoning: view.reasoning, panel.criteria: criteria_text(view.criteria)}


def hidden_panel(panel: PanelComponents) -> dict[Any, Any]:
    """The panel hidden and emptied (no model chosen for it)."""
    return {panel.column: gr.update(visible=False), panel.title: "", panel.response: "",
            panel.reasoning: "", panel.criteria: ""}


def criteria_text(criteria: pd.DataFrame) -> str:
    """Each criterion as a block: "1. Name: 7/10", then what it asks, the judge's reason and the rubric bands."""
    blocks = []
    for number, row in enumerate(criteria.to_dict("records"), start=1):
        score = "no score" if row["score"] is None or pd.isna(row["score"]) else f"{int(row['score'])}/{MAX_SCORE}"
        lines = [f"{number}. {row['criterion']}: {score}"]
        lines += [f"   {label}: {row[field]}" for label, field in (
            ("Asks", "description"), ("Judge's reason", "reason"), ("Judge error", "error")) if row[field]]
        lines += [f"   Rubric {band}: {row[band]}" for band in BANDS if row[band]]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
