"""Each run's standing on its benchmark's board, for any benchmark: headline, interval, rank and rank range.

One frame per benchmark, whatever its kind, from the board its `board_kinds.BoardKind` draws (joint ranks and
flags included). The overview and the model page read ranks from here.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.answer_lengths import LENGTH_COLUMNS
from leaderboard.board_kinds import board_kind
from leaderboard.context import AppContext
from leaderboard.results import RunResult

RANK_FRAME_COLUMNS = ["run_id", "model", "revision", "headline", "ci_low", "ci_high", "rank", "rank_best",
                      "rank_worst", "standing", "standing_note", "flags"]


def benchmark_ranks(benchmark: Benchmark, runs: Sequence[RunResult], configured_judge: str = "",
                    board: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per run (`RANK_FRAME_COLUMNS`, and the median answer length where the board has it), in the board's order: ranked runs best first, then the others.

    `board`, the benchmark's own table of these runs (a rubric benchmark's `table_for_runs` as `TableCache`
    keeps it, a scored one's `ranking_of`), saves its joint bootstrap from being drawn again.
    """
    if not runs:
        return pd.DataFrame(columns=RANK_FRAME_COLUMNS)
    frame = board_kind(benchmark).ranks(benchmark, runs, configured_judge, board)
    return frame[[*RANK_FRAME_COLUMNS, *(column for column in LENGTH_COLUMNS if column in frame)]]


def board_ranks(context: AppContext, name: str) -> pd.DataFrame:
    """The rank frame of benchmark `name` on the app's current results (from the board the app keeps)."""
    snapshot, benchmark = context.stores[name].snapshot(), BENCHMARKS[name]
    board = board_kind(benchmark).kept_board(benchmark, context, snapshot)
    return benchmark_ranks(benchmark, snapshot.runs, context.settings.judge.model, board)
