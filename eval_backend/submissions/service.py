"""Submitting: validate, then queue; on any failure nothing is queued."""

from __future__ import annotations

import logging

from eval_backend.hub_sync import mirror_request
from eval_backend.settings import Settings
from eval_backend.submissions.model_facts import SubmissionRejected
from eval_backend.submissions.queue_store import DuplicateRequest, QueueRequest, QueueStore
from eval_backend.submissions.validation import SubmissionForm, duplicate_message, validate_submission

logger = logging.getLogger(__name__)


def submit(form: SubmissionForm, user: str | None, *, store: QueueStore, settings: Settings) -> QueueRequest:
    """Validate `form` for `user` and queue it; SubmissionRejected (and nothing queued) if it fails a check."""
    validated = validate_submission(form, store=store, settings=settings, user=user)
    try:
        queued = store.add(validated.request)
    except DuplicateRequest as exc:  # queued by someone else since the check
        raise SubmissionRejected(duplicate_message(exc.existing)) from exc
    logger.info(
        "queued request #%d: %s at %s (%s parameters) for %s",
        queued.id, queued.model_id, queued.revision, validated.parameters, queued.submitter,
    )
    mirror_request(queued, settings)
    return queued
