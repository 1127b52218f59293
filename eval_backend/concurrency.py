"""An adaptive bound on calls in flight: additive increase, multiplicative decrease on 429."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import AsyncIterator


class AdaptiveLimiter:
    """Lets at most `limit` calls run at once; the limit halves when the endpoint says 429.

    A throttle only lowers the limit once per generation: calls that were already in
    flight when the limit dropped answer 429 too, and must not halve it again. After
    `limit` successes in a row the limit grows by one, up to `max_limit`.
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
        self._condition = asyncio.Condition()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[int]:
        """Hold one call slot; yields the generation to pass to `throttled`."""
        async with self._condition:
            await self._condition.wait_for(lambda: self._in_flight < self.limit)
            self._in_flight += 1
        try:
            yield self._generation
        finally:
            async with self._condition:
                self._in_flight -= 1
                self._condition.notify_all()

    def succeeded(self) -> None:
        """Record a call that went through; enough of them raise the limit."""
        self._successes += 1
        if self._successes >= self.limit and self.limit < self.max_limit:
            self.limit += 1
            self._successes = 0

    def throttled(self, generation: int) -> None:
        """Record a 429 for a call started in `generation`."""
        self.throttles += 1
        if generation != self._generation:
            return
        self._generation += 1
        self._successes = 0
        self.limit = max(self.min_limit, self.limit // 2)
