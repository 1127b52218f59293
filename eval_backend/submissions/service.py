"""Submitting: validate, then queue a request per benchmark; on any failure nothing is queued."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from eval_backend.hub_sync import mirror_request
from eval_backend.settings import Settings
from eval_backend.submissions.model_facts import SubmissionRejected
from eval_backend.submissions.queue_store import DuplicateRequest, LimitReached, QueueRequest, QueueStore
from eval_backend.submissions.validation import (
    LIMIT_WINDOW,
    SubmissionForm,
    duplicate_message,
    limit_message,
    validate_submission,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Submitted:
    """What a submission queued (a request per benchmark), and why each benchmark left out was left out."""

    requests: tuple[QueueRequest, ...]
    left_out: tuple[str, ...] = ()


def submit(form: SubmissionForm, user: str | None, *, store: QueueStore, settings: Settings) -> list[QueueRequest]:
    """The requests `queue_submission` queued (for callers that need not say what was left out)."""
    return list(queue_submission(form, user, store=store, settings=settings).requests)


def queue_submission(form: SubmissionForm, user: str | None, *, store: QueueStore, settings: Settings) -> Submitted:
    """Validate `form` for `user` and queue one request per benchmark it asks for (`form.benchmarks`).

    Benchmarks this model revision is already queued for or evaluated on, and those that need a
    chat template the model lacks, are left out (logged, and said in `left_out`);
    SubmissionRejected, with nothing queued, if it fails a check or none is left. The per-user
    limit and the duplicate check are made again inside the queue's insert.
    """
    validated = validate_submission(form, store=store, settings=settings, user=user)
    for reason in validated.skipped:
        logger.info("submission of %s: left out: %s", form.model_id, reason)
    try:
        queued = store.add_submission(
            validated.requests,
            per_user_limit=settings.queue.submissions_per_week,
            window_s=LIMIT_WINDOW.total_seconds(),
        )
    except DuplicateRequest as exc:  # queued by someone else since the check
        raise SubmissionRejected(duplicate_message(exc.existing)) from exc
    except LimitReached as exc:  # a parallel submission by the same user took the last slot
        raise SubmissionRejected(limit_message(exc)) from exc
    for request in queued:
        logger.info(
            "queued request #%d: %s at %s on %s (%s prompts, %s parameters) for %s",
            request.id, request.model_id, request.revision, request.benchmark, request.chat_mode,
            validated.parameters, request.submitter,
        )
        mirror_request(request, settings)
    return Submitted(tuple(queued), validated.skipped)
