"""Handing freed memory back to the operating system between the steps of a long run."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import Callable


def trim_heap() -> None:
    """Return the C heap's free pages to the OS (glibc's `malloc_trim`; a no-op elsewhere).

    A query is a ~40 KB string allocated from the C heap; once a config's queries are freed,
    glibc keeps their pages for reuse, fragmented among live objects, so the process holds
    ~100 MB it no longer uses. Judging config by config, that would stack up to the
    all-configs peak the config-by-config order exists to avoid.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None)
    except OSError:
        return None
