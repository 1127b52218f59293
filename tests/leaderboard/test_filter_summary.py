"""The "filters active" line and what a benchmark's tab counts as active (`RankingQuery.active`), on WritingBench's
tab (the one tab every benchmark has)."""

from __future__ import annotations

from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.filter_summary import active_filters_line
from leaderboard.ranking_query import RankingQuery
from leaderboard.scored_tables import group_labels

WRITING_BENCH = BENCHMARKS["indic_writing_bench"]
DEFAULT_GROUPS = WRITING_BENCH.board.column_groups
LABELS = group_labels(WRITING_BENCH)


def test_the_standard_board_has_no_active_filter() -> None:
    assert RankingQuery().active(DEFAULT_GROUPS, LABELS) == [] and active_filters_line([]) == ""
    # The default column groups, in any order, or ticked as they are, are no filter.
    unchanged = RankingQuery(groups=tuple(reversed(DEFAULT_GROUPS)), sort_by="indic")
    assert unchanged.active(DEFAULT_GROUPS, LABELS) == []


def test_each_filter_is_named_and_values_are_shown_literally() -> None:
    query = RankingQuery(search="<b>acme</b>", min_params_b=1, max_params_b=8, model_type="chat",
                         hide_flags=("cut_off",), open_weights_only=True, groups=("language",),
                         ranked_on=(("Hindi", "Tamil"), ("romanized",), ()), licenses=("mit", "apache-2.0"),
                         ranked_only=True)
    named = dict(query.active(DEFAULT_GROUPS, LABELS))
    assert named["search"] == "<b>acme</b>" and named["size"] == "1–8 B" and named["model type"] == "chat"
    assert named["hiding flagged rows"] == "⚠ cut off" and "open weights only" in named
    assert named["ranked on"] == "Hindi, Tamil; romanized" and named["license"] == "mit, apache-2.0"
    assert "partial and incomplete runs hidden" in named
    assert "column groups: Language" in named  # the groups shown, by the names their boxes show
    line = active_filters_line(query.active(DEFAULT_GROUPS, LABELS))
    assert line.startswith("**Filters active:**") and "\\<b\\>acme\\<\\/b\\>" in line and "<b>" not in line


def test_a_size_bound_on_one_side_reads_as_such() -> None:
    assert dict(RankingQuery(min_params_b=7).active(DEFAULT_GROUPS, LABELS)) == {"size": "from 7 B"}
    assert dict(RankingQuery(max_params_b=8).active(DEFAULT_GROUPS, LABELS)) == {"size": "0–8 B"}
