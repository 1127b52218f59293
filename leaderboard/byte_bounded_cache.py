"""`ByteBoundedCache`: a least-recently-used cache bounded by the bytes its entries hold, not their count.

A count bound says nothing about memory when entries range from a 2 KB style to a 5 MB script:
512 pages of 0.84 MB each took a server from 389 MB to 824 MB. Here each entry states its size,
the total stays under `max_bytes`, and an entry larger than `max_entry_bytes` is not kept at all
(it would push out many others).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, Hashable, TypeVar

V = TypeVar("V")


class ByteBoundedCache(Generic[V]):
    """Values kept by key, least recently used dropped first past `max_bytes`; not thread-safe (one event loop)."""

    def __init__(self, max_bytes: int, max_entry_bytes: int | None = None) -> None:
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_bytes // 4 if max_entry_bytes is None else max_entry_bytes
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0

    @property
    def bytes(self) -> int:
        """The bytes the kept entries hold, as their `put` stated them."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> V | None:
        """The value kept for `key`, or None."""
        if key not in self._entries:
            return None
        self._entries.move_to_end(key)
        return self._entries[key][0]

    def put(self, key: Hashable, value: V, size: int) -> bool:
        """Keep `value` (holding `size` bytes) for `key`, dropping least recently used entries past the bound;
        False, keeping nothing, when it alone is larger than `max_entry_bytes`."""
        if size > self.max_entry_bytes:
            return False
        self._drop(key)
        self._entries[key] = (value, size)
        self._bytes += size
        while self._bytes > self.max_bytes:
            self._drop(next(iter(self._entries)))
        return True

    def _drop(self, key: Hashable) -> None:
        if key in self._entries:
            self._bytes -= self._entries.pop(key)[1]
