"""One number a benchmark reports, declared once: its name, label, unit, direction and, where it is
a mean of per-item values, how those values are weighted.

A metric with a `weighting` is a figure of the board: its per-item values come from the
benchmark's `ItemStatistics.values` (read from details.parquet), and the engine derives from
them, once, everything the board says of it: the corpus value in summary.json (their weighted
mean, `eval_backend.figure_intervals.item_figures`), its 95 % interval, its paired comparisons,
its joint rank range and its style-controlled score. A metric without one is a count the
benchmark's `aggregate` writes (QA's blank answers): it has no interval and no comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

from eval_backend.statistics.design import Weighting
from eval_backend.statistics.draws import ENDPOINT_ERROR, PERCENT_ENDPOINT_ERROR

PERCENT = "%"


@dataclass(frozen=True)
class Metric:
    """A number of summary.json's `metrics`, as the board labels it (`unit`: "%", "score 1–10", "count")."""

    name: str
    label: str
    unit: str
    higher_is_better: bool = True
    weighting: Weighting | None = None
    """How the mean of its per-item values weighs the configs (pooled, or each config equally: WritingBench's
    mean of config means); None: not a mean of item values (a count), so no interval and no comparison."""
    bounds: tuple[float, float] | None = None
    """The range every per-item value lies in (a 1-10 score, a 0/100 verdict); a value outside it is a damaged
    file, refused where it is read (`eval_backend.item_values`). None: any finite number."""
    endpoint_error: float | None = None
    """The Monte-Carlo error an interval endpoint may have, in `unit` (draws are added until it holds);
    None: 0.05 percentage points for a %, 0.005 on any other scale."""

    @property
    def per_item(self) -> bool:
        """Whether the metric is a weighted mean of per-item values (has an interval and comparisons)."""
        return self.weighting is not None

    @property
    def interval_error(self) -> float:
        """The Monte-Carlo error its interval endpoints are drawn to (`endpoint_error`, or the scale's default)."""
        if self.endpoint_error is not None:
            return self.endpoint_error
        return PERCENT_ENDPOINT_ERROR if self.unit == PERCENT else ENDPOINT_ERROR

    @property
    def difference_unit(self) -> str:
        """What a difference of two of its values, or an interval's width, is counted in."""
        if self.unit == PERCENT:
            return "percentage points"
        scale = self.unit.removeprefix("score ").strip()
        return f"points ({scale})" if scale and scale != self.unit else "points"


def per_item_metrics(metrics: tuple[Metric, ...]) -> tuple[Metric, ...]:
    """The metrics that are weighted means of per-item values, in their declared order."""
    return tuple(metric for metric in metrics if metric.per_item)
