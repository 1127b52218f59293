"""One model's answer to the opened item: its status, the answer, the reasoning folded away, the verdict and
the item's scored parts (WritingBench's five criteria). The item browser shows two side by side when a model
is compared.

Everything here is untrusted model or judge text: the answer is rendered as markdown with its HTML shown as
text (`answer_html`), every part's text is escaped before it joins our HTML, and each block reads in its own
direction (`dir="auto"`). A part is one block (its heading and score, its lines) with its folded lines
(a rubric's bands) beneath, so a score and its reason read top to bottom, never sideways.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Sequence

import gradio as gr

from eval_backend.benchmarks.board_view import ItemPart, ItemView
from leaderboard.answer_html import answer_html


@dataclass(frozen=True)
class ItemPanel:
    """The components of one panel, in the order `panel_values` fills them."""

    column: gr.Column
    title: gr.Textbox
    response: gr.HTML
    reasoning_panel: gr.Accordion
    reasoning: gr.Textbox
    verdict: gr.Textbox
    parts: gr.HTML

    def outputs(self) -> list[Any]:
        return [self.column, self.title, self.response, self.reasoning_panel, self.reasoning, self.verdict,
                self.parts]


def build_panel(prefix: str, visible: bool = True) -> ItemPanel:
    """Lay out one panel; `prefix` makes its element ids unique (`<prefix>-response`, `<prefix>-parts`)."""
    with gr.Column(visible=visible) as column:
        title = gr.Textbox(label="Model", interactive=False, elem_id=f"{prefix}-panel-title")
        response = gr.HTML(label="The model's answer (as scored)", show_label=True, elem_id=f"{prefix}-response")
        with gr.Accordion("Reasoning (removed before scoring)", open=False, visible=False,
                          elem_id=f"{prefix}-reasoning-panel") as reasoning_panel:
            reasoning = gr.Textbox(show_label=False, lines=4, max_lines=20, interactive=False,
                                   elem_id=f"{prefix}-reasoning")
        verdict = gr.Textbox(label="Scored as", lines=1, max_lines=20, interactive=False, elem_id=f"{prefix}-verdict")
        parts = gr.HTML(elem_id=f"{prefix}-parts")
    return ItemPanel(column, title, response, reasoning_panel, reasoning, verdict, parts)


def panel_values(panel: ItemPanel, model: str, view: ItemView | None) -> dict[Any, Any]:
    """Fill the panel with `model`'s answer to the item and how it was scored (or say that it has none)."""
    if view is None:
        return {**hidden_panel(panel), panel.column: gr.update(visible=True),
                panel.title: f"{model}: this run has no such item"}
    return {panel.column: gr.update(visible=True), panel.title: model, panel.response: answer_html(view.response),
            panel.reasoning_panel: gr.update(visible=bool(view.reasoning)), panel.reasoning: view.reasoning,
            panel.verdict: view.verdict, panel.parts: parts_html(view.parts)}


def hidden_panel(panel: ItemPanel) -> dict[Any, Any]:
    """The panel hidden and emptied (no model chosen for it)."""
    return {panel.column: gr.update(visible=False), panel.title: "", panel.response: "",
            panel.reasoning_panel: gr.update(visible=False), panel.reasoning: "", panel.verdict: "", panel.parts: ""}


def parts_html(parts: Sequence[ItemPart]) -> str:
    """Each part as a block: "1. Heading", its labelled lines, then its folded lines under their label."""
    return "".join(_part_block(number, part) for number, part in enumerate(parts, start=1))


def _part_block(number: int, part: ItemPart) -> str:
    blocks = [f'<h4 dir="auto">{number}. {_text(part.heading)}</h4>']
    blocks += [f'<p dir="auto"><strong>{_text(label)}:</strong> {_text(value)}</p>' for label, value in part.lines]
    folded = "".join(f'<li dir="auto"><strong>{_text(label)}:</strong> {_text(value)}</li>' for label, value in part.folded)
    if folded:
        blocks.append(f"<details><summary>{_text(part.folded_label)}</summary><ul>{folded}</ul></details>")
    return f'<section class="criterion">{"".join(blocks)}</section>'


def _text(value: object) -> str:
    return html.escape(str(value))
