"""A link's `tab` parameter opens a known tab only; the known ones are the app's own tab ids."""

from __future__ import annotations

import gradio as gr

from leaderboard.page_link import read_link
from leaderboard.tab_links import linked_tab, tab_ids


def test_a_known_tab_id_is_opened_and_anything_else_is_ignored() -> None:
    with gr.Blocks():
        with gr.Tabs() as tabs:
            with gr.Tab("Leaderboard", id="leaderboard"):
                gr.Markdown("board")
            with gr.Tab("Plots", id="plots"):
                gr.Markdown("plots")
    known = tab_ids(tabs)
    assert known == ("leaderboard", "plots")
    assert linked_tab(read_link("?tab=plots"), known) == "plots"
    assert linked_tab(read_link("?tab=%3Cscript%3E"), known) is None
    assert linked_tab(read_link("?tab=" + "p" * 5000), known) is None
    assert linked_tab(read_link(""), known) is None
