"""`SerialCache`: derived figures computed once per key, one computation at a time across the server.

A paired comparison of two full WritingBench runs costs seconds of CPU, a pairwise matrix about one; a visitor
choosing pair after pair, or many visitors at once, must not make the server run them side by side without end. Every
`SerialCache` shares one lock: at most one such computation runs at any moment, and visitors asking for the same key
wait for it and share it.
"""

from __future__ import annotations

import threading
from typing import Callable, Generic, Hashable, TypeVar

from leaderboard.results import LruCache

V = TypeVar("V")

_COMPUTING = threading.Lock()


class SerialCache(Generic[V]):
    """The last `size` results kept by key; a missing one is computed under the server-wide lock."""

    def __init__(self, size: int) -> None:
        self._kept: LruCache[V] = LruCache(size)

    def get_or_compute(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The result kept for `key`, else `compute()` once (a caller that waited finds it kept)."""
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        with _COMPUTING:
            return self._kept.get_or_load(key, compute)
