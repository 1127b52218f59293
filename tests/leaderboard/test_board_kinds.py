"""The web app's two kinds of board: every benchmark gets its benchmark tab, unless it declares tabs of its own."""

from __future__ import annotations

import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from leaderboard.board_kinds import board_kind
from leaderboard.board_kinds import JUDGMENTS_TAB
from leaderboard.scored_tables import tab_id


@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_every_registered_benchmark_has_a_board_and_only_writing_bench_tabs_of_its_own(name: str) -> None:
    benchmark = BENCHMARKS[name]
    kind = board_kind(benchmark)
    assert kind.own_tab is (name != INDIC_WRITING_BENCH.name)
    assert kind.items_tab(benchmark) == (tab_id(benchmark) if kind.own_tab else JUDGMENTS_TAB)


def test_breakdowns_are_each_record_s_own_an_undeclared_metric_by_its_name() -> None:
    rubric = {"configs": {"hindi": 7.25, "tamil": 6.5}, "config_ci": {"hindi": [6.9, 7.6]}, "variants": {"romanized": 5.0}}
    unit = INDIC_WRITING_BENCH.headline_metric().unit
    assert board_kind(INDIC_WRITING_BENCH).breakdown(INDIC_WRITING_BENCH, rubric) == [
        ("language", "hindi", "hindi", 7.25, [6.9, 7.6], unit), ("language", "tamil", "tamil", 6.5, None, unit),
        ("variant", "romanized", "romanized", 5.0, None, unit)]
    scored = {"metrics": {"judge": 61.5, "سرائیکی_overlap": 12.0}, "intervals": {"judge": [55.0, 68.0]}}
    assert board_kind(INDIC_QA).breakdown(INDIC_QA, scored) == [
        ("", "judge", "Judge accuracy", 61.5, [55.0, 68.0], "%"), ("", "سرائیکی_overlap", "سرائیکی_overlap", 12.0, None, "")]
