"""A folded section whose content is drawn only once a viewer first opens it.

What a page mounts on its first screen is what a first visit pays for: a figure makes the browser fetch and run
the plotting script (1.1 MB) and draw it, a long table (WritingBench's figures per group: a row per run and
language) weighs more than the rest of the page together. Folded and drawn on the first opening, they cost a
visit nothing until a viewer asks for them (`bench/page_load.py`).
"""

from __future__ import annotations

import contextlib
from typing import Iterator

import gradio as gr

OPENED_SCRIPT = "() => true"
"""Runs in the browser when the section is opened: its `opened` box changes once, on the first opening."""


@contextlib.contextmanager
def opened_fold(title: str, elem_id: str) -> Iterator[gr.Checkbox]:
    """A folded section (`elem_id`, titled `title`) holding what is laid out inside the `with`; yields a hidden box
    (`<elem_id>-opened`) that turns true in the browser when a viewer first opens it. A listener that draws the
    section takes the box as a trigger and an input, and draws nothing while it is false (the first view
    included)."""
    opened = gr.Checkbox(False, visible=False, elem_id=f"{elem_id}-opened")
    with gr.Accordion(title, open=False, elem_id=elem_id) as fold:
        yield opened
    fold.expand(None, None, opened, js=OPENED_SCRIPT, show_progress="hidden")
