"""Is model A better than model B? Their paired difference on the items both answered.

Every run of a benchmark on one dataset revision answers the same items, so the difference is
taken item by item: what the two models have in common (an item hard for both) cancels, and
the interval of the difference is several times narrower than two separate intervals suggest.
The interval is a cluster bootstrap of the difference of headlines (the same draw for both
models); the p-value is the sign-flip permutation test of `sign_flip`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.draws import ENDPOINT_ERROR, enough_replicate_headlines
from eval_backend.statistics.headline import headline
from eval_backend.statistics.intervals import LEVEL, Interval, percentile_bounds, require_finite
from eval_backend.statistics.multiple_comparisons import CORRECTION, holm_adjusted
from eval_backend.statistics.resampling import DEFAULT_SEED, replicate_headlines
from eval_backend.statistics.sign_flip import DEFAULT_PERMUTATIONS, TEST_NAME, paired_p_values


@dataclass(frozen=True)
class PairedComparison:
    """A's headline minus B's on their shared items, with its paired clustered interval and p-value.

    `wins` counts the items where A scored higher, `losses` where B did, `ties` the rest.
    `no_verdict` says why there is no interval and no p-value (both NaN then): the shared items rest on
    too few clusters (`Design.no_spread_reason`).
    """

    difference: Interval
    p_value: float
    wins: int
    ties: int
    losses: int
    n_items: int
    n_clusters: int
    test: str = TEST_NAME
    no_verdict: str | None = None


@dataclass(frozen=True)
class PairwiseMatrix:
    """Every pair (i, j), i < j, of the models given: row i's model minus column j's.

    `adjusted_p` holds each pair's p-value after the `correction` for the whole matrix (NaN where the
    pair has no p-value).
    """

    comparisons: dict[tuple[int, int], PairedComparison]
    adjusted_p: dict[tuple[int, int], float]
    correction: str = CORRECTION


def compare_paired(
    a: np.ndarray, b: np.ndarray, design: Design, replicates: int | None = None,
    permutations: int = DEFAULT_PERMUTATIONS, seed: int = DEFAULT_SEED, level: float = LEVEL,
    endpoint_error: float = ENDPOINT_ERROR,
) -> PairedComparison:
    """Model A against model B on the items both have a score for (NaN: no score).

    To compare on a subset (a language, a variant, a domain), pass the subset's scores and
    `design.subset(mask)`.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    shared = np.isfinite(a) & np.isfinite(b)
    if not shared.any():
        raise ValueError("the two runs share no scored item")
    matrix = pairwise_comparisons(np.stack([a[shared], b[shared]]), design.subset(shared), replicates,
                                  permutations, seed, level, endpoint_error)
    return matrix.comparisons[(0, 1)]


def pairwise_comparisons(
    scores: np.ndarray, design: Design, replicates: int | None = None,
    permutations: int = DEFAULT_PERMUTATIONS, seed: int = DEFAULT_SEED, level: float = LEVEL,
    endpoint_error: float = ENDPOINT_ERROR,
) -> PairwiseMatrix:
    """Every pair of (models, items) scores on the same items, from one bootstrap and (where needed) one set of flips.

    `replicates` None draws enough for every pair's interval endpoints to have a Monte-Carlo error under
    `endpoint_error` (`draws`); a number draws that many.
    """
    values = np.atleast_2d(np.asarray(scores, dtype=float))
    require_finite(values)
    point = headline(values, design)
    pairs = list(combinations(range(values.shape[0]), 2))
    differences = [float(point[i] - point[j]) for i, j in pairs]
    no_verdict = design.no_spread_reason()
    if no_verdict is None:
        boot = _paired_replicates(values, design, pairs, replicates, seed, level, endpoint_error)
        bounds = [percentile_bounds(boot[:, i] - boot[:, j], level) for i, j in pairs]
        p_values = paired_p_values(values, design, pairs, differences, permutations, seed)
    else:  # nothing to resample: no interval, no p-value
        bounds, p_values = [(np.nan, np.nan)] * len(pairs), [np.nan] * len(pairs)
    comparisons = {}
    for (i, j), difference, (low, high), p_value in zip(pairs, differences, bounds, p_values):
        comparisons[(i, j)] = PairedComparison(
            difference=Interval(difference, float(low), float(high), level),
            p_value=float(p_value),
            wins=int(np.count_nonzero(values[i] > values[j])),
            ties=int(np.count_nonzero(values[i] == values[j])),
            losses=int(np.count_nonzero(values[i] < values[j])),
            n_items=design.n_items,
            n_clusters=design.n_clusters,
            no_verdict=no_verdict,
        )
    adjusted = holm_adjusted(np.array([comparisons[pair].p_value for pair in pairs]))
    return PairwiseMatrix(comparisons, dict(zip(pairs, map(float, adjusted))))


def _paired_replicates(values: np.ndarray, design: Design, pairs: list[tuple[int, int]], replicates: int | None,
                       seed: int, level: float, endpoint_error: float) -> np.ndarray:
    """The replicate headlines, as many as the widest pair difference's endpoints need when `replicates` is None."""
    if replicates is not None:
        return replicate_headlines(values, design, replicates, seed)
    rows, columns = np.array(pairs).T
    return enough_replicate_headlines(values, design, seed, endpoint_error, level,
                                      spread_of=lambda boot: boot[:, rows] - boot[:, columns])
