"""The model page's tab: `?model=org/name` (and `&revision=`) shows that model across every benchmark."""

from __future__ import annotations

from typing import Any

import gradio as gr

from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.benchmark_ranks import board_ranks
from leaderboard.context import AppContext
from leaderboard.model_links import linked_model
from leaderboard.model_page import CHOOSE, model_page, standings
from leaderboard.page_link import read_link


def build(context: AppContext) -> None:
    """The page's markdown, filled when a link names a model."""
    page = gr.Markdown(CHOOSE, elem_id="model-page")

    def open_link(address: str) -> Any:
        asked = linked_model(read_link(address or ""))
        return gr.skip() if asked is None else render_model_page(context, *asked)

    if context.page_link is not None:
        context.page_link.change(open_link, context.page_link, page, show_progress="hidden")


def render_model_page(context: AppContext, model: str, revision: str) -> str:
    """The markdown of `model` at `revision` on the current results."""
    runs = {name: store.snapshot().runs for name, store in context.stores.items() if name in BENCHMARKS}
    ranks = {name: board_ranks(context, name) for name in runs}
    return model_page(model, revision, standings(runs, ranks))
