"""A folded section whose content is drawn only once a viewer first opens it.

A first visit pays for what its first screen mounts: a figure fetches and runs the plotting script (1.1 MB), a
long table (WritingBench's figures per group) outweighs the rest of the page. Drawn on the first opening, they
cost a visit nothing until asked for (`bench/page_load.py`).
"""

from __future__ import annotations

import contextlib
from typing import Iterator

import gradio as gr

@contextlib.contextmanager
def opened_fold(title: str, elem_id: str) -> Iterator[gr.Checkbox]:
    """A folded section (`elem_id`, titled `title`) holding what the `with` lays out; yields a hidden box
    (`<elem_id>-opened`) turning true in the browser on the first opening. The listener drawing the section takes
    it as trigger and input, and draws nothing while it is false (the first view included)."""
    opened = gr.Checkbox(False, visible=False, elem_id=f"{elem_id}-opened")
    with gr.Accordion(title, open=False, elem_id=elem_id) as fold:
        yield opened
    fold.expand(None, None, opened, js="() => true", show_progress="hidden")
