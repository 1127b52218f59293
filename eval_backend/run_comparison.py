"""Run A against run B on every figure of their benchmark, overall and per config, item by item.

The two runs must be of one benchmark on one dataset revision (then they answered the same
items); each figure is compared on the items both have a value for, with the benchmark's
clusters. A comparison may be restricted to some configs and to values of the benchmark's
subset columns (variant, domain, task).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from eval_backend.benchmarks.metric import Metric
from eval_backend.comparison_inputs import read_comparable_items
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.run_items import RunItems
from eval_backend.statistics import PairedComparison, compare_paired, item_design

ALL_CONFIGS = "all"


class RunsNotComparable(RunFolderError):
    """Two runs that cannot be compared item by item (another benchmark, no shared item)."""


@dataclass(frozen=True)
class FigureComparison:
    """One figure, over every chosen config (`scope` "all") or one config, A minus B."""

    figure: Metric
    scope: str
    comparison: PairedComparison


def read_run_pair(folder_a: RunFolder, folder_b: RunFolder) -> tuple[RunItems, RunItems]:
    """Runs A and B as `compare_runs` takes them: B read with A's clusters, so B's items.jsonl is not parsed.

    A comparison joins B's values onto A's items and resamples A's clusters (the runs answered the
    same items), so B's own clusters would never be used; parsing a full run's items.jsonl is most
    of the time a first comparison spends reading. Both are checked as read (`read_comparable_items`).
    """
    a = read_comparable_items(folder_a)
    return a, read_comparable_items(folder_b, clusters=a.clusters)


def compare_runs(
    a: RunItems, b: RunItems, configs: Sequence[str] | None = None, where: Mapping[str, Sequence[str]] | None = None,
    seed: int = 0, per_config: bool = True, items: Collection[tuple[str, int]] | None = None,
) -> list[FigureComparison]:
    """Every figure A and B share items on, then the same per config (for a figure of several configs).

    The items and their clusters are A's; B gives its values on them. A config's comparison is listed
    once, under the first figure that gives it.

    `per_config=False` leaves the per-config comparisons out; `items` keeps only those (config, index)
    keys (the items a viewer filtered).
    """
    _check_comparable(a, b)
    joined = _shared_items(a, b, configs, where or {})
    if items is not None:
        joined = joined[pd.MultiIndex.from_frame(joined[["config", "index"]]).isin(list(items))]
    results = []
    done: dict[Hashable, PairedComparison] = {}
    for figure in a.statistics.figures:
        counted = joined[np.isfinite(joined[f"{figure.name}_a"]) & np.isfinite(joined[f"{figure.name}_b"])]
        if counted.empty:
            continue
        results.append(FigureComparison(figure, ALL_CONFIGS, _compare(counted, figure, seed, done)))
        in_configs = list(dict.fromkeys(counted["config"]))
        if per_config and len(in_configs) > 1:
            by_config = [(config, counted[counted["config"] == config]) for config in in_configs]
            # A config whose comparison an earlier figure already gave (WritingBench's Indic average and overall
            # in Hindi) is listed once, under that figure.
            results.extend(FigureComparison(figure, config, _compare(rows, figure, seed, done))
                           for config, rows in by_config if _key(rows, figure) not in done)
    if not results:
        raise RunsNotComparable(f"{a.label} and {b.label} share no scored item in the chosen subset")
    return results


def _check_comparable(a: RunItems, b: RunItems) -> None:
    if a.benchmark != b.benchmark:
        raise RunsNotComparable(f"{a.label} is a run of {a.benchmark}, {b.label} of {b.benchmark}")
    if a.dataset_revision != b.dataset_revision:
        raise RunsNotComparable(
            f"{a.label} ran on dataset revision {a.dataset_revision}, {b.label} on {b.dataset_revision}: "
            "their items may differ, so they are not compared item by item"
        )


def _shared_items(
    a: RunItems, b: RunItems, configs: Sequence[str] | None, where: Mapping[str, Sequence[str]]
) -> pd.DataFrame:
    """A's items joined with B's values (suffixes _a, _b), restricted to the chosen configs and subsets."""
    figures = [figure.name for figure in a.statistics.figures]
    joined = a.items.drop(columns=["config", "index"]).join(b.items[figures], how="inner", lsuffix="_a", rsuffix="_b")
    joined = joined.reset_index()
    keep = pd.Series(True, index=joined.index)
    if configs:
        keep &= joined["config"].isin(configs)
    for column, values in where.items():
        if column not in a.statistics.subsets:
            raise RunsNotComparable(f"{a.benchmark} has no subset {column!r}; choose from {list(a.statistics.subsets)}")
        keep &= joined[column].isin(values)
    return joined[keep]


def _compare(items: pd.DataFrame, figure: Metric, seed: int, done: dict[Hashable, PairedComparison]) -> PairedComparison:
    """The comparison on `items`, taken from `done` when another figure had the very same items and values.

    (WritingBench's overall figure on one Indic language is its Indic average there: computed once.)
    """
    key = _key(items, figure)
    if key not in done:
        a, b = items[f"{figure.name}_a"].to_numpy(float), items[f"{figure.name}_b"].to_numpy(float)
        design = item_design(items["config"].tolist(), items["cluster"].tolist(), figure.weighting)
        done[key] = compare_paired(a, b, design, seed=seed, endpoint_error=figure.interval_error)
    return done[key]


def _key(items: pd.DataFrame, figure: Metric) -> Hashable:
    """What makes two figures' comparisons the same: the weighting, the items and both runs' values on them."""
    a, b = items[f"{figure.name}_a"].to_numpy(float), items[f"{figure.name}_b"].to_numpy(float)
    return (figure.weighting, figure.interval_error, items.index.to_numpy().tobytes(), a.tobytes(), b.tobytes())
