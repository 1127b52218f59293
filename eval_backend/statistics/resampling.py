"""Seeded cluster bootstrap draws: whole clusters with replacement, within each stratum."""

from __future__ import annotations

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.headline import cluster_sums, cluster_weights

DEFAULT_REPLICATES = 1000
DEFAULT_SEED = 0


def cluster_draws(design: Design, replicates: int = DEFAULT_REPLICATES, seed: int = DEFAULT_SEED) -> np.ndarray:
    """How often each item is drawn in each replicate: (replicates, items); an item is drawn as often as its cluster."""
    return cluster_counts(design, replicates, seed)[:, design.clusters]


def cluster_counts(design: Design, replicates: int = DEFAULT_REPLICATES, seed: int = DEFAULT_SEED) -> np.ndarray:
    """How often each cluster is drawn in each replicate: (replicates, clusters).

    Each replicate draws, in every stratum, as many clusters as the stratum has, uniformly with
    replacement. The same seed and design give the same draws, so every model scored with them
    is resampled alike (the joint bootstrap).
    """
    if replicates < 1:
        raise ValueError(f"replicates must be at least 1, got {replicates}")
    rng = np.random.default_rng(seed)
    per_cluster = np.zeros((replicates, design.n_clusters))
    for stratum in range(design.n_strata):
        members = np.flatnonzero(design.cluster_strata == stratum)
        per_cluster[:, members] = _draw_counts(rng, replicates, members.size)
    return per_cluster


def _draw_counts(rng: np.random.Generator, replicates: int, size: int) -> np.ndarray:
    """(replicates, size): how often each of `size` clusters is picked in `size` uniform draws with replacement.

    Counted with one bincount over all replicates (row r's picks offset by r * size), which is
    several times faster than `rng.multinomial` row by row.
    """
    picks = rng.integers(0, size, size=(replicates, size))
    offsets = np.arange(replicates)[:, np.newaxis] * size
    return np.bincount((picks + offsets).ravel(), minlength=replicates * size).reshape(replicates, size)


def replicate_headlines(
    scores: np.ndarray, design: Design, replicates: int = DEFAULT_REPLICATES, seed: int = DEFAULT_SEED
) -> np.ndarray:
    """Each replicate's headline of each model: (replicates,) for (items,) scores, else (replicates, models).

    Computed on cluster sums (a replicate draws whole clusters), the same figures as weighting
    every item by `cluster_draws`.
    """
    return cluster_weights(design, cluster_counts(design, replicates, seed)) @ cluster_sums(scores, design).T
