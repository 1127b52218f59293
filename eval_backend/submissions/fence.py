"""Fencing: a worker writes to its run folder only while it still holds its request.

A request leaves its worker when an admin cancels it, or when the worker stalled (a paused VM,
a long GC, a lost network) past QUEUE_STALE_AFTER_S and another worker took it over. Either
way the first worker must stop before its next write, or two workers pay for the same calls.

The heartbeat thread confirms the claim every beat (the heartbeat is an UPDATE that only
matches a request the worker holds). A write checks that the last confirmation is younger than
the lease; if it is not (the process was paused, the heartbeat thread is stuck), the write
confirms against the database itself first. The lease is half the stale age: a claim confirmed
at time t cannot be taken over before t + QUEUE_STALE_AFTER_S by the database's clock.
"""

from __future__ import annotations

import threading
import time

from eval_backend.submissions.queue_store import QueueStore


class ClaimLost(RuntimeError):
    """The worker no longer holds its request (cancelled, or taken over after a stall): it stops writing."""


class ClaimFence:
    """The write guard of one claimed request (see `eval_backend.write_guard`)."""

    def __init__(self, store: QueueStore, request_id: int, worker_id: str, lease_s: float) -> None:
        self._store = store
        self._request_id = request_id
        self._worker_id = worker_id
        self._lease_s = lease_s
        self._confirmed_at = time.monotonic()
        self._lost = threading.Event()

    @property
    def lost(self) -> bool:
        return self._lost.is_set()

    def report(self, held: bool) -> None:
        """What a heartbeat found: the claim still held (renewing the lease), or lost."""
        if held:
            self._confirmed_at = time.monotonic()
        else:
            self._lost.set()

    def __call__(self) -> None:
        """Raise ClaimLost unless the request is still this worker's; checks the database once the lease is old."""
        if not self._lost.is_set() and time.monotonic() - self._confirmed_at > self._lease_s:
            self.report(self._store.heartbeat(self._request_id, self._worker_id))
        if self._lost.is_set():
            raise ClaimLost(
                f"request #{self._request_id} is no longer held by worker {self._worker_id} "
                "(cancelled, or taken over after a stall); stopping before the next write"
            )
