"""`as_updates`: a record kept in a cache answers every caller with its values, after Gradio has sent one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr
from gradio.blocks import postprocess_update_dict

from leaderboard.context import as_updates


@dataclass(frozen=True)
class Shown:
    """A record of one update and one plain value, as a tab's cached render holds them."""

    table: Any
    note: str


def test_a_cached_record_s_update_keeps_its_value_after_gradio_sent_it() -> None:
    with gr.Blocks():
        table, note = gr.Textbox(), gr.Textbox()
    cached = Shown(gr.update(value="four rows", visible=True), "updated now")
    for caller in ("first viewer", "second viewer"):
        updates = as_updates(cached, {"table": table, "note": note})
        assert updates[note] == "updated now", caller
        sent = postprocess_update_dict(table, updates[table])  # pops the update's value, as Gradio does
        assert sent["value"] == "four rows", caller
    assert cached.table["value"] == "four rows"
