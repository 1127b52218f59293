"""Submissions: validate a model id, queue it, and run the queue unattended."""

from eval_backend.submissions.model_facts import SubmissionRejected
from eval_backend.submissions.queue_store import (
    DuplicateRequest,
    NewRequest,
    Phase,
    QueueError,
    QueueRequest,
    QueueStore,
    RequestNotFound,
    Status,
)
from eval_backend.submissions.scheduler import start_scheduler
from eval_backend.submissions.service import open_queue, queue_path, submit
from eval_backend.submissions.validation import SubmissionForm, ValidatedSubmission, validate_submission
from eval_backend.submissions.worker import poll_once, run_request, worker_loop

__all__ = [
    "DuplicateRequest",
    "NewRequest",
    "Phase",
    "QueueError",
    "QueueRequest",
    "QueueStore",
    "RequestNotFound",
    "Status",
    "SubmissionForm",
    "SubmissionRejected",
    "ValidatedSubmission",
    "open_queue",
    "poll_once",
    "queue_path",
    "run_request",
    "start_scheduler",
    "submit",
    "validate_submission",
    "worker_loop",
]
