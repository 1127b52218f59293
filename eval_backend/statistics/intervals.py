"""Percentile intervals from bootstrap replicates, and a clustered interval for one model."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.headline import headline
from eval_backend.statistics.resampling import DEFAULT_REPLICATES, DEFAULT_SEED, replicate_headlines

LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    """A point estimate with its percentile bootstrap interval at `level`."""

    estimate: float
    low: float
    high: float
    level: float = LEVEL


def tail_probability(level: float = LEVEL) -> float:
    """(1 - level) / 2, exactly: 0.025, not 0.025000000000000022, which would move a rank percentile
    taken at a whole number of replicates ("inverted_cdf") by one replicate."""
    return round((1.0 - level) / 2.0, 12)


def percentile_bounds(replicates: np.ndarray, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """The (1 - level) / 2 and (1 + level) / 2 percentiles of the replicates along the first axis."""
    tail = tail_probability(level)
    low, high = np.quantile(replicates, [tail, 1.0 - tail], axis=0)
    return low, high


def cluster_bootstrap_interval(
    scores: np.ndarray, design: Design, replicates: int = DEFAULT_REPLICATES, seed: int = DEFAULT_SEED,
    level: float = LEVEL,
) -> Interval:
    """One model's headline with its cluster bootstrap interval (seeded; whole clusters drawn per stratum).

    `design.unclustered()` gives the naive interval, which treats every item as independent.
    """
    values = np.asarray(scores, dtype=float)
    require_finite(values)
    low, high = percentile_bounds(replicate_headlines(values, design, replicates, seed), level)
    return Interval(float(headline(values, design)), float(low), float(high), level)


def require_finite(scores: np.ndarray) -> None:
    """ValueError unless every score is a number: a missing item must be left out of the design, not guessed."""
    if not np.isfinite(scores).all():
        raise ValueError("every item needs a score: take the scored items' design with Design.subset first")
