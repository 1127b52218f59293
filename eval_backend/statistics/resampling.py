"""Seeded cluster bootstrap draws: whole clusters with replacement, within each stratum."""

from __future__ import annotations

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.headline import item_weights

DEFAULT_REPLICATES = 1000
DEFAULT_SEED = 0


def cluster_draws(design: Design, replicates: int = DEFAULT_REPLICATES, seed: int = DEFAULT_SEED) -> np.ndarray:
    """How often each item is drawn in each replicate: (replicates, items).

    Each replicate draws, in every stratum, as many clusters as the stratum has, uniformly with
    replacement; an item is drawn as often as its cluster. The same seed and design give the
    same draws, so every model scored with them is resampled alike (the joint bootstrap).
    """
    if replicates < 1:
        raise ValueError(f"replicates must be at least 1, got {replicates}")
    rng = np.random.default_rng(seed)
    per_cluster = np.zeros((replicates, design.n_clusters))
    for stratum in range(design.n_strata):
        members = np.flatnonzero(design.cluster_strata == stratum)
        per_cluster[:, members] = _draw_counts(rng, replicates, members.size)
    return per_cluster[:, design.clusters]


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
    """Each replicate's headline of each model: (replicates,) for (items,) scores, else (replicates, models)."""
    return item_weights(design, cluster_draws(design, replicates, seed)) @ np.asarray(scores, dtype=float).T
