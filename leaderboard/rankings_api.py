"""What the documented `/benchmark_rankings` endpoint answers (`public_api`): a declared benchmark's rankings, as
the seed scores them or controlled for answer length and style, the rows its search and flags keep.

The table is the benchmark tab's own (its CSV's columns, ranked runs first) in either reading
(`style_view`); the inputs are checked by `leaderboard.endpoint_inputs` before any work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.context import AppContext
from leaderboard.endpoint_inputs import choice, text, texts
from leaderboard.ranking_query import RankingQuery, kept_rows
from leaderboard.row_flags import FLAGS
from leaderboard.scored_tables import ranking_of
from leaderboard.style_view import CONTROLLED, SEED, in_reading, style_view


@dataclass(frozen=True)
class StyledRankings:
    """The benchmark, the reading, the rows kept, and why there is no controlled reading ("" where there is)."""

    benchmark: str
    style: str
    table: pd.DataFrame
    uncontrolled: str


def declared_benchmarks(context: AppContext) -> list[str]:
    """The benchmarks on the board (the endpoint's choices): every tab is built from its benchmark's declarations."""
    return list(context.stores)


def styled_rankings(context: AppContext, benchmark: Any, search: Any, hide_flags: Any, style: Any) -> StyledRankings:
    """The rankings of `benchmark` that `search` and `hide_flags` keep, in the reading `style` (default the seed's)."""
    name = choice(benchmark, "benchmark", declared_benchmarks(context))
    reading = choice(style, "style", [SEED, CONTROLLED], default=SEED)
    terms, hidden = text(search, "search"), texts(hide_flags, "hide_flags", FLAGS)
    chosen, snapshot = BENCHMARKS[name], context.stores[name].snapshot()
    seed = ranking_of(snapshot, chosen, context.settings.judge.model)
    ranking = in_reading(snapshot, chosen, seed, reading)
    reason = (style_view(snapshot, chosen, seed).reason or "") if reading == CONTROLLED else ""
    return StyledRankings(name, reading, ranking[kept_rows(ranking, RankingQuery(search=terms, hide_flags=hidden))], reason)
