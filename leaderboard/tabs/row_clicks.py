"""A click on a table's row that opens what the row names: the last row clicked is the one shown.

Gradio's `always_last` replays the data of the event still pending, not of the one it deferred (Gradio 6's
`dispatch` re-sends its own argument): a row clicked while another opened was dropped, the first shown again.
So every click's key is read (`multiple`), one at a time in order (`concurrency_limit=1`; microseconds each), and
an `always_last` listener shows the key as it stands when it runs: the last click's.
"""

from __future__ import annotations

from typing import Any, Callable

import gradio as gr


def on_row_click(table: gr.Dataframe, key_of_row: Callable[[gr.SelectData], str], key: gr.Textbox,
                 show: Callable[..., Any], show_inputs: list[Any], show_outputs: list[Any]) -> Any:
    """Wire a click on `table`'s rows: `key_of_row` writes the row's key into `key`, then `show` paints `show_outputs`
    from `show_inputs` (`key` among them), the same row clicked again too; returns the chain (for `.then`)."""
    return table.select(key_of_row, None, key, trigger_mode="multiple", concurrency_limit=1,
                        show_progress="hidden").then(show, show_inputs, show_outputs, trigger_mode="always_last")
