"""One joint bootstrap for every complete run of a benchmark on one dataset revision.

The clusters are drawn once per replicate for all models together, and each model's headline
is recomputed on the same draw, so a replicate is one possible benchmark that every model took.
A model's rank interval is the spread of the ranks it holds across replicates; the paired
difference of any two models is the spread of their replicate headlines' difference.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.draws import ENDPOINT_ERROR
from eval_backend.statistics.headline import headline
from eval_backend.statistics.intervals import LEVEL, bootstrap_headlines, percentile_bounds, require_finite
from eval_backend.statistics.ranks import competition_ranks, rank_intervals
from eval_backend.statistics.resampling import DEFAULT_SEED


@dataclass(frozen=True, eq=False)
class JointBootstrap:
    """Per model (in the order given): headline, its interval, its rank and rank interval.

    `replicates` holds every replicate's headlines (replicates x models), kept for paired
    differences; `seed` and the design make it reproducible.
    """

    headlines: np.ndarray
    low: np.ndarray
    high: np.ndarray
    rank: np.ndarray
    rank_best: np.ndarray
    rank_worst: np.ndarray
    replicates: np.ndarray
    seed: int
    level: float


def joint_bootstrap(
    scores: np.ndarray, design: Design, replicates: int | None = None, seed: int = DEFAULT_SEED,
    higher_is_better: bool = True, level: float = LEVEL, endpoint_error: float = ENDPOINT_ERROR,
) -> JointBootstrap:
    """The joint bootstrap of (models, items) scores, every model scored on every item of `design`.

    One matrix product computes every replicate's headline of every model. `replicates` None draws
    enough for every model's endpoints to have a Monte-Carlo error under `endpoint_error` (`draws`).
    """
    values = np.atleast_2d(np.asarray(scores, dtype=float))
    require_finite(values)
    if values.shape[1] != design.n_items:
        raise ValueError(f"scores have {values.shape[1]} items, the design {design.n_items}")
    boot = bootstrap_headlines(values, design, replicates, seed, level, endpoint_error)
    return from_replicates(headline(values, design), boot, seed, higher_is_better, level)


def from_replicates(
    point: np.ndarray, boot: np.ndarray, seed: int, higher_is_better: bool = True, level: float = LEVEL
) -> JointBootstrap:
    """Intervals, ranks and rank intervals of models' point figures (models,) and their joint replicates
    (replicates, models): what any figure refit on each replicate (the style-controlled score) shows."""
    low, high = percentile_bounds(boot, level)
    best, worst = rank_intervals(competition_ranks(boot, higher_is_better), level)
    return JointBootstrap(
        headlines=point, low=low, high=high, rank=competition_ranks(point, higher_is_better)[0],
        rank_best=best, rank_worst=worst, replicates=boot, seed=seed, level=level,
    )
