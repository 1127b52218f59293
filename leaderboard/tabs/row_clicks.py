"""A click on a table's row that opens what the row names: whatever was asked for last is what is shown.

A click writes the row's key into a key kept on the server (a `gr.State`), which applies clicks one at a time in the
order it takes them (`multiple`: every click is sent; `concurrency_limit=1`; microseconds each). What the key names
is shown by one `always_last` listener on the key's change, and every other writer of the key (a link, a model
chosen) goes through that same listener: at most one showing is on its way at a time, and the one deferred reads
the key as the server holds it when it runs, the last written. Three designs this replaces, each seen to fail under
load (tests/leaderboard/test_row_clicks_browser.py):
- the click as the `always_last` event: Gradio replays the data of the event still pending, not of the one it
  deferred (Gradio 6's `dispatch` re-sends its own argument), so a row clicked while another opened was dropped;
- a link's own step that showed its item, beside the click's: sent before a click with the key as it was, it could
  be answered after the click's and hide the row the visitor had opened;
- the key in a box on the page: two clicks' answers that reach the page together are applied each in its own
  loop, and the first click's key could land last.
"""

from __future__ import annotations

from typing import Any, Callable

import gradio as gr


def on_row_click(table: gr.Dataframe, key_of_row: Callable[[gr.SelectData], str], key: gr.State,
                 show: Callable[..., Any], show_inputs: list[Any], show_outputs: list[Any]) -> Any:
    """Wire a click on `table`'s rows to write the row's key (`key_of_row`) into `key`, and every change of `key`
    (a click's or any other writer's) to `show`, which paints `show_outputs` from `show_inputs` (`key` among them);
    returns the showing listener (for `.then`)."""
    table.select(key_of_row, None, key, trigger_mode="multiple", concurrency_limit=1, show_progress="hidden")
    return key.change(show, show_inputs, show_outputs, trigger_mode="always_last")
