"""Each run's standing on its benchmark's board: headline, interval, rank and rank range, from the one ranking every
board shows (`scored_tables.ranking_frame`). The overview, the model page and the board's table read ranks here.
"""

from __future__ import annotations

import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.answer_lengths import LENGTH_COLUMNS
from leaderboard.context import AppContext
from leaderboard.scored_tables import ranking_of

RANK_FRAME_COLUMNS = ["run_id", "model", "revision", "headline", "ci_low", "ci_high", "rank", "rank_best",
                      "rank_worst", "standing", "standing_note", "flags"]


def benchmark_ranks(benchmark: Benchmark, ranking: pd.DataFrame) -> pd.DataFrame:
    """One row per run of the benchmark's `ranking` (`RANK_FRAME_COLUMNS`, and the median answer length where it has
    it), in its order."""
    frame = ranking.assign(headline=ranking[benchmark.headline_metric().name])
    return frame[[*RANK_FRAME_COLUMNS, *(column for column in LENGTH_COLUMNS if column in frame)]]


def board_ranks(context: AppContext, name: str) -> pd.DataFrame:
    """The rank frame of benchmark `name` on the app's current results (from the ranking the app keeps)."""
    snapshot, benchmark = context.stores[name].snapshot(), BENCHMARKS[name]
    return benchmark_ranks(benchmark, ranking_of(snapshot, benchmark, context.settings.judge.model))
