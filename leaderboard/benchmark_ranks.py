"""Each run's standing on its benchmark's board, for any benchmark: headline, interval, rank and rank range.

One frame per benchmark, whatever its kind: a rubric benchmark's from its leaderboard table
(`tables.table_for_runs`, joint ranks and flags included), a scored benchmark's from its
benchmark tab's ranking (`scored_tables.ranking_frame`, flags included). The overview and the model page read ranks from here.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from eval_backend.benchmarks import BENCHMARKS, AnyBenchmark, ScoredBenchmark
from leaderboard.context import AppContext
from leaderboard.results import RunResult
from leaderboard.scored_tables import ranking_frame, ranking_of
from leaderboard.writing_bench_tables import table_for_runs

RANK_FRAME_COLUMNS = ["run_id", "model", "revision", "headline", "ci_low", "ci_high", "rank", "rank_best",
                      "rank_worst", "standing", "standing_note", "flags"]


def benchmark_ranks(benchmark: AnyBenchmark, runs: Sequence[RunResult], configured_judge: str = "",
                    board: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per run (`RANK_FRAME_COLUMNS`), in the board's order: ranked runs best first, then the others.

    `board`, the benchmark's own table of these runs (a rubric benchmark's `table_for_runs` as `TableCache`
    keeps it, a scored one's `ranking_of`), saves its joint bootstrap from being drawn again.
    """
    if not runs:
        return pd.DataFrame(columns=RANK_FRAME_COLUMNS)
    if benchmark.kind == "rubric":
        table = table_for_runs(runs, configured_judge) if board is None else board
        return table.rename(columns={"indic_average": "headline", "indic_ci_low": "ci_low",
                                     "indic_ci_high": "ci_high"})[RANK_FRAME_COLUMNS]
    table = ranking_frame(runs, benchmark, configured_judge) if board is None else board  # ranks, intervals, flags
    return table.assign(headline=table[benchmark.headline_metric().name])[RANK_FRAME_COLUMNS]


def board_ranks(context: AppContext, name: str) -> pd.DataFrame:
    """The rank frame of benchmark `name` on the app's current results (WritingBench's from the cached table)."""
    snapshot = context.stores[name].snapshot()
    benchmark = BENCHMARKS[name]
    if context.store is context.stores[name]:
        board = context.tables.table(snapshot)
    elif isinstance(benchmark, ScoredBenchmark):
        board = ranking_of(snapshot, benchmark, context.settings.judge.model)
    else:
        board = None
    return benchmark_ranks(benchmark, snapshot.runs, context.settings.judge.model, board)
