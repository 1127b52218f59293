"""The adaptive bound halves once per burst of 429s and grows back one step at a time."""

import asyncio

from eval_backend.concurrency import AdaptiveLimiter


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


def test_slots_never_exceed_the_current_limit() -> None:
    async def go() -> int:
        limiter = AdaptiveLimiter(3)
        in_flight = peak = 0

        async def call() -> None:
            nonlocal in_flight, peak
            async with limiter.slot():
                in_flight += 1
                peak = max(peak, in_flight)
                await asyncio.sleep(0.001)
                in_flight -= 1

        await asyncio.gather(*(call() for _ in range(20)))
        return peak

    assert asyncio.run(go()) == 3
