"""The paired permutation test: under "A and B are exchangeable", each cluster's difference may flip sign.

For a paired difference d, the headline of d is a sum over clusters of g_c = the cluster's
weighted sum of d. Under the null hypothesis that the two models' labels are exchangeable
within every cluster, each g_c is as likely to be -g_c, so the observed headline difference is
compared with sum_c s_c g_c over random signs s. Whole clusters flip together, so linked
items are never treated as independent evidence.
"""

from __future__ import annotations

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.headline import item_weights

DEFAULT_PERMUTATIONS = 10_000
TEST_NAME = "paired permutation (signs flipped per cluster), two-sided"
_RELATIVE_TOLERANCE = 1e-9
"""Flips that reproduce the observed difference up to rounding count as at least as extreme."""


def flipped_headlines(scores: np.ndarray, design: Design, permutations: int, seed: int) -> np.ndarray:
    """(permutations, models): each model's headline with its cluster sums' signs flipped at random.

    The same signs for every model, so the difference of two columns is that pair's flipped
    difference (the sign-flipped headline is linear in the scores).
    """
    weighted = np.atleast_2d(scores) * item_weights(design)
    membership = np.zeros((design.n_items, design.n_clusters))
    membership[np.arange(design.n_items), design.clusters] = 1.0
    cluster_sums = weighted @ membership
    signs = np.random.default_rng([seed, 1]).choice(np.array([-1.0, 1.0]), size=(permutations, design.n_clusters))
    return signs @ cluster_sums.T


def two_sided_p_value(observed: float, flipped: np.ndarray) -> float:
    """(1 + flips at least as extreme as `observed`) / (1 + flips): never 0, exact under the null."""
    threshold = abs(observed) * (1.0 - _RELATIVE_TOLERANCE)
    extreme = int(np.count_nonzero(np.abs(flipped) >= threshold))
    return (1 + extreme) / (1 + flipped.size)
