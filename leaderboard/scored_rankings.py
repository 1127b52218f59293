"""The ranking rule of every benchmark's board: complete runs only, by the headline metric in its direction.

A run is ranked when it covers every config of the dataset and every item is scored (`coverage_standing`; a
limited run never is), with its rank range from the joint bootstrap of the runs on the shared dataset revision
(`joint_ranks`), else the range its own interval allows (`rank_ranges`, as Chatbot Arena does). Partial and
incomplete runs follow, labelled.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from leaderboard.joint_ranks import JOINT_RULE, with_joint_rank_ranges
from leaderboard.results import RunResult
from leaderboard.run_shape import whole_number
from leaderboard.subset_ranks import Subset, subset_ranks

RANKED, PARTIAL, INCOMPLETE = "ranked", "partial", "incomplete"
RANK_COLUMNS = ("rank", "rank_best", "rank_worst", "rank_rule")
STANDING_COLUMNS = ("standing", "standing_note")
INTERVAL_COLUMNS = ("ci_low", "ci_high")
"""The 95 % interval of the headline figure, from the run's summary."""


def ranked_table(frame: pd.DataFrame, runs: Sequence[RunResult], benchmark: Benchmark) -> pd.DataFrame:
    """`frame` (one row per run: `run_id`, `dataset_revision`, the headline) with each run's standing, rank, rank
    range and the rule that gave it (`joint_ranks`), and the headline's interval: ranked runs first, best first,
    then the others, ties and the others in `frame`'s order."""
    metric = benchmark.headline_metric()
    standings = pd.DataFrame([_standing(run, metric.name) for run in runs],
                             columns=["run_id", *STANDING_COLUMNS, "_low", "_high"])
    table = frame.merge(standings, on="run_id", how="left")
    no_figure = table["standing"].eq(RANKED) & table[metric.name].isna()
    table.loc[no_figure, list(STANDING_COLUMNS)] = [INCOMPLETE, f"incomplete: no {metric.label.lower()} figure"]
    table = _best_first(table, table["standing"].ne(RANKED), table[metric.name], metric.higher_is_better)
    ranked = ~table["_out"]
    table = table.assign(ci_low=table["_low"], ci_high=table["_high"])
    if not metric.higher_is_better:  # ranges read "higher is better"
        table = table.assign(_low=-table["_high"], _high=-table["_low"])
    best, worst = rank_ranges(table["_low"][ranked], table["_high"][ranked])
    table["rank_best"] = pd.Series(best, index=table.index[ranked], dtype="Int64")
    table["rank_worst"] = pd.Series(worst, index=table.index[ranked], dtype="Int64")
    table = with_joint_rank_ranges(table, runs, ranked, figure=metric.name, bounds=("_low", "_high"))
    ordered = [*RANK_COLUMNS, *frame.columns, *INTERVAL_COLUMNS, *STANDING_COLUMNS]
    return table[ordered]


def _best_first(table: pd.DataFrame, out: pd.Series, figure: pd.Series, higher_is_better: bool) -> pd.DataFrame:
    """The rows `out` leaves in first, best first by `figure` (ties keep their order), ranked; the others after."""
    key = (1.0 if higher_is_better else -1.0) * figure.astype(float)
    table = table.assign(_out=out, _key=key).sort_values(["_out", "_key"], ascending=[True, False],
                                                         na_position="last", kind="stable").reset_index(drop=True)
    table["rank"] = table["_key"].where(~table["_out"]).rank(ascending=False, method="min").astype("Int64")
    return table


def _standing(run: RunResult, headline: str) -> dict[str, Any]:
    interval = (run.summary.get("intervals") or {}).get(headline)  # its shape is checked on read (run_shape)
    low, high = interval if interval else (float("nan"), float("nan"))
    return {"run_id": run.run_id, **coverage_standing(run.summary), "_low": low, "_high": high}


def coverage_standing(summary: Mapping[str, Any]) -> dict[str, str]:
    """A run's `standing` (ranked / partial / incomplete) and `standing_note` by its summary's coverage: only a
    complete run that covers every config of the dataset is ranked. A summary written before coverage was recorded
    is incomplete until the run is scored again; a limited run (`--limit`) is never complete."""
    coverage = summary.get("coverage")
    if not isinstance(coverage, dict):
        return {"standing": INCOMPLETE, "standing_note": "incomplete: scored before coverage was recorded "
                "(score the run again)"}
    expected, scored, no_response, configs, dataset_configs = (whole_number(coverage.get(name)) or 0 for name in (
        "expected", "scored", "no_response", "configs", "dataset_configs"))
    if configs < dataset_configs:
        return {"standing": PARTIAL, "standing_note": f"partial: {configs} of {dataset_configs} configs"}
    if summary.get("complete") is not True or scored + no_response < expected:
        return {"standing": INCOMPLETE, "standing_note": f"incomplete: {scored + no_response:,} of {expected:,} items"}
    return {"standing": RANKED, "standing_note": ""}


def rank_ranges(low: pd.Series, high: pd.Series) -> tuple[list[int], list[int]]:
    """Each model's best and worst rank given the 95 % intervals, as Chatbot Arena computes them: 1 + the models
    surely better (lower bound above this one's upper bound), and the number of models minus those surely worse. A
    model without an interval (NaN bounds) is surely neither: its range is every rank."""
    lows, highs = low.to_numpy(dtype=float), high.to_numpy(dtype=float)
    # [i, j]: model j is surely better (or worse) than model i; never true of i itself, as low <= high.
    surely_better = lows[np.newaxis, :] > highs[:, np.newaxis]
    surely_worse = highs[np.newaxis, :] < lows[:, np.newaxis]
    best = 1 + surely_better.sum(axis=1)
    worst = len(lows) - surely_worse.sum(axis=1)
    return [int(rank) for rank in best], [int(rank) for rank in worst]


def shared_ranked_runs(runs: Sequence[RunResult]) -> tuple[list[RunResult], str | None]:
    """The ranked runs on the dataset revision most ranked runs share (they answered the same items), and it."""
    ranked = [run for run in runs if coverage_standing(run.summary)["standing"] == RANKED]
    revisions = [run.request.get("dataset_revision") for run in ranked]
    if not ranked:
        return [], None
    shared = max(dict.fromkeys(revisions), key=revisions.count)
    return [run for run, revision in zip(ranked, revisions) if revision == shared], shared


def split_standing(table: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ranked rows (with their ranks), and the partial / incomplete ones (with why, without ranks), of the
    ranking's own columns or the screen's (one `rank_range` column)."""
    ranked = table["standing"].eq(RANKED)
    shown = table.drop(columns=["standing"])
    rank_columns = [column for column in (*RANK_COLUMNS, "rank_range") if column in shown]
    return (shown[ranked].drop(columns=["standing_note"]).reset_index(drop=True),
            shown[~ranked].drop(columns=rank_columns).reset_index(drop=True))


SUBSET_COLUMN = "subset"
"""The ranking's column of the headline on a chosen subset of the items (`on_subset`)."""


def on_subset(ranking: pd.DataFrame, runs: Sequence[RunResult], benchmark: Benchmark, subset: Subset) -> pd.DataFrame:
    """`ranking` re-ranked on a subset of the items: SUBSET_COLUMN, the interval, rank and rank range are the
    subset's, from one joint bootstrap of the ranked runs on it (`subset_ranks`), the ranked runs it could not take
    following, unranked; `ranking` unchanged when no two runs can be resampled on the subset."""
    metric = benchmark.headline_metric()
    ranked = ranking["standing"].eq(RANKED)
    if benchmark.item_statistics is None or not ranked.any():
        return ranking
    joint = subset_ranks(ranking, runs, ranked, benchmark.item_statistics(), metric.name, subset)
    if joint.empty:
        return ranking
    table = ranking.drop(columns=[*RANK_COLUMNS, *INTERVAL_COLUMNS]).merge(
        joint.rename(columns={"subset_average": SUBSET_COLUMN, "subset_ci_low": "ci_low",
                              "subset_ci_high": "ci_high"}), on="run_id", how="left")
    table = _best_first(table, ~(ranked & table[SUBSET_COLUMN].notna()), table[SUBSET_COLUMN], metric.higher_is_better)
    in_subset = ~table["_out"]
    table[["rank_best", "rank_worst"]] = table[["rank_best", "rank_worst"]].astype("Int64")
    table["rank_rule"] = pd.Series(JOINT_RULE, index=table.index).where(in_subset)
    return table.drop(columns=["_out", "_key"])[[*RANK_COLUMNS, "run_id", SUBSET_COLUMN, *(
        column for column in ranking.columns if column not in (*RANK_COLUMNS, "run_id"))]]
