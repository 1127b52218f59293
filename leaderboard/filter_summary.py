"""The "filters active" line: what narrows a view, in words, so a restored link never hides rows silently."""

from __future__ import annotations

from typing import Sequence

from leaderboard.display import literal_markdown

PREFIX = "**Filters active:**"


def active_filters_line(filters: Sequence[tuple[str, str]]) -> str:
    """`Filters active: search “acme”; model type: reasoning` (values shown literally); "" when none is active."""
    if not filters:
        return ""
    parts = "; ".join(f"{name}: {literal_markdown(value)}" if value else name for name, value in filters)
    return f"{PREFIX} {parts}. Rows or columns are left out; **Reset filters** shows the whole board."
