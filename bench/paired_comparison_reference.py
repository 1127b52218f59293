"""The paired comparison as the engine computed it before `bench/paired_comparison.py`: the bench's reference.

`compare_paired` of main `2ae5fa9`, kept as it was: the clustered interval from the engine's
cluster bootstrap (unchanged since, so both give the same interval), and the p-value from
10,000 sign vectors drawn with `rng.choice` over every cluster and applied through a dense
items x clusters membership matrix, whatever the data (no exact or sure case).
"""

from __future__ import annotations

import numpy as np

from eval_backend.statistics import Design, headline
from eval_backend.statistics.headline import item_weights
from eval_backend.statistics.intervals import percentile_bounds
from eval_backend.statistics.resampling import DEFAULT_REPLICATES, DEFAULT_SEED, replicate_headlines

PERMUTATIONS = 10_000
_RELATIVE_TOLERANCE = 1e-9


def reference_compare_paired(
    a: np.ndarray, b: np.ndarray, design: Design, replicates: int = DEFAULT_REPLICATES, seed: int = DEFAULT_SEED,
) -> dict[str, float]:
    """A minus B on the items both scored: the difference, its 95 % interval and the sign-flip p-value."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    shared = np.isfinite(a) & np.isfinite(b)
    values, design = np.stack([a[shared], b[shared]]), design.subset(shared)
    point = headline(values, design)
    boot = replicate_headlines(values, design, replicates, seed)
    low, high = percentile_bounds(boot[:, 0] - boot[:, 1])
    flipped = _flipped_headlines(values, design, PERMUTATIONS, seed)
    difference = float(point[0] - point[1])
    return {"difference": difference, "ci_low": float(low), "ci_high": float(high),
            "p_value": _two_sided_p_value(difference, flipped[:, 0] - flipped[:, 1])}


def _flipped_headlines(scores: np.ndarray, design: Design, permutations: int, seed: int) -> np.ndarray:
    weighted = np.atleast_2d(scores) * item_weights(design)
    membership = np.zeros((design.n_items, design.n_clusters))
    membership[np.arange(design.n_items), design.clusters] = 1.0
    cluster_sums = weighted @ membership
    signs = np.random.default_rng([seed, 1]).choice(np.array([-1.0, 1.0]), size=(permutations, design.n_clusters))
    return signs @ cluster_sums.T


def _two_sided_p_value(observed: float, flipped: np.ndarray) -> float:
    threshold = abs(observed) * (1.0 - _RELATIVE_TOLERANCE)
    extreme = int(np.count_nonzero(np.abs(flipped) >= threshold))
    return (1 + extreme) / (1 + flipped.size)
