"""A check run before every write to a run folder, so a writer that must stop stops before its next line.

The queue's worker sets one around a run (`guarded_writes`): it raises once the worker no longer
holds its request (cancelled, or taken over by another worker after a stall), so nothing more
is written or paid for on its behalf. It is a context variable, so it covers every writer of the
run (responses, judgments, scores, summary, details) in the worker's thread and the asyncio
tasks it starts, and nothing else the process writes (the Hub sync's own files).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

_GUARD: ContextVar[Callable[[], None] | None] = ContextVar("run_write_guard", default=None)


@contextmanager
def guarded_writes(guard: Callable[[], None]) -> Iterator[None]:
    """Run `guard` before each run-folder write made inside the block; whatever it raises stops the write."""
    token = _GUARD.set(guard)
    try:
        yield
    finally:
        _GUARD.reset(token)


def check_write() -> None:
    """Called by the run folder's writers just before they write."""
    guard = _GUARD.get()
    if guard is not None:
        guard()
