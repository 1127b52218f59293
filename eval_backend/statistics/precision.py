"""How precise one figure is on runs that answered the same items: its clusters, design effect and power.

Measured, not assumed: on the runs given (models x items, every model on every item), the
design effect is the clustered variance of each run's figure over its naive variance (items
taken as independent), pooled over the runs, and its square root is how much wider the clustered
interval is than the naive one. The minimum detectable difference at 80 % power (Miller 2024) is
taken from the observed paired variance of neighbours: the runs ordered by the figure, each
compared with the next, the median of their paired clustered standard errors times 2.8.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.headline import headline
from eval_backend.statistics.power import detectable_multiple
from eval_backend.statistics.standard_error import clustered_standard_error


@dataclass(frozen=True)
class Precision:
    """What one figure rests on and how finely it separates models.

    `design_effect` is NaN when no run's scores vary; `detectable_difference` is None when it cannot
    be measured, and `no_detectable_reason` says why (one run, too few clusters, no spread).
    """

    runs: int
    items: int
    clusters: int
    design_effect: float
    detectable_difference: float | None
    no_detectable_reason: str | None = None

    @property
    def width_ratio(self) -> float:
        """The clustered interval's width over the naive one's: the square root of the design effect."""
        return float(np.sqrt(self.design_effect))


def precision(values: np.ndarray, design: Design) -> Precision:
    """The precision of a figure from its (runs, items) values on `design` (every value a number)."""
    scores = np.atleast_2d(np.asarray(values, dtype=float))
    clustered = np.asarray(clustered_standard_error(scores, design))
    naive = np.asarray(clustered_standard_error(scores, design.unclustered()))
    varies = naive > 0
    effect = float(np.sum(clustered[varies] ** 2) / np.sum(naive[varies] ** 2)) if varies.any() else float("nan")
    detectable, reason = _detectable(scores, design)
    return Precision(scores.shape[0], design.n_items, design.n_clusters, effect, detectable, reason)


def _detectable(scores: np.ndarray, design: Design) -> tuple[float | None, str | None]:
    """2.8 times the median clustered standard error of the differences of runs adjacent by the figure,
    or None and why it cannot be measured."""
    if scores.shape[0] < 2:
        return None, "one run: no pair of runs to measure a difference on"
    no_spread = design.no_spread_reason()
    if no_spread is not None:
        return None, f"the figure {no_spread}"
    order = np.argsort(-np.atleast_1d(headline(scores, design)), kind="stable")
    neighbours = scores[order[1:]] - scores[order[:-1]]
    error = float(np.median(np.atleast_1d(clustered_standard_error(neighbours, design))))
    if error == 0:
        return None, "the runs' paired differences do not vary from cluster to cluster: no spread to measure"
    return detectable_multiple() * error, None
