"""The "filters active" line and what the board counts as active."""

from __future__ import annotations

from leaderboard.filter_summary import active_filters_line
from leaderboard.writing_bench_tables import DEFAULT_GROUPS, BoardQuery
from leaderboard.tabs.leaderboard_tab import active_filters


def test_the_standard_board_has_no_active_filter() -> None:
    assert active_filters(BoardQuery(), DEFAULT_GROUPS) == [] and active_filters_line([]) == ""


def test_each_filter_is_named_and_values_are_shown_literally() -> None:
    query = BoardQuery(search="<b>acme</b>", min_params_b=1, max_params_b=8, model_type="chat",
                       hide_flags=("cut_off",), open_weights_only=True)
    named = dict(active_filters(query, ("languages",)))
    assert named["search"] == "<b>acme</b>" and named["size"] == "1–8 B" and named["model type"] == "chat"
    assert named["hiding flagged rows"] == "⚠ cut off" and "open weights only" in named
    assert "column groups changed" in named
    line = active_filters_line(active_filters(query, DEFAULT_GROUPS))
    assert line.startswith("**Filters active:**") and "\\<b\\>acme\\<\\/b\\>" in line and "<b>" not in line
