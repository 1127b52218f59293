"""Submissions: validate a model id, queue it, and run the queue unattended.

The package exports the queue and the checks. Submitting, the worker and the scheduler live in
`service`, `worker` and `scheduler`, imported from there: they mirror to the Hub, and
`eval_backend.hub_sync` itself needs the queue types, so loading them here would be a cycle.
"""

from eval_backend.submissions.model_facts import SubmissionRejected
from eval_backend.submissions.queue_store import (
    DuplicateRequest,
    LimitReached,
    NewRequest,
    Phase,
    QueueError,
    QueueRequest,
    QueueStore,
    QueueUnavailable,
    RequestNotFound,
    Status,
    open_queue,
    queue_path,
)
from eval_backend.submissions.queue_sqlite import SqliteQueueStore
from eval_backend.submissions.validation import SubmissionForm, ValidatedSubmission, validate_submission

__all__ = [
    "DuplicateRequest",
    "LimitReached",
    "NewRequest",
    "Phase",
    "QueueError",
    "QueueRequest",
    "QueueStore",
    "QueueUnavailable",
    "RequestNotFound",
    "SqliteQueueStore",
    "Status",
    "SubmissionForm",
    "SubmissionRejected",
    "ValidatedSubmission",
    "open_queue",
    "queue_path",
    "validate_submission",
]
