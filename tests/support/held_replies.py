"""A stand-in judge's reply function that answers the first calls and holds every later one until released.

A test that stops a run between two judgments (a Job lost, a worker killed) used to slow the judge
down (a second a call) and hope the stop fell in between; on a busy machine that costs seconds a
call and still races. Holding the calls past the first `answered` makes "between two judgments" a
state the test waits for (`wait_holding`), however slow the machine. The stand-in server calls the
reply function on each request's own thread, so a held call keeps its connection open, as a slow
judge would, and is answered when the test calls `release`.
"""

from __future__ import annotations

import threading
from typing import Any

from tests.support.chat_server import Reply, ReplyFn, judge_reply

HOLD_LIMIT_S = 300.0
"""A held call is answered after this long anyway, so that a test that never releases cannot hang its server."""


class HeldReplies:
    """Answers the first `answered` calls with `reply`; later calls wait for `release()` (then answer too)."""

    def __init__(self, answered: int, reply: ReplyFn | None = None) -> None:
        self.answered = answered
        self._reply = reply or judge_reply()
        self._lock = threading.Lock()
        self._calls = 0
        self._holding = threading.Event()
        self._released = threading.Event()

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self._calls += 1
            held = self._calls > self.answered
        if held:
            self._holding.set()
            self._released.wait(HOLD_LIMIT_S)
        return self._reply(body)

    def holding(self) -> bool:
        """Whether a call past the first `answered` has arrived (and, until `release`, is held)."""
        return self._holding.is_set()

    def release(self) -> None:
        """Answer the held calls, and every later one at once."""
        self._released.set()
