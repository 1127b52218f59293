"""`SerialCache`: a result computed once per key, and never two computations at once, whoever asks."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from leaderboard.serial_cache import SerialCache


def test_many_visitors_asking_at_once_share_one_computation_per_key_and_none_overlap() -> None:
    cache: SerialCache[int] = SerialCache(8)
    other: SerialCache[int] = SerialCache(8)
    running, most, calls = [0], [0], []
    lock = threading.Lock()

    def compute(key: int) -> int:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
            calls.append(key)
        time.sleep(0.02)
        with lock:
            running[0] -= 1
        return key * 10

    with ThreadPoolExecutor(8) as pool:
        asks = [pool.submit((cache if n % 2 else other).get_or_compute, n % 4, lambda n=n: compute(n % 4))
                for n in range(32)]
        results = [ask.result() for ask in asks]
    assert results == [(n % 4) * 10 for n in range(32)]
    assert most[0] == 1  # the two caches share one lock: one computation at a time, server-wide
    assert sorted(calls) == [0, 1, 2, 3]  # keys 0, 2 in one cache, 1, 3 in the other, each computed once


def test_past_its_size_the_least_recently_used_result_is_computed_again() -> None:
    cache: SerialCache[str] = SerialCache(2)
    calls: list[str] = []

    def compute(key: str) -> str:
        calls.append(key)
        return key.upper()

    for key in ("a", "b", "a", "c", "b"):
        assert cache.get_or_compute(key, lambda key=key: compute(key)) == key.upper()
    assert calls == ["a", "b", "c", "b"]
