"""Run a build on a thread of its own, away from the thread Playwright's sync API holds.

Playwright's sync API keeps an asyncio event loop marked as running on the thread that started it, so
`asyncio.run` there fails ("cannot be called from a running event loop"). The browser tests share one
Chromium for the whole session: a data folder or stand-in Hub built after it started (through the
engine, which runs its judge calls on an event loop) is built on a fresh thread, which has no loop.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def apart(build: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """What `build(*args, **kwargs)` returns, called on a thread of its own (its exception raised here)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="build-apart") as pool:
        return pool.submit(build, *args, **kwargs).result()
