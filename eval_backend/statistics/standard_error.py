"""Analytic standard errors of the headline, clustered and naive, and the design effect.

The clustered one follows Miller (2024), "Adding Error Bars to Evals".

For the headline sum_k a_k mean_k (a_k = 1/K for the mean of stratum means, n_k/N pooled), the
variance is sum_k a_k^2 var(mean_k), with the cluster-robust variance of a stratum mean

    var(mean_k) = C_k / (C_k - 1) * sum over clusters c of k of (sum_{i in c} (x_i - mean_k))^2 / n_k^2

(the small-sample factor C_k / (C_k - 1) as in the usual CR1 estimator). With each item its own
cluster this is s_k^2 / n_k, the naive variance. The design effect is their ratio: how much
wider (squared) clustering makes the interval than treating linked items as independent.
"""

from __future__ import annotations

import numpy as np

from eval_backend.statistics.design import Design, Weighting
from eval_backend.statistics.intervals import require_finite


def clustered_standard_error(scores: np.ndarray, design: Design) -> float | np.ndarray:
    """The cluster-robust standard error of one model's headline (or of a paired difference's).

    Given (rows, items) (many models, or many pairs' differences), one standard error per row.
    """
    values = np.asarray(scores, dtype=float)
    require_finite(values)
    rows = np.atleast_2d(values)
    strata = _membership(design.strata, design.n_strata)
    counts = strata.sum(axis=0)
    deviations = rows - ((rows @ strata) / np.maximum(counts, 1))[:, design.strata]
    order = np.argsort(design.clusters, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(design.clusters[order]) != 0])
    cluster_totals = np.add.reduceat(deviations[:, order], starts, axis=1) if order.size else deviations
    squared = (cluster_totals**2) @ _membership(design.cluster_strata, design.n_strata)
    n_clusters = np.bincount(design.cluster_strata, minlength=design.n_strata)
    # One cluster carries no information on its own spread: such a stratum adds nothing.
    small_sample = np.where(n_clusters >= 2, n_clusters / np.maximum(n_clusters - 1, 1), 0.0)
    shares = _stratum_shares(design, counts)
    variance = squared @ (shares**2 * small_sample / np.maximum(counts, 1) ** 2)
    errors = np.sqrt(variance)
    return float(errors[0]) if values.ndim == 1 else errors


def naive_standard_error(scores: np.ndarray, design: Design) -> float:
    """The standard error as if every item were independent (the same strata, no clusters)."""
    return clustered_standard_error(scores, design.unclustered())


def design_effect(scores: np.ndarray, design: Design) -> float:
    """Clustered over naive variance of the headline (1: clusters change nothing; NaN: no spread at all)."""
    naive = naive_standard_error(scores, design)
    return clustered_standard_error(scores, design) ** 2 / naive**2 if naive > 0 else float("nan")  # type: ignore


def _membership(codes: np.ndarray, size: int) -> np.ndarray:
    """(len(codes), size): 1 where row i belongs to group codes[i]."""
    membership = np.zeros((codes.size, size))
    membership[np.arange(codes.size), codes] = 1.0
    return membership


def _stratum_shares(design: Design, counts: np.ndarray) -> np.ndarray:
    """The weight a_k of each stratum's mean in the headline."""
    if design.weighting is Weighting.POOLED:
        return counts / design.n_items
    return np.full(design.n_strata, 1.0 / design.n_strata)
