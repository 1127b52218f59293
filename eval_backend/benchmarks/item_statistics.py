"""What a benchmark tells the statistics about its items: how they cluster, and its figures per item.

Each benchmark declares (in its own package) an `ItemStatistics`: a cluster rule over its
items as items.jsonl records them (two items of one config with the same label are not
independent: they are resampled and sign-flipped together), and its figures as per-item
values read from its details.parquet, so that a figure is the mean (pooled, or of config
means) of those values and a paired comparison can take it item by item.

This is the one computation of a figure's per-item values: summary.json's figure and its intervals
(`eval_backend.figure_intervals`), the joint ranking, `compare` and the About tab's power
figures all read them, so a figure, its interval and its comparisons rest on the same items. A
figure is a `Metric` with a weighting (`eval_backend.benchmarks.metric`), declared once in the
benchmark's metrics; `figures` is those metrics (`per_item_metrics`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd

from eval_backend.benchmarks.metric import Metric


def own_cluster(item: Any) -> str:
    """The rule of a benchmark whose items stand alone: each item is a cluster of one."""
    return f"{item.config}/{item.index}"


@dataclass(frozen=True)
class ItemStatistics:
    """A benchmark's cluster rule, its figures, and how details.parquet gives each figure per item.

    `values(details)` returns one float column per figure, row for row with `details`; NaN
    where the item does not count in that figure or has no score. `columns` names the details
    columns `values` reads (only those are loaded), `subsets` those a comparison may be
    restricted by (variant, domain, task).
    """

    figures: tuple[Metric, ...]
    """The benchmark's metrics that are means of per-item values (`per_item_metrics(METRICS)`)."""
    values: Callable[[pd.DataFrame], pd.DataFrame]
    columns: tuple[str, ...]
    cluster: Callable[[Any], str] = own_cluster
    subsets: tuple[str, ...] = ()
