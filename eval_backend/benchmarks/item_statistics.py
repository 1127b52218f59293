"""What a benchmark tells the statistics about its items: how they cluster, and its figures per item.

Each benchmark declares (in its own package) an `ItemStatistics`: a cluster rule over its
items as items.jsonl records them (two items of one config with the same label are not
independent: they are resampled and sign-flipped together), and its figures as per-item
values read from its details.parquet, so that a figure is the mean (pooled, or of config
means) of those values and a paired comparison can take it item by item.

This is the one declaration of a figure's per-item values: summary.json's intervals
(`eval_backend.figure_intervals`), the joint ranking, `compare` and the About tab's power
figures all read them, so a figure's interval and its comparisons rest on the same items. The
mean of a figure's values equals the summary's figure of that name (its `aggregate`, the
seed's arithmetic): each benchmark's tests check it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd

from eval_backend.statistics import Weighting
from eval_backend.statistics.draws import ENDPOINT_ERROR


@dataclass(frozen=True)
class Figure:
    """One figure of the board: the mean of its per-item values, with configs weighted as `weighting` says."""

    name: str
    label: str
    weighting: Weighting
    unit: str
    higher_is_better: bool = True
    bounds: tuple[float, float] | None = None
    """The range every per-item value lies in (a 1-10 score, a 0/100 verdict); a value outside it is a damaged
    file, refused where it is read (`eval_backend.item_values`). None: any finite number."""
    endpoint_error: float = ENDPOINT_ERROR
    """The Monte-Carlo error an interval endpoint may have, in `unit` (draws are added until it holds)."""


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

    figures: tuple[Figure, ...]
    values: Callable[[pd.DataFrame], pd.DataFrame]
    columns: tuple[str, ...]
    cluster: Callable[[Any], str] = own_cluster
    subsets: tuple[str, ...] = ()
