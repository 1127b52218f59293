"""The figures a summary.json holds and their 95 % intervals: each per-item metric's weighted mean and its
cluster bootstrap, over all its configs and per config.

One rule for every benchmark. A figure's per-item values are those its benchmark declares in
its `ItemStatistics` (the values a comparison and the joint ranking read from details.parquet),
its items cluster by the benchmark's declared rule, and its interval is
`eval_backend.statistics.cluster_bootstrap_interval` with the configs as strata (seeded; as many
replicates as bring an endpoint's Monte-Carlo error under the figure's `endpoint_error`): whole
clusters are drawn within each config, so linked items (one request's renderings, one passage's
questions) never count as independent evidence. An item without a
value (pending, a failed judgment, another task's item) is left out of that figure. A figure
with too few clusters has no interval (`Design.no_spread_reason`): one cluster says nothing of its
own spread (every replicate would redraw it, and the interval would shrink to the point).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import pandas as pd

from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.statistics import Weighting, cluster_bootstrap_interval, item_design
from eval_backend.statistics.draws import ENDPOINT_ERROR

Bounds = tuple[float, float]
"""(low, high): summary.json writes it as [low, high]."""


def figure_interval(
    values: Sequence[float | None] | np.ndarray, configs: Sequence[str], clusters: Sequence[str], weighting: Weighting,
    endpoint_error: float = ENDPOINT_ERROR,
) -> Bounds | None:
    """The cluster bootstrap 95 % interval of a figure over the items with a value; None with too few clusters."""
    numbers = np.asarray([np.nan if value is None else value for value in values], dtype=float)
    counted = np.flatnonzero(np.isfinite(numbers))
    design = item_design([configs[i] for i in counted], [clusters[i] for i in counted], weighting)
    if design.no_spread_reason() is not None:
        return None
    interval = cluster_bootstrap_interval(numbers[counted], design, endpoint_error=endpoint_error)
    return (interval.low, interval.high)


def item_figures(statistics: ItemStatistics, details: pd.DataFrame) -> dict[str, float | None]:
    """Each per-item metric's corpus value: the mean of its values, configs weighted as it declares; None when
    no item has one (a task the run did not answer). The one computation of the figure that summary.json reports.
    """
    values = statistics.values(details)
    configs = details["config"].astype(str).to_numpy()
    figures: dict[str, float | None] = {}
    for figure in statistics.figures:
        column = values[figure.name].to_numpy(float)
        counted = np.isfinite(column)
        figures[figure.name] = _mean_of(column[counted], configs[counted], figure.weighting) if counted.any() else None
    return figures


def _mean_of(values: np.ndarray, configs: np.ndarray, weighting: Weighting) -> float:
    """The weighted mean as the seeds write it (a sum over a count, of items or of config means), each sum
    exactly rounded (`math.fsum`), so the figure does not depend on the order of the items."""
    if weighting is Weighting.POOLED:
        return math.fsum(values) / len(values)
    means = [math.fsum(values[configs == config]) / int((configs == config).sum()) for config in np.unique(configs)]
    return math.fsum(means) / len(means)


def item_clusters(statistics: ItemStatistics, items: Sequence[Any]) -> list[str]:
    """Each item's cluster label by the benchmark's declared rule, in order."""
    return [statistics.cluster(item) for item in items]


def summary_intervals(statistics: ItemStatistics, details: pd.DataFrame, clusters: Sequence[str]) -> dict[str, Any]:
    """`intervals` {figure: (low, high)} over every config, `config_intervals` {config: {figure: (low, high)}}.

    `details` is the run's per-item table (row i is the item of `clusters[i]`) as details.parquet
    holds it; a figure with no value in a config has no interval there.
    """
    values = statistics.values(details)
    configs = details["config"].astype(str).tolist()
    masks = {config: np.array([name == config for name in configs]) for config in dict.fromkeys(configs)}
    per_config: dict[str, dict[str, Bounds]] = {}
    intervals: dict[str, Bounds] = {}
    # Two figures often agree within a config (WritingBench's Indic average and overall, in Hindi):
    # the same values and weighting draw the same interval, so it is drawn once.
    drawn: dict[tuple[Weighting, float, bytes], Bounds | None] = {}
    for figure in statistics.figures:
        column = values[figure.name].to_numpy(float)
        overall = figure_interval(column, configs, clusters, figure.weighting, figure.interval_error)
        if overall is not None:
            intervals[figure.name] = overall
        for config, mask in masks.items():
            within_values = np.where(mask, column, np.nan)
            key = (figure.weighting, figure.interval_error, within_values.tobytes())
            if key not in drawn:
                drawn[key] = figure_interval(within_values, configs, clusters, figure.weighting, figure.interval_error)
            if drawn[key] is not None:
                per_config.setdefault(config, {})[figure.name] = drawn[key]
    return {"intervals": intervals, "config_intervals": per_config}
