"""The adaptive bound halves once per burst of 429s and grows back one step at a time."""

import asyncio
from contextlib import contextmanager
from typing import Iterator

import pytest

from eval_backend.concurrency import AdaptiveLimiter, run_workers


def test_a_throttle_halves_the_limit_once_per_generation() -> None:
    limiter = AdaptiveLimiter(16)
    limiter.throttled(generation=0)
    limiter.throttled(generation=0)  # a call from before the drop: no second halving
    assert limiter.limit == 8 and limiter.throttles == 2
    limiter.throttled(generation=1)
    assert limiter.limit == 4


def test_successes_grow_the_limit_back_up_to_the_maximum() -> None:
    limiter = AdaptiveLimiter(4)
    limiter.throttled(0)
    assert limiter.limit == 2
    for _ in range(2 + 3 + 4):
        limiter.succeeded()
    assert limiter.limit == 4


def test_the_limit_never_drops_below_the_minimum() -> None:
    limiter = AdaptiveLimiter(2)
    for generation in range(5):
        limiter.throttled(generation)
    assert limiter.limit == 1


class InFlight:
    """Counts the calls inside `track()` now, and the most there were at once."""

    def __init__(self) -> None:
        self.now = self.peak = 0

    @contextmanager
    def track(self) -> Iterator[None]:
        self.now += 1
        self.peak = max(self.peak, self.now)
        try:
            yield
        finally:
            self.now -= 1


def test_slots_never_exceed_the_current_limit() -> None:
    async def go() -> int:
        limiter = AdaptiveLimiter(3)
        in_flight = InFlight()

        async def call() -> None:
            async with limiter.slot():
                with in_flight.track():
                    await asyncio.sleep(0.001)

        await asyncio.gather(*(call() for _ in range(20)))
        return in_flight.peak

    assert asyncio.run(go()) == 3


def test_waiters_get_freed_slots_first_come_first_served() -> None:
    async def go() -> list[int]:
        limiter = AdaptiveLimiter(2)
        order: list[int] = []

        async def call(number: int) -> None:
            async with limiter.slot():
                order.append(number)
                await asyncio.sleep(0.001)

        await asyncio.gather(*(call(number) for number in range(50)))
        return order

    assert asyncio.run(go()) == list(range(50))


def test_a_waiter_cancelled_before_or_after_its_grant_loses_no_slot() -> None:
    async def go() -> tuple[int, int]:
        limiter = AdaptiveLimiter(1)
        release = asyncio.Event()

        async def holder() -> None:
            async with limiter.slot():
                await release.wait()

        async def waiter() -> None:
            async with limiter.slot():
                pass

        held = asyncio.create_task(holder())
        await asyncio.sleep(0)
        waiting, granted_then_cancelled, last = (asyncio.create_task(waiter()) for _ in range(3))
        await asyncio.sleep(0)
        waiting.cancel()  # still waiting: leaves the queue
        release.set()
        await asyncio.sleep(0)  # the holder leaves and grants the slot to the next waiter...
        granted_then_cancelled.cancel()  # ...which is cancelled before it runs: the slot passes on
        await asyncio.wait_for(asyncio.gather(held, last), 10)  # a lost slot would leave `last` waiting
        await asyncio.gather(waiting, granted_then_cancelled, return_exceptions=True)
        return limiter._in_flight, len(limiter._waiters)

    assert asyncio.run(go()) == (0, 0)


def test_a_limit_grown_back_lets_waiters_in_at_once() -> None:
    async def go() -> int:
        limiter = AdaptiveLimiter(4)
        limiter.throttled(0)
        limiter.throttled(1)
        assert limiter.limit == 1
        entered = asyncio.Event()
        in_flight = InFlight()

        async def call() -> None:
            async with limiter.slot():
                with in_flight.track():
                    await entered.wait()

        tasks = [asyncio.create_task(call()) for _ in range(3)]
        await asyncio.sleep(0)
        limiter.succeeded()  # one success at limit 1: the limit grows to 2, a waiter enters now
        await asyncio.sleep(0)
        entered.set()
        await asyncio.gather(*tasks)
        return in_flight.peak

    assert asyncio.run(go()) == 2


def test_run_workers_bounds_the_tasks_and_raises_the_first_error_unwrapped() -> None:
    async def go() -> tuple[int, list[int]]:
        done: list[int] = []
        busy = InFlight()

        async def work(item: int) -> None:
            with busy.track():
                await asyncio.sleep(0)
            done.append(item)

        await run_workers(range(100), work, workers=3)
        return busy.peak, done

    peak, done = asyncio.run(go())
    assert peak == 3 and sorted(done) == list(range(100))

    async def failing(item: int) -> None:
        if item == 5:
            raise ValueError("row 5")

    with pytest.raises(ValueError, match="row 5"):
        asyncio.run(run_workers(range(10), failing, workers=2))
