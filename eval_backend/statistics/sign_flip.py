"""The paired permutation test: under "A and B are exchangeable", each cluster's difference may flip sign.

For a paired difference d, the headline of d is a sum over clusters of g_c = the cluster's
weighted sum of d. Under the null hypothesis that the two models' labels are exchangeable
within every cluster, each g_c is as likely to be -g_c, so the observed headline difference is
compared with sum_c s_c g_c over random signs s. Whole clusters flip together, so linked
items are never treated as independent evidence.

The p-value is the share of sign vectors whose flipped difference is at least as far from 0
as the observed one, found the cheapest way that gives the `permutations` random flips'
answer or a better one:

- exact: when the clusters whose difference is not 0 (the others flip to themselves) are so
  few that all their 2^n sign vectors are no more than the flips asked for (n <= 13 at
  10,000), every vector is taken and p is the exact permutation p-value, with no Monte-Carlo error;
- sure: Hoeffding's inequality bounds that share by 2 exp(-t^2 / (2 sum_c g_c^2)) for an
  observed |difference| t. When `permutations` times the bound is at most SURE_MISS, random
  flips would find none at least as extreme with probability at least 1 - SURE_MISS, and give
  (1 + 0) / (1 + permutations): that is the p-value, without drawing them (at 10,000 flips,
  a difference of about 5.8 standard errors or more);
- Monte Carlo otherwise: `permutations` seeded random sign vectors, shared by every pair of a
  matrix, drawn as random bits (eight clusters a byte) and applied to the cluster sums;
  p = (1 + flips at least as extreme) / (1 + permutations), never 0.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.headline import cluster_sums, item_weights

DEFAULT_PERMUTATIONS = 10_000
TEST_NAME = "paired permutation (signs flipped per cluster), two-sided"
EXACT_CLUSTERS = DEFAULT_PERMUTATIONS.bit_length() - 1
"""At the default flips, the most differing clusters whose every sign pattern is tried (13: 8,192 <= 10,000)."""
SURE_MISS = 1e-3
"""The largest chance, in the "sure" case, that random flips would have given another p-value."""
_RELATIVE_TOLERANCE = 1e-9
"""Flips that reproduce the observed difference up to rounding count as at least as extreme."""
_CHUNK = 2048
"""Sign vectors applied at once: (2,048 x clusters) floats, 21 MB at WritingBench's 1,313 clusters."""


def paired_p_values(
    scores: np.ndarray, design: Design, pairs: Sequence[tuple[int, int]], observed: Sequence[float],
    permutations: int, seed: int,
) -> list[float]:
    """The p-value of each pair (i, j) of (models, items) scores, whose headline difference is `observed`.

    Random flips are drawn only when some pair needs them, once for all such pairs.
    """
    sums = cluster_sums(np.atleast_2d(scores) * item_weights(design), design)
    p_values = [_without_flips(sums[i] - sums[j], difference, permutations)
                for (i, j), difference in zip(pairs, observed)]
    if all(p is not None for p in p_values):
        return p_values  # type: ignore[return-value]
    flipped = flipped_sums(sums, permutations, seed)
    return [two_sided_p_value(difference, flipped[:, i] - flipped[:, j]) if p is None else p
            for (i, j), difference, p in zip(pairs, observed, p_values)]


def flipped_sums(sums: np.ndarray, permutations: int, seed: int) -> np.ndarray:
    """(permutations, models): each model's summed cluster sums with their signs flipped at random.

    The same signs for every model, so the difference of two columns is that pair's flipped
    difference. With bits b (s = 2b - 1), sum_c s_c g_c = 2 sum_c b_c g_c - sum_c g_c.
    """
    rng = np.random.default_rng([seed, 1])
    n_clusters = sums.shape[1]
    flipped = np.empty((permutations, sums.shape[0]))
    for start in range(0, permutations, _CHUNK):
        rows = min(_CHUNK, permutations - start)
        packed = rng.integers(0, 256, size=(rows, -(-n_clusters // 8)), dtype=np.uint8)
        flipped[start:start + rows] = np.unpackbits(packed, axis=1, count=n_clusters) @ sums.T
    return 2.0 * flipped - sums.sum(axis=1)


def two_sided_p_value(observed: float, flipped: np.ndarray) -> float:
    """(1 + flips at least as extreme as `observed`) / (1 + flips): never 0, exact under the null."""
    extreme = int(np.count_nonzero(np.abs(flipped) >= _threshold(observed)))
    return (1 + extreme) / (1 + flipped.size)


def _without_flips(differences: np.ndarray, observed: float, permutations: int) -> float | None:
    """The exact p-value or the sure one (see the module's docstring); None when random flips are needed."""
    moving = differences[differences != 0]
    if 2 ** moving.size <= permutations:
        vectors = ((np.arange(2 ** moving.size)[:, np.newaxis] >> np.arange(moving.size)) & 1) * 2.0 - 1.0
        return int(np.count_nonzero(np.abs(vectors @ moving) >= _threshold(observed))) / 2 ** moving.size
    bound = 2.0 * np.exp(-_threshold(observed) ** 2 / (2.0 * float(np.sum(moving**2))))
    return 1.0 / (1 + permutations) if permutations * bound <= SURE_MISS else None


def _threshold(observed: float) -> float:
    return abs(observed) * (1.0 - _RELATIVE_TOLERANCE)
