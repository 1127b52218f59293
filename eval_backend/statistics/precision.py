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

    `design_effect` is NaN when no run's scores vary; `detectable_difference` is None with
    fewer than two runs (there is no pair to measure).
    """

    runs: int
    items: int
    clusters: int
    design_effect: float
    detectable_difference: float | None

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
    return Precision(scores.shape[0], design.n_items, design.n_clusters, effect, _detectable(scores, design))


def _detectable(scores: np.ndarray, design: Design) -> float | None:
    """2.8 times the median clustered standard error of the differences of runs adjacent by the figure."""
    if scores.shape[0] < 2:
        return None
    order = np.argsort(-np.atleast_1d(headline(scores, design)), kind="stable")
    neighbours = scores[order[1:]] - scores[order[:-1]]
    errors = np.atleast_1d(clustered_standard_error(neighbours, design))
    return detectable_multiple() * float(np.median(errors))
