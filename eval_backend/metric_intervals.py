"""Bootstrap 95 % intervals of a scorer-kind benchmark's figures, pooled and per config.

Each metric that declares `item_value` is the mean of its items' values (100 or 0 for a
percentage), so its interval resamples those items (`eval_backend.scoring.bootstrap_interval`,
the rubric path's resampler). Counts have no interval.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Sequence

from eval_backend.benchmarks.plugin import ScoredBenchmark, ScoredItem
from eval_backend.scoring import bootstrap_interval


def metric_intervals(benchmark: ScoredBenchmark, scored: Sequence[ScoredItem]) -> dict[str, Any]:
    """`intervals` {metric: [low, high]} over every counted item, and `config_intervals` per config."""
    counted = [entry for entry in scored if entry.counted]
    by_config: dict[str, list[ScoredItem]] = defaultdict(list)
    for entry in counted:
        by_config[entry.item.config].append(entry)
    return {
        "intervals": _intervals(benchmark, counted),
        "config_intervals": {config: _intervals(benchmark, entries) for config, entries in by_config.items()},
    }


def _intervals(benchmark: ScoredBenchmark, entries: Sequence[ScoredItem]) -> dict[str, list[float]]:
    intervals = {}
    for metric in benchmark.metrics:
        if metric.item_value is None:
            continue
        values = [value for value in map(metric.item_value, entries) if value is not None]
        interval = bootstrap_interval({metric.name: values})
        if interval is not None:
            intervals[metric.name] = list(interval)
    return intervals
