"""The headline as a weighted sum of item scores, so one matrix product scores every model.

Both weightings are linear in the scores for fixed item weights: the mean of stratum means
gives item i of stratum k the weight w_i / (K * sum of w in k), the pooled mean w_i / sum of w.
With w = 1 that is the headline itself; with w = how often a bootstrap replicate drew the
item's cluster it is that replicate's headline. Since a replicate draws whole clusters, its
headline is also a weighted sum of cluster sums (`cluster_weights`), which is as many times
cheaper as clusters have items.
"""

from __future__ import annotations

import numpy as np

from eval_backend.statistics.design import Design, Weighting


def item_weights(design: Design, draws: np.ndarray | None = None) -> np.ndarray:
    """Weights that make `scores @ weights.T` the headline: (items,) without `draws`, else (replicates, items).

    `draws` (replicates x items) counts how often each item was drawn in each replicate.
    """
    counts = np.ones(design.n_items) if draws is None else np.asarray(draws, dtype=float)
    if design.weighting is Weighting.POOLED:
        return counts / counts.sum(axis=-1, keepdims=True)
    per_stratum = _stratum_totals(counts, design)
    return counts / (design.n_strata * np.take(per_stratum, design.strata, axis=-1))


def cluster_weights(design: Design, counts: np.ndarray) -> np.ndarray:
    """(replicates, clusters) weights that make `weights @ cluster_sums(scores, design).T` each replicate's headline.

    `counts` (replicates x clusters) is how often each cluster was drawn; the same headline as
    `item_weights` with each item drawn as often as its cluster.
    """
    counts = np.asarray(counts, dtype=float)
    sizes = np.bincount(design.clusters, minlength=design.n_clusters).astype(float)
    drawn_items = counts * sizes
    if design.weighting is Weighting.POOLED:
        return counts / drawn_items.sum(axis=-1, keepdims=True)
    membership = np.zeros((design.n_clusters, design.n_strata))
    membership[np.arange(design.n_clusters), design.cluster_strata] = 1.0
    per_stratum = drawn_items @ membership
    return counts / (design.n_strata * np.take(per_stratum, design.cluster_strata, axis=-1))


def cluster_sums(scores: np.ndarray, design: Design) -> np.ndarray:
    """Each cluster's summed item scores: (clusters,) for (items,) scores, else (models, clusters)."""
    values = np.atleast_2d(np.asarray(scores, dtype=float))
    order = np.argsort(design.clusters, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(design.clusters[order]) != 0])
    sums = np.add.reduceat(values[:, order], starts, axis=1)
    return sums[0] if np.ndim(scores) == 1 else sums


def headline(scores: np.ndarray, design: Design) -> np.ndarray | float:
    """The headline of one model's item scores (items,), or of each row of (models, items)."""
    values = np.asarray(scores, dtype=float) @ item_weights(design)
    return float(values) if np.ndim(values) == 0 else values


def _stratum_totals(counts: np.ndarray, design: Design) -> np.ndarray:
    """Per replicate (or once), the summed counts of each stratum's items: (..., strata)."""
    membership = np.zeros((design.n_items, design.n_strata))
    membership[np.arange(design.n_items), design.strata] = 1.0
    return counts @ membership
