"""The one place the web app parts its two kinds of board: one benchmark tab built from a benchmark's declarations
(QA, Saraiki and any benchmark added), or tabs of its own built by name (WritingBench's Leaderboard, Plots and
Judgments: `BoardView.own_tabs`). What still differs: where a run's items are listed and a run's breakdowns on
its model page; every benchmark's ranks come from one ranking (`benchmark_ranks`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from eval_backend.benchmarks.plugin import Benchmark
from leaderboard.scored_tables import tab_id

JUDGMENTS_TAB = "judgments"
"""WritingBench's items tab (its item browser, `item_browser`), until its board is one benchmark tab."""

Row = tuple[str, str, str, Any, Any, str]  # breakdown: items filter field (or ""), value, label, score, interval, unit


@dataclass(frozen=True)
class BoardKind:
    """How the app shows the runs of one benchmark record; every callable takes the benchmark first."""

    own_tab: bool
    """It has one tab of its own (`benchmark_tab`); WritingBench's tabs are built by name in `app_factory`."""
    items_tab: Callable[[Any], str]
    """The tab whose `model=<run id>` link lists a run's items."""
    breakdown: Callable[[Any, Mapping[str, Any]], list[Row]]
    """A run's breakdowns on its model page, from its summary."""


def _rubric_breakdown(benchmark: Benchmark, summary: Mapping[str, Any]) -> list[Row]:
    unit = benchmark.headline_metric().unit
    rows = [("language", name, name, score, (summary.get("config_ci") or {}).get(name), unit)
            for name, score in (summary.get("configs") or {}).items()]
    variants = (summary.get("variants") or {}).items()
    return rows + [("variant", name, name, score, None, unit) for name, score in variants]


def _scored_breakdown(benchmark: Any, summary: Mapping[str, Any]) -> list[Row]:
    metrics = {metric.name: metric for metric in benchmark.metrics}
    return [("", name, metrics[name].label if name in metrics else name, value,
             (summary.get("intervals") or {}).get(name), metrics[name].unit if name in metrics else "")
            for name, value in (summary.get("metrics") or {}).items()]


OWN_TABS = BoardKind(
    own_tab=False,
    items_tab=lambda benchmark: JUDGMENTS_TAB,
    breakdown=_rubric_breakdown,
)
BENCHMARK_TAB = BoardKind(
    own_tab=True,
    items_tab=tab_id,
    breakdown=_scored_breakdown,
)


def board_kind(benchmark: Benchmark) -> BoardKind:
    """The app's board for `benchmark`: WritingBench's own tabs where it declares them, else its benchmark tab."""
    return OWN_TABS if benchmark.board.own_tabs else BENCHMARK_TAB
