"""Percentile intervals from bootstrap replicates, and a clustered interval for one model."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.draws import ENDPOINT_ERROR, enough_replicate_headlines
from eval_backend.statistics.headline import headline
from eval_backend.statistics.level import LEVEL, tail_probability
from eval_backend.statistics.resampling import DEFAULT_SEED, replicate_headlines

@dataclass(frozen=True)
class Interval:
    """A point estimate with its percentile bootstrap interval at `level`."""

    estimate: float
    low: float
    high: float
    level: float = LEVEL


def percentile_bounds(replicates: np.ndarray, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """The (1 - level) / 2 and (1 + level) / 2 percentiles of the replicates along the first axis."""
    tail = tail_probability(level)
    low, high = np.quantile(replicates, [tail, 1.0 - tail], axis=0)
    return low, high


def cluster_bootstrap_interval(
    scores: np.ndarray, design: Design, replicates: int | None = None, seed: int = DEFAULT_SEED,
    level: float = LEVEL, endpoint_error: float = ENDPOINT_ERROR,
) -> Interval:
    """One model's headline with its cluster bootstrap interval (seeded; whole clusters drawn per stratum).

    `replicates` None draws enough for the endpoints' Monte-Carlo error to be under `endpoint_error`
    (`draws`); a number draws that many. `design.unclustered()` gives the naive interval, which treats
    every item as independent.
    """
    values = np.asarray(scores, dtype=float)
    require_finite(values)
    low, high = percentile_bounds(bootstrap_headlines(values, design, replicates, seed, level, endpoint_error), level)
    return Interval(float(headline(values, design)), float(low), float(high), level)


def bootstrap_headlines(
    scores: np.ndarray, design: Design, replicates: int | None, seed: int, level: float, endpoint_error: float
) -> np.ndarray:
    """`replicates` replicate headlines, or (None) as many as the endpoint error asks (`enough_replicate_headlines`)."""
    if replicates is None:
        return enough_replicate_headlines(scores, design, seed, endpoint_error, level)
    return replicate_headlines(scores, design, replicates, seed)


def require_finite(scores: np.ndarray) -> None:
    """ValueError unless every score is a number: a missing item must be left out of the design, not guessed."""
    if not np.isfinite(scores).all():
        raise ValueError("every item needs a score: take the scored items' design with Design.subset first")
