"""Submit: sign in (on Spaces), the form, the engine's verdict verbatim, and the live queue."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Mapping

import gradio as gr

from eval_backend.benchmarks.chat_mode import AUTO, ChatMode, offers_raw
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.cost import measured_cost
from eval_backend.dataset_loader import configured_benchmarks
from eval_backend.settings import CostSettings, Settings
from eval_backend.submissions import QueueStore, SubmissionForm, SubmissionRejected, open_queue
from eval_backend.submissions.service import queue_submission
from eval_backend.submissions.validation import PRECISIONS
from leaderboard.endpoint_inputs import flag, refusing_bad_input, text, texts
from leaderboard.context import AppContext, as_updates
from leaderboard.queue_view import queue_tables
from leaderboard.submit_messages import QUEUED_LABEL, REFUSED_LABEL, parse_model_input, readable

QUEUE_REFRESH_S = 10.0
SIGN_IN_FIRST = "Please sign in with Hugging Face first (the button above)."


@dataclass(frozen=True)
class SubmitResult:
    """The message shown after pressing Submit (the engine's own words on a rejection) and whether it queued."""

    message: str
    queued: bool = False

    def update(self) -> Any:
        """The result box: labelled and styled so a queued request and a refusal never look alike."""
        return gr.update(value=self.message, label=QUEUED_LABEL if self.queued else REFUSED_LABEL,
                         elem_classes=["submit-queued" if self.queued else "submit-refused"])


def build(context: AppContext) -> None:
    """Lay out the form and the queue; the queue refreshes on a timer once the tab is open."""
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
    # Every benchmark with a dataset is ticked: a submission runs them all unless the submitter unticks some.
    offered = configured_benchmarks(context.settings.data)
    benchmarks = gr.CheckboxGroup(
        choices=[(BENCHMARKS[name].title, name) for name in offered], value=offered,
        label="Benchmarks (each is its own run in the queue)", elem_id="submit-benchmarks",
    )
    raw_offered = " and ".join(BENCHMARKS[name].title for name in offered if offers_raw(BENCHMARKS[name]))
    chat_mode = gr.Radio(
        choices=[("Auto: chat if the model has a chat template, else raw", AUTO),
                 ("Chat template", ChatMode.CHAT.value), ("Raw text (base models)", ChatMode.RAW.value)],
        value=AUTO, label=f"{raw_offered} prompts: chat or raw (the other benchmarks always ask in chat)",
        visible=bool(raw_offered), elem_id="submit-chat-mode",
    )
    cost = gr.Markdown(elem_id="submit-cost")
    button = gr.Button("Submit for evaluation", variant="primary", elem_id="submit-button")
    message = gr.Textbox(label="Result", interactive=False, elem_id="submit-message")
    empty_queue = queue_tables(())  # each table's real headers before the first refresh (never "1 2 3")
    tables = {name: gr.Dataframe(getattr(empty_queue, name), label=label, interactive=False, datatype="str",
                                 elem_id=f"queue-{name}")
              for name, label in (("running", "Running"), ("pending", "Pending"),
                                  ("finished", "Finished"), ("failed", "Failed (with the reason)"))}

    @refusing_bad_input
    def on_submit(
        model: object, rev: object, prec: object, think: object, chosen: object, mode: object,
        profile: gr.OAuthProfile | None
    ) -> dict[Any, Any]:
        user = profile.username if profile else None
        if on_spaces and user is None:
            return {message: SubmitResult(SIGN_IN_FIRST).update()}
        model, rev, prec, mode = (text(value, name) for value, name in (
            (model, "model id"), (rev, "revision"), (prec, "precision"), (mode, "chat mode")))
        think, chosen = flag(think, "reasoning"), texts(chosen, "benchmarks")
        typed = parse_model_input(model)  # a pasted Hub URL names the model (and maybe the revision)
        revision_asked = typed.revision if typed.revision and rev.strip() in ("", "main") else rev.strip() or "main"
        form = SubmissionForm(model_id=typed.model_id, revision=revision_asked, precision=prec, reasoning=think,
                              benchmarks=tuple(chosen or ()), chat_mode=mode or AUTO)
        return {message: submit_form(form, user, queue(), context.settings).update()}

    def refresh() -> dict[Any, Any]:
        return as_updates(queue_tables(queue().list_requests()), tables)

    button.click(on_submit, [model_id, revision, precision, reasoning, benchmarks, chat_mode], [message]).then(refresh, None, list(tables.values()))
    judged = [BENCHMARKS[name] for name in offered if BENCHMARKS[name].judges and name in context.stores]

    def cost_line() -> str:
        summaries = {b.title: [run.summary for run in context.stores[b.name].snapshot().runs] for b in judged}
        return judge_cost_line(summaries, context.settings.cost)

    context.results_version.change(cost_line, None, cost)
    # The queue is in the prerendered page too (re-rendered on every refresh). A page polls it once this
    # tab has been opened: Gradio mounts a tab's timer with the tab, so a crowd reading the board polls nothing.
    context.first_view.keep_live(
        gr.Timer(QUEUE_REFRESH_S).tick(refresh, None, list(tables.values()), show_progress="hidden"))


def judge_cost_line(summaries: Mapping[str, list[Any]], prices: CostSettings) -> str:
    """What one submission costs in judge calls and tokens, per judged benchmark (`summaries`: its runs' summaries by
    its title), measured on the complete runs on the board."""
    measured = {title: measured_cost(runs, prices) for title, runs in summaries.items()}
    costs = [f"{title}: {cost.describe()}" if cost else f"{title}: no complete judged run yet to measure it on"
             for title, cost in measured.items()]
    hint = "" if all(measured.values()) else "; `python -m eval_backend estimate` estimates it before any call"
    return f"**Judge cost of a submission**: {'; '.join(costs) or 'no benchmark with a judge'}{hint}."


def submit_form(form: SubmissionForm, user: str | None, store: QueueStore, settings: Settings) -> SubmitResult:
    """Queue the form through the engine; a rejection shows the engine's reason (capitalised, no server path),
    and so does each benchmark left out of a queued submission."""
    try:
        submitted = queue_submission(form, user, store=store, settings=settings)
    except SubmissionRejected as exc:
        return SubmitResult(readable(str(exc)))
    queued = submitted.requests
    requests = ", ".join(f"#{r.id} ({r.benchmark}, {r.chat_mode} prompts)" if offers_raw(BENCHMARKS[r.benchmark])
                         else f"#{r.id} ({r.benchmark})" for r in queued)
    left_out = "".join(f"\nLeft out: {readable(reason)}" for reason in submitted.left_out)
    return SubmitResult(f"Queued as request {requests}: {queued[0].model_id} at {queued[0].revision}.{left_out}",
                        queued=True)

