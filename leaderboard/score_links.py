"""Every number a link: a score cell opens the items behind it, as an address of this page
(`?tab=leaderboard&model=<run id>&config=Hindi`) that the tab's item browser reads like any shared link.
"""

from __future__ import annotations

from typing import Collection, Mapping
from urllib.parse import urlencode

from leaderboard.display import ScoreLink
from leaderboard.page_link import MAX_VALUE_CHARS
from leaderboard.tab_links import TAB_PARAM


def items_address(tab: str, run_id: str, filters: Mapping[str, str] | None = None) -> str:
    """The page address of `run_id`'s items in `tab`, filtered (`{"language": "Hindi"}`); blank filters left out."""
    params = {TAB_PARAM: tab, "model": run_id, **{name: value for name, value in (filters or {}).items() if value}}
    return "?" + urlencode(params)


def score_link(tab: str, group_fields: Mapping[str, str], headline_columns: Collection[str],
               column_filters: Mapping[str, Mapping[str, str]] | None = None) -> ScoreLink:
    """The links of a board's score cells: a headline column opens all of a run's items in `tab`; a column of
    `column_filters` the items its filters keep (Saraiki's math accuracy: `{"task": "math"}`); a breakdown
    column `<group>.<name>` opens those whose `group_fields[group]` field is `name`; other columns, and a run id
    longer than a link may carry (`page_link.MAX_VALUE_CHARS`: the link would be dropped), link nowhere."""
    def link(run_id: str, column: str) -> str | None:
        if len(run_id) > MAX_VALUE_CHARS:
            return None
        if column_filters and column in column_filters:
            return items_address(tab, run_id, column_filters[column])
        if column in headline_columns:
            return items_address(tab, run_id)
        group, _, name = column.partition(".")
        field = group_fields.get(group)
        return items_address(tab, run_id, {field: name}) if field and name else None

    return link
