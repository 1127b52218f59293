"""Submit: sign in (on Spaces), the form, the engine's verdict verbatim, and the live queue."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import gradio as gr

from eval_backend.submissions import QueueStore, SubmissionForm, SubmissionRejected, open_queue
from eval_backend.submissions.service import submit
from eval_backend.submissions.validation import PRECISIONS
from leaderboard.context import AppContext, as_updates
from leaderboard.queue_view import queue_tables

QUEUE_REFRESH_S = 10.0
SIGN_IN_FIRST = "Please sign in with Hugging Face first (the button above)."


@dataclass(frozen=True)
class SubmitResult:
    """The message shown after pressing Submit (the engine's own words on a rejection)."""

    message: str


def build(context: AppContext) -> None:
    """Lay out the form and the queue; the queue refreshes on a timer while the page is open."""
    queue = functools.cache(lambda: open_queue(context.settings))  # opened on first use, not at build
    on_spaces = context.settings.app.on_spaces
    if on_spaces:
        gr.LoginButton()
    else:
        gr.Textbox(value=context.settings.queue.local_user, label="Submitting as (local user, LOCAL_USER)",
                   interactive=False)
    with gr.Row():
        model_id = gr.Textbox(label="Model id", placeholder="org/model-name", scale=3, elem_id="submit-model")
        revision = gr.Textbox(label="Revision", value="main", scale=1, elem_id="submit-revision")
        precision = gr.Dropdown(list(PRECISIONS), value="bfloat16", label="Precision", scale=1)
        reasoning = gr.Checkbox(label="Reasoning model (strip <think> before judging)", value=False)
    button = gr.Button("Submit for evaluation", variant="primary", elem_id="submit-button")
    message = gr.Textbox(label="Result", interactive=False, elem_id="submit-message")
    tables = {name: gr.Dataframe(label=label, interactive=False, datatype="str", elem_id=f"queue-{name}")
              for name, label in (("running", "Running"), ("pending", "Pending"),
                                  ("finished", "Finished"), ("failed", "Failed (with the reason)"))}

    def on_submit(model: str, rev: str, prec: str, think: bool, profile: gr.OAuthProfile | None) -> dict[Any, Any]:
        user = profile.username if profile else None
        if on_spaces and user is None:
            return as_updates(SubmitResult(SIGN_IN_FIRST), {"message": message})
        form = SubmissionForm(model_id=model.strip(), revision=rev.strip() or "main", precision=prec, reasoning=think)
        return as_updates(submit_form(form, user, queue(), context), {"message": message})

    def refresh() -> dict[Any, Any]:
        return as_updates(queue_tables(queue().list_requests()), tables)

    button.click(on_submit, [model_id, revision, precision, reasoning], [message]).then(refresh, None, list(tables.values()))
    context.demo.load(refresh, None, list(tables.values()))
    gr.Timer(QUEUE_REFRESH_S).tick(refresh, None, list(tables.values()), show_progress="hidden")


def submit_form(form: SubmissionForm, user: str | None, store: QueueStore, context: AppContext) -> SubmitResult:
    """Queue the form through the engine; a rejection's message is shown exactly as the engine wrote it."""
    try:
        queued = submit(form, user, store=store, settings=context.settings)
    except SubmissionRejected as exc:
        return SubmitResult(str(exc))
    return SubmitResult(f"Queued as request #{queued.id}: {queued.model_id} at {queued.revision}.")

