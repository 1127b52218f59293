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


def clustered_standard_error(scores: np.ndarray, design: Design) -> float:
    """The cluster-robust standard error of one model's headline (or of a paired difference's)."""
    values = np.asarray(scores, dtype=float)
    require_finite(values)
    variance = 0.0
    for stratum in range(design.n_strata):
        in_stratum = design.strata == stratum
        count = int(in_stratum.sum())
        clusters = design.clusters[in_stratum]
        deviations = values[in_stratum] - values[in_stratum].mean()
        cluster_totals = np.bincount(clusters, weights=deviations, minlength=design.n_clusters)[np.unique(clusters)]
        n_clusters = cluster_totals.size
        if n_clusters < 2:
            continue  # one cluster carries no information on its own spread
        stratum_variance = n_clusters / (n_clusters - 1) * float(np.sum(cluster_totals**2)) / count**2
        variance += _stratum_share(design, count) ** 2 * stratum_variance
    return float(np.sqrt(variance))


def naive_standard_error(scores: np.ndarray, design: Design) -> float:
    """The standard error as if every item were independent (the same strata, no clusters)."""
    return clustered_standard_error(scores, design.unclustered())


def design_effect(scores: np.ndarray, design: Design) -> float:
    """Clustered over naive variance of the headline (1: clusters change nothing; NaN: no spread at all)."""
    naive = naive_standard_error(scores, design)
    return clustered_standard_error(scores, design) ** 2 / naive**2 if naive > 0 else float("nan")


def _stratum_share(design: Design, count: int) -> float:
    """The weight a_k of one stratum's mean in the headline."""
    return count / design.n_items if design.weighting is Weighting.POOLED else 1.0 / design.n_strata
