"""Power: the smallest true difference a benchmark as it stands would detect.

From Miller (2024), "Adding Error Bars to Evals", on power analysis.

A two-sided test at level alpha detects a true paired difference delta with probability
`power` when delta = (z_{1 - alpha/2} + z_{power}) * SE, SE being the standard error of the
paired difference (clustered, from the observed per-item differences). At alpha 0.05 and 80 %
power the factor is 1.96 + 0.84 = 2.80.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.standard_error import clustered_standard_error

ALPHA = 0.05
POWER = 0.8


def detectable_multiple(alpha: float = ALPHA, power: float = POWER) -> float:
    """z_{1 - alpha/2} + z_{power}: how many standard errors a detectable difference spans."""
    normal = NormalDist()
    return normal.inv_cdf(1.0 - alpha / 2.0) + normal.inv_cdf(power)


def minimum_detectable_difference(
    a: np.ndarray, b: np.ndarray, design: Design, alpha: float = ALPHA, power: float = POWER
) -> float:
    """The minimum detectable difference of two models' headlines on their shared items, from their paired variance."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    shared = np.isfinite(a) & np.isfinite(b)
    standard_error = clustered_standard_error(a[shared] - b[shared], design.subset(shared))
    return detectable_multiple(alpha, power) * standard_error
