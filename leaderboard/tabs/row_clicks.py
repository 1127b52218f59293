"""A click on a table's row that opens what the row names: the last row clicked is the one shown.

Gradio's `always_last` defers an event that comes while the listener's last one is pending, and then replays
the *pending* event's data, not the deferred one's (Gradio 6's `dispatch` re-sends its own argument). For a
`select`, whose row is in the event data, a row clicked while another opened was dropped and the first one
shown again. So the row's key is taken from every click (`multiple`), one click at a time on the server in
the order the clicks came (`concurrency_limit=1`; a key is read in microseconds), and the item is shown by an
`always_last` listener, which reads the key as it stands when it runs: the last click's.
"""

from __future__ import annotations

from typing import Any, Callable

import gradio as gr


def on_row_click(table: gr.Dataframe, key_of_row: Callable[[gr.SelectData], str], key: gr.Textbox,
                 show: Callable[..., Any], show_inputs: list[Any], show_outputs: list[Any]) -> Any:
    """Wire a click on `table`'s rows: `key_of_row` writes the clicked row's key into `key`, then `show` paints
    `show_outputs` from `show_inputs` (which include `key`). Every click shows its row, the same one again too.
    Returns the listener chain, for what follows the item shown (`.then`)."""
    return table.select(key_of_row, None, key, trigger_mode="multiple", concurrency_limit=1,
                        show_progress="hidden").then(show, show_inputs, show_outputs, trigger_mode="always_last")
