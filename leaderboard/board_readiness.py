"""The readiness note: what a visitor arriving before the board's first render sees, and how the page fills in.

The server answers before the first view is rendered (`leaderboard.first_view`). A page served then holds the
controls' defaults and this note; a timer asks every READY_POLL_S seconds how far the render is. When it is done the
answer carries the results version, whose change events draw the board in that page as any refresh would (no reload),
and the timer stops. A render that failed is named here, on every page, until a render succeeds.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from leaderboard.display import literal_markdown
from leaderboard.first_view import FirstView, Readiness

READY_POLL_S = 2.0
"""How often a page served before the board was ready asks whether it is (one small event, no render)."""
PREPARING = ("**Preparing the board.** The results are being read; this page fills in by itself when they are "
             "ready (no need to reload).")


def readiness_note(readiness: Readiness) -> Any:
    """The note for where the first view stands: hidden once it rendered cleanly."""
    if readiness.problems:
        lines = "\n".join(f"- {literal_markdown(problem)}" for problem in readiness.problems)
        shown = "Part of the board could not be shown" if readiness.ready_s is not None else (
            "The board could not be prepared")
        text = f"**{shown}.** The server keeps serving and tries again when the results change.\n\n{lines}"
        return gr.update(value=text, visible=True)
    if readiness.ready_s is None:
        return gr.update(value=f"{PREPARING} ({readiness.waited_s:.0f} s so far)", visible=True)
    return gr.update(value="", visible=False)


def build(first_view: FirstView) -> None:
    """The note under the title, and the poll that fills a page in once the board is ready."""
    note = gr.Markdown(PREPARING, elem_id="board-readiness")
    poll = gr.Timer(READY_POLL_S)

    def ask() -> tuple[Any, Any, Any]:
        version = first_view.rendered_version
        return (version if version is not None else gr.skip(), readiness_note(first_view.readiness),
                gr.Timer(active=version is None))

    poll.tick(ask, None, [first_view.version, note, poll], show_progress="hidden")
    first_view.reflect(note, lambda: readiness_note(first_view.readiness))
    first_view.reflect(poll, lambda: gr.update(active=first_view.rendered_version is None))
