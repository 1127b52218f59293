"""Each run's standing on its benchmark's board: headline, interval, rank and rank range, from the one ranking every
board shows (`scored_tables.ranking_frame`). The overview, the model page and the board's table read ranks here.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.answer_lengths import LENGTH_COLUMNS
from leaderboard.context import AppContext
from leaderboard.results import RunResult
from leaderboard.scored_tables import ranking_frame, ranking_of

RANK_FRAME_COLUMNS = ["run_id", "model", "revision", "headline", "ci_low", "ci_high", "rank", "rank_best",
                      "rank_worst", "standing", "standing_note", "flags"]


def benchmark_ranks(benchmark: Benchmark, runs: Sequence[RunResult], configured_judge: str = "",
                    board: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per run (`RANK_FRAME_COLUMNS`, and the median answer length where the board has it), in the board's
    order; `board`, the ranking the app keeps (`ranking_of`), saves drawing its joint bootstrap again."""
    if not runs:
        return pd.DataFrame(columns=RANK_FRAME_COLUMNS)
    table = ranking_frame(runs, benchmark, configured_judge) if board is None else board
    frame = table.assign(headline=table[benchmark.headline_metric().name])
    return frame[[*RANK_FRAME_COLUMNS, *(column for column in LENGTH_COLUMNS if column in frame)]]


def board_ranks(context: AppContext, name: str) -> pd.DataFrame:
    """The rank frame of benchmark `name` on the app's current results (from the ranking the app keeps)."""
    snapshot, benchmark = context.stores[name].snapshot(), BENCHMARKS[name]
    board = ranking_of(snapshot, benchmark, context.settings.judge.model)
    return benchmark_ranks(benchmark, snapshot.runs, context.settings.judge.model, board)
