"""The ranking rule of a scored benchmark's board (QA, Saraiki): WritingBench's rule, on its headline.

Only complete runs are ranked (`tables.coverage_standing`: every config of the dataset, every
item scored; a limited run never is), by the benchmark's headline metric in its direction, each
with the rank range its bootstrap interval allows (`tables.rank_ranges`, as Chatbot Arena does).
Partial and incomplete runs follow, labelled; the board shows them in a table of their own.
"""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from eval_backend.benchmarks import ScoredBenchmark
from leaderboard.results import RunResult
from leaderboard.tables import INCOMPLETE, RANKED, coverage_standing, rank_ranges

RANK_COLUMNS = ("rank", "rank_best", "rank_worst")
STANDING_COLUMNS = ("standing", "standing_note")


def ranked_table(frame: pd.DataFrame, runs: Sequence[RunResult], benchmark: ScoredBenchmark) -> pd.DataFrame:
    """`frame` (one row per run: `run_id`, the headline column) with each run's standing, rank and rank range.

    Ranked runs come first, best first (ties kept in `frame`'s order), then the others in `frame`'s order.
    """
    metric = benchmark.headline_metric()
    standings = pd.DataFrame([_standing(run, metric.name) for run in runs],
                             columns=["run_id", *STANDING_COLUMNS, "_low", "_high"])
    table = frame.merge(standings, on="run_id", how="left")
    no_figure = table["standing"].eq(RANKED) & table[metric.name].isna()
    table.loc[no_figure, list(STANDING_COLUMNS)] = [INCOMPLETE, f"incomplete: no {metric.label.lower()} figure"]
    sign = 1.0 if metric.higher_is_better else -1.0  # ranks and ranges read "higher is better" from here on
    table = table.assign(_unranked=table["standing"].ne(RANKED), _key=sign * table[metric.name].astype(float))
    table = table.sort_values(["_unranked", "_key"], ascending=[True, False], na_position="last", kind="stable")
    table = table.reset_index(drop=True)
    ranked = ~table["_unranked"]
    table["rank"] = table["_key"].where(ranked).rank(ascending=False, method="min").astype("Int64")
    low, high = (table["_low"], table["_high"]) if sign > 0 else (-table["_high"], -table["_low"])
    best, worst = rank_ranges(low[ranked], high[ranked])
    table["rank_best"] = pd.Series(best, index=table.index[ranked], dtype="Int64")
    table["rank_worst"] = pd.Series(worst, index=table.index[ranked], dtype="Int64")
    ordered = [*RANK_COLUMNS, *frame.columns, *STANDING_COLUMNS]
    return table[ordered]


def _standing(run: RunResult, headline: str) -> dict[str, Any]:
    standing = coverage_standing(run.summary)
    interval = (run.summary.get("intervals") or {}).get(headline)  # its shape is checked on read (run_shape)
    low, high = interval if interval else (float("nan"), float("nan"))
    return {"run_id": run.run_id, "standing": standing["standing"], "standing_note": standing["standing_note"],
            "_low": low, "_high": high}


def split_standing(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ranked rows (with their ranks), and the partial / incomplete ones (with why, without ranks)."""
    ranked = table["standing"].eq(RANKED)
    shown = table.drop(columns=["standing"])
    return (shown[ranked].drop(columns=["standing_note"]).reset_index(drop=True),
            shown[~ranked].drop(columns=list(RANK_COLUMNS)).reset_index(drop=True))
