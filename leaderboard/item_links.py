"""An item and a run as a link names them: `<config>:<index>` (`Hindi:3`) and a run id the results must hold.

An address is untrusted: an item key that does not parse, or a run the store does not know (or one leaving the
runs folder), is None, and the rest of the link still applies.
"""

from __future__ import annotations

from leaderboard.page_link import bounded_index
from leaderboard.results import ResultsStore, UnknownRunError

ITEM_SEPARATOR = ":"


def item_key(config: str, index: int) -> str:
    """An item as the address writes it: `<config>:<index>`, e.g. `Hindi:3`."""
    return f"{config}{ITEM_SEPARATOR}{index}"


def parse_item_key(text: object) -> tuple[str, int] | None:
    """(config, index) of an `item_key`, or None when the text is not one (an index past `bounded_index` neither)."""
    config, separator, digits = (text if isinstance(text, str) else "").rpartition(ITEM_SEPARATOR)
    index = bounded_index(digits)
    return (config, index) if separator and config and index is not None else None


def known_run(store: ResultsStore, run_id: str | None) -> str | None:
    """`run_id` when the store has that run, else None (a link's run id is untrusted)."""
    if not run_id:
        return None
    try:
        return store.run(run_id).run_id  # refuses ids outside the runs folder, and folders the board skips
    except UnknownRunError:
        return None
