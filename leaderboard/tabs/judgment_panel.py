"""One model's answer to the selected item: response, folded reasoning, and the five criteria.

The judgments tab shows two of these side by side (a model and the one compared with it).
Everything here is untrusted model or judge text, so it goes into text components only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr
import pandas as pd

from leaderboard.display import column_label, format_score
from leaderboard.judgments import CRITERIA_COLUMNS, JudgmentView

CRITERIA_DATATYPES = ["str", "number", *["str"] * (len(CRITERIA_COLUMNS) - 2)]


@dataclass(frozen=True)
class PanelComponents:
    """The components of one panel, in the order `panel_values` fills them."""

    column: gr.Column
    title: gr.Textbox
    response: gr.Textbox
    reasoning: gr.Textbox
    criteria: gr.Dataframe

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
        criteria = gr.Dataframe(
            headers=[column_label(c) for c in CRITERIA_COLUMNS], datatype=CRITERIA_DATATYPES,
            label="Criteria: score and the judge's reason, with the item's rubric", interactive=False,
            wrap=True, elem_id=f"{name}-criteria",
        )
    return PanelComponents(column, title, response, reasoning, criteria)


def panel_values(panel: PanelComponents, model: str, view: JudgmentView | None) -> dict[Any, Any]:
    """Fill the panel with `model`'s judgment of the item (or say that it has none)."""
    if view is None:
        return {panel.column: gr.update(visible=True), panel.title: f"{model}: this run has no such item",
                panel.response: "", panel.reasoning: "", panel.criteria: _empty_criteria()}
    status = f"{view.status}, item score {format_score(view.item_score)}"
    response = view.response or f"(no response: {view.response_error or 'not generated'})"
    criteria = view.criteria.rename(columns=column_label)
    return {panel.column: gr.update(visible=True), panel.title: f"{model} — {status}",
            panel.response: response, panel.reasoning: view.reasoning, panel.criteria: criteria}


def hidden_panel(panel: PanelComponents) -> dict[Any, Any]:
    """The panel hidden and emptied (no model chosen for it)."""
    return {panel.column: gr.update(visible=False), panel.title: "", panel.response: "",
            panel.reasoning: "", panel.criteria: _empty_criteria()}


def _empty_criteria() -> pd.DataFrame:
    return pd.DataFrame(columns=[column_label(c) for c in CRITERIA_COLUMNS])
