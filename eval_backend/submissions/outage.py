"""Waiting out a queue database that went away (PostgreSQL restarted, a network cut), then carrying on.

Every queue call a worker makes goes through `patient(store)`: a call that meets the database away
is tried again with exponential backoff (QUEUE_RECONNECT_MAX_S between tries at most), saying in
the log what it waits for, until the database answers; the connection pool replaces the broken
connections meanwhile. So an idle worker keeps polling and a busy one keeps its claim: its
heartbeat resumes when the database is back, and until then a write that needs the claim
confirmed (`ClaimFence`) waits instead of failing the run. If the outage outlasted
QUEUE_STALE_AFTER_S and another worker took the request over first, the fence stops the run as
for any stall.
"""

from __future__ import annotations

import functools
import logging
from typing import Any, Callable, TypeVar, cast

from tenacity import RetryCallState, Retrying, retry_if_exception_type, wait_exponential_jitter

from eval_backend.redaction import redact
from eval_backend.submissions.queue_store import QueueStore

logger = logging.getLogger(__name__)

T = TypeVar("T")


def patient(store: QueueStore, max_backoff_s: float) -> QueueStore:
    """`store` whose every call waits for the database to come back instead of raising its outage."""
    return cast(QueueStore, _PatientStore(store, max_backoff_s))


def until_reachable(store: QueueStore, what: str, call: Callable[[], T], max_backoff_s: float) -> T:
    """`call()`, tried again with backoff for as long as it meets the queue database away."""
    retrying = Retrying(
        retry=retry_if_exception_type(store.database_errors),
        wait=wait_exponential_jitter(initial=min(1.0, max_backoff_s), max=max_backoff_s, jitter=min(1.0, max_backoff_s)),
        before_sleep=functools.partial(_log_wait, store, what),
        reraise=True,
    )
    return retrying(call)


def _log_wait(store: QueueStore, what: str, state: RetryCallState) -> None:
    exc = state.outcome.exception() if state.outcome else None
    reason = str(exc).strip().splitlines()[0] if exc and str(exc).strip() else ""
    wait = state.next_action.sleep if state.next_action else 0.0
    logger.warning(
        "waiting for the queue database %s (%s: %s) to %s; trying again in %.1fs (try %d)",
        store.location, type(exc).__name__, redact(reason), what, wait, state.attempt_number,
    )


class _PatientStore:
    """A proxy of a QueueStore: its methods wait out an outage (`until_reachable`), its attributes are its own."""

    def __init__(self, store: QueueStore, max_backoff_s: float) -> None:
        self._store = store
        self._max_backoff_s = max_backoff_s

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        if not callable(value):
            return value

        @functools.wraps(value)
        def waiting(*args: Any, **kwargs: Any) -> Any:
            what = name.replace("_", " ")  # "requeue stale", "heartbeat", "append log": what the worker waits to do
            return until_reachable(self._store, what, lambda: value(*args, **kwargs), self._max_backoff_s)

        return waiting
