"""The model page's tab: a picker of every model on the board, and `?model=org/name` (`&revision=`) links.

Either way the page shows that model across every benchmark; choosing in the picker writes the model's
address (`model_links.model_address`) into the browser's, so the page chosen is a link to share.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.benchmark_ranks import board_ranks
from leaderboard.context import AppContext
from leaderboard.model_links import linked_model, model_address
from leaderboard.model_page import CHOOSE, board_models, model_page, standings
from leaderboard.page_link import read_link

WRITE_ADDRESS_SCRIPT = """(address) => {
  if (address) window.history.replaceState(null, "", window.location.pathname + address);
}"""


def build(context: AppContext) -> None:
    """The picker and the page's markdown, filled when a model is chosen or a link names one."""
    picker = gr.Dropdown(choices=[], value=None, label="Model", info="Every model on the board; type to search.",
                         filterable=True, allow_custom_value=False, elem_id="model-picker")
    page = gr.Markdown(CHOOSE, elem_id="model-page")
    address = gr.Textbox(visible=False)

    def choose(model: Any) -> tuple[Any, Any]:
        if not isinstance(model, str) or not model:
            return gr.skip(), gr.skip()
        return render_model_page(context, model, ""), model_address(model)

    def open_link(link: str) -> Any:
        asked = linked_model(read_link(link or ""))
        if asked is None:
            return gr.skip(), gr.skip()
        # The board's spelling of the model (links match case-insensitively), or None: not a choice to show.
        known = next((name for name in board_models(_runs(context)) if name.lower() == asked[0].lower()), None)
        return render_model_page(context, *asked), gr.Dropdown(value=known)

    context.results_version.change(lambda: gr.Dropdown(choices=board_models(_runs(context))), None, picker,
                                   show_progress="hidden")
    picker.input(choose, picker, [page, address], show_progress="hidden", trigger_mode="always_last").then(
        None, address, None, js=WRITE_ADDRESS_SCRIPT)
    if context.page_link is not None:
        context.page_link.change(open_link, context.page_link, [page, picker], show_progress="hidden")


def _runs(context: AppContext) -> dict[str, Any]:
    return {name: store.snapshot().runs for name, store in context.stores.items() if name in BENCHMARKS}


def render_model_page(context: AppContext, model: str, revision: str) -> str:
    """The markdown of `model` at `revision` on the current results."""
    runs = _runs(context)
    ranks = {name: board_ranks(context, name) for name in runs}
    return model_page(model, revision, standings(runs, ranks))
