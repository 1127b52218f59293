"""How far two sets of scores of the same things agree: pure statistics, no I/O.

Used to measure a judge against itself (the same criteria judged twice) or against another
judge. Spearman's correlation is computed here, with average ranks for ties, rather than
pulling in scipy for one formula.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class Agreement:
    """Agreement of paired scores; every figure is None when there are no pairs.

    `exact` and `within_one` are shares of pairs in [0, 1]; `spearman` is None also when
    either side has a single distinct value (a correlation is undefined then).
    """

    pairs: int
    exact: float | None
    within_one: float | None
    spearman: float | None
    mean_abs_diff: float | None


def agreement(first: Sequence[float], second: Sequence[float]) -> Agreement:
    """Exact agreement, agreement within ±1, Spearman's rho and mean absolute difference."""
    if len(first) != len(second):
        raise ValueError(f"paired scores differ in length: {len(first)} and {len(second)}")
    if not first:
        return Agreement(0, None, None, None, None)
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    difference = np.abs(a - b)
    return Agreement(
        pairs=len(a),
        exact=float(np.mean(difference == 0)),
        within_one=float(np.mean(difference <= 1)),
        spearman=spearman(a, b),
        mean_abs_diff=float(np.mean(difference)),
    )


def spearman(first: Sequence[float], second: Sequence[float]) -> float | None:
    """Spearman's rank correlation: Pearson's correlation of the average ranks (ties share a rank)."""
    ranks_a, ranks_b = average_ranks(first), average_ranks(second)
    if len(ranks_a) < 2 or np.ptp(ranks_a) == 0 or np.ptp(ranks_b) == 0:
        return None
    rho = float(np.corrcoef(ranks_a, ranks_b)[0, 1])
    return rho if math.isfinite(rho) else None


def average_ranks(values: Sequence[float]) -> np.ndarray:
    """1-based ranks of `values`, each group of equal values sharing the mean of its ranks."""
    data = np.asarray(values, dtype=float)
    order = np.argsort(data, kind="stable")
    ranks = np.empty(len(data), dtype=float)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and data[order[end + 1]] == data[order[start]]:
            end += 1
        ranks[order[start : end + 1]] = (start + end) / 2 + 1
        start = end + 1
    return ranks
