"""An adaptive bound on calls in flight (additive increase, multiplicative decrease on 429),
and a bounded pool of workers to feed it."""

from __future__ import annotations

import asyncio
from collections import deque
from contextlib import asynccontextmanager
from typing import AsyncIterator, Awaitable, Callable, Iterable, TypeVar

T = TypeVar("T")


class AdaptiveLimiter:
    """Lets at most `limit` calls run at once; the limit halves when the endpoint says 429.

    A throttle only lowers the limit once per generation: calls that were already in
    flight when the limit dropped answer 429 too, and must not halve it again. After
    `limit` successes in a row the limit grows by one, up to `max_limit`.

    Waiters are served first come, first served, and a freed slot wakes exactly one of them
    (waking every waiter on each release made N waiting calls cost O(N²)).
    """

    def __init__(self, max_limit: int, min_limit: int = 1) -> None:
        if max_limit < 1:
            raise ValueError("max_limit must be at least 1")
        self.max_limit = max_limit
        self.min_limit = min(min_limit, max_limit)
        self.limit = max_limit
        self.throttles = 0
        self._in_flight = 0
        self._generation = 0
        self._successes = 0
        self._waiters: deque[asyncio.Future[None]] = deque()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[int]:
        """Hold one call slot; yields the generation to pass to `throttled`."""
        await self._acquire()
        try:
            yield self._generation
        finally:
            self._release()

    async def _acquire(self) -> None:
        if self._in_flight < self.limit and not self._waiters:
            self._in_flight += 1
            return
        granted = asyncio.get_running_loop().create_future()
        self._waiters.append(granted)
        try:
            await granted  # whoever grants the slot counts it in flight for us
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self._release()  # granted, then cancelled before use: pass the slot on
            else:
                self._waiters.remove(granted)
            raise

    def _release(self) -> None:
        self._in_flight -= 1
        self._grant_free_slots()

    def _grant_free_slots(self) -> None:
        while self._waiters and self._in_flight < self.limit:
            granted = self._waiters.popleft()
            if not granted.done():
                self._in_flight += 1
                granted.set_result(None)

    def succeeded(self) -> None:
        """Record a call that went through; enough of them raise the limit."""
        self._successes += 1
        if self._successes >= self.limit and self.limit < self.max_limit:
            self.limit += 1
            self._successes = 0
            self._grant_free_slots()

    def throttled(self, generation: int) -> None:
        """Record a 429 for a call started in `generation`."""
        self.throttles += 1
        if generation != self._generation:
            return
        self._generation += 1
        self._successes = 0
        self.limit = max(self.min_limit, self.limit // 2)


async def run_workers(items: Iterable[T], work: Callable[[T], Awaitable[None]], workers: int) -> None:
    """`work` on every item, by `workers` tasks that take the items in order, one at a time.

    A fixed pool instead of one task per item: a waiting task per item costs memory and
    scheduling for the whole run. The first exception stops the other workers and is raised
    (not wrapped in an ExceptionGroup).
    """
    pending = iter(items)

    async def worker() -> None:
        for item in pending:
            await work(item)

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(workers):
                group.create_task(worker())
    except ExceptionGroup as errors:
        raise errors.exceptions[0] from None
