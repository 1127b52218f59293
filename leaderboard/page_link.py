"""`read_link`: the page address's query string (`?tab=qa&q=…`), read within stated bounds and never raising.

Every tab reads its part of a shared link from here. An address is untrusted text of any size: what lies past a
bound below is not read, and each typed reading (`choice`, `listed`, `number`, `flag`) drops what it cannot use. A
dropped part asks nothing; the rest of the link still applies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Collection, Mapping
from urllib.parse import unquote_plus

MAX_LINK_CHARS = 8192
"""Characters of a query string read, at most (a browser's address bar keeps ~2,000 in a shared link)."""
MAX_LINK_PARAMS = 64
"""Parameters read, at most (a tab's rankings have 13, its item browser 10)."""
MAX_VALUE_CHARS = 512
"""Characters of one value, decoded, at most: several 100-character model ids in a search, with room to spare."""
MAX_LIST_ITEMS = 32
"""Values of one list parameter (`langs=Hindi,Tamil`), at most; more are not read."""
MAX_INDEX_DIGITS = 9
"""Digits of an item index, at most: more than any benchmark has items, and `int()` stays cheap."""
LIST_SEPARATOR = ","
"""What separates the values of one list parameter (`langs=Hindi,Tamil`); no license, language or group holds it."""


@dataclass(frozen=True)
class PageLink:
    """A link's parameters as {name: last value}, blank values left out; read them through the typed methods."""

    values: Mapping[str, str] = field(default_factory=dict)

    def has(self, name: str) -> bool:
        """Whether the link gives `name` a (non-blank) value."""
        return name in self.values

    def text(self, name: str, default: str = "") -> str:
        """The value of `name` as given, or `default`."""
        return self.values.get(name, default)

    def choice(self, name: str, allowed: Collection[str]) -> str | None:
        """The value of `name` when it is one of `allowed`, else None."""
        value = self.values.get(name)
        return value if value in allowed else None

    def listed(self, name: str, allowed: Collection[str] | None = None) -> tuple[str, ...]:
        """The comma-separated values of `name` (the first MAX_LIST_ITEMS, blanks and repeats dropped), only those
        in `allowed` when it is given."""
        parts = self.values.get(name, "").split(LIST_SEPARATOR, MAX_LIST_ITEMS)[:MAX_LIST_ITEMS]
        values = (part.strip() for part in parts)
        return tuple(dict.fromkeys(value for value in values if value and (allowed is None or value in allowed)))

    def number(self, name: str, low: float, high: float) -> float | None:
        """The value of `name` as a finite number within [low, high], else None."""
        return bounded_number(self.values.get(name), low, high)

    def flag(self, name: str) -> bool:
        """Whether `name` is `1` (the links' way of writing a ticked box)."""
        return self.values.get(name) == "1"


def read_link(query: object) -> PageLink:
    """The parameters of a query string (with or without its `?`); anything but text is an empty link."""
    if not isinstance(query, str):
        return PageLink()
    read = query[:MAX_LINK_CHARS]
    if len(query) > MAX_LINK_CHARS:  # the last part read is cut short: not what the link said
        read = read.rpartition("&")[0]
    values: dict[str, str] = {}
    for part in read.lstrip("?").split("&", MAX_LINK_PARAMS)[:MAX_LINK_PARAMS]:
        name, _, raw = part.partition("=")
        value = unquote_plus(raw)
        if value and len(value) <= MAX_VALUE_CHARS:
            values[unquote_plus(name)] = value
    return PageLink(values)


def bounded_number(text: str | None, low: float, high: float) -> float | None:
    """`text` as a finite number within [low, high], or None (not a number, NaN, infinite, out of range)."""
    if text is None or len(text) > MAX_VALUE_CHARS:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and low <= value <= high else None


def bounded_index(text: str) -> int | None:
    """`text` as an item index (ASCII digits, at most MAX_INDEX_DIGITS), or None."""
    if not text.isascii() or not text.isdigit() or len(text) > MAX_INDEX_DIGITS:
        return None
    return int(text)
