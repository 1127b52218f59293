"""The one place the web app parts its two kinds of board: one benchmark tab built from a benchmark's declarations
(QA, Saraiki and any benchmark added), or tabs of its own built by name (WritingBench's Leaderboard, Plots and
Judgments: `BoardView.own_tabs`). The overview, the ranks and the model page work on `board_kind(benchmark)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from leaderboard.context import AppContext
from leaderboard.results import RunResult, Snapshot
from leaderboard.scored_tables import ranking_frame, ranking_of, tab_id
from leaderboard.writing_bench_tables import RANKED, standing_frame, table_for_runs

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
    ranks: Callable[[Any, Sequence[RunResult], str, pd.DataFrame | None], pd.DataFrame]
    """(benchmark, runs, configured judge, its kept board or None): the board with `headline`, `ci_low`, `ci_high`."""
    kept_board: Callable[[Any, AppContext, Snapshot], pd.DataFrame]
    """The benchmark's board of `snapshot` as the app keeps it, its joint bootstrap drawn once per results."""
    shown_runs: Callable[[Any, Sequence[RunResult]], Sequence[RunResult]]
    """The runs whose headline the overview shows beside other benchmarks'."""
    breakdown: Callable[[Any, Mapping[str, Any]], list[Row]]
    """A run's breakdowns on its model page, from its summary."""


def _ranked_runs(benchmark: Benchmark, runs: Sequence[RunResult]) -> Sequence[RunResult]:
    """The runs WritingBench's board ranks: a partial or incomplete run's headline is taken from part of the
    evidence; its own tab lists it apart, and the overview leaves it blank rather than beside ranked ones."""
    standings = standing_frame(runs)
    ranked = set(standings.loc[standings["standing"] == RANKED, "run_id"])
    return [run for run in runs if run.run_id in ranked]


def _rubric_breakdown(benchmark: Benchmark, summary: Mapping[str, Any]) -> list[Row]:
    unit = benchmark.headline_metric().unit
    rows = [("language", name, name, score, (summary.get("config_ci") or {}).get(name), unit)
            for name, score in (summary.get("configs") or {}).items()]
    variants = (summary.get("variants") or {}).items()
    return rows + [("variant", name, name, score, None, unit) for name, score in variants]


def _scored_ranks(benchmark: Any, runs: Sequence[RunResult], judge: str, board: pd.DataFrame | None) -> pd.DataFrame:
    table = ranking_frame(runs, benchmark, judge) if board is None else board  # ranks, intervals, flags
    return table.assign(headline=table[benchmark.headline_metric().name])


def _scored_breakdown(benchmark: Any, summary: Mapping[str, Any]) -> list[Row]:
    metrics = {metric.name: metric for metric in benchmark.metrics}
    return [("", name, metrics[name].label if name in metrics else name, value,
             (summary.get("intervals") or {}).get(name), metrics[name].unit if name in metrics else "")
            for name, value in (summary.get("metrics") or {}).items()]


OWN_TABS = BoardKind(
    own_tab=False,
    items_tab=lambda benchmark: JUDGMENTS_TAB,
    ranks=lambda benchmark, runs, judge, board: (table_for_runs(runs, judge) if board is None else board).rename(
        columns={"indic_average": "headline", "indic_ci_low": "ci_low", "indic_ci_high": "ci_high"}),
    kept_board=lambda benchmark, context, snapshot: context.tables.table(snapshot),
    shown_runs=_ranked_runs,
    breakdown=_rubric_breakdown,
)
BENCHMARK_TAB = BoardKind(
    own_tab=True,
    items_tab=tab_id,
    ranks=_scored_ranks,
    kept_board=lambda benchmark, context, snapshot: ranking_of(snapshot, benchmark, context.settings.judge.model),
    shown_runs=lambda benchmark, runs: runs,
    breakdown=_scored_breakdown,
)


def board_kind(benchmark: Benchmark) -> BoardKind:
    """The app's board for `benchmark`: WritingBench's own tabs where it declares them, else its benchmark tab."""
    return OWN_TABS if benchmark.board.own_tabs else BENCHMARK_TAB
