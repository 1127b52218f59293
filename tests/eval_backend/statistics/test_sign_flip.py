"""The sign-flip p-value's three ways (exact, sure, random flips) give the permutation test's own answer."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import item_design
from eval_backend.statistics.headline import cluster_sums, headline, item_weights
from eval_backend.statistics.sign_flip import SURE_MISS, flipped_sums, paired_p_values, two_sided_p_value
from tests.eval_backend.statistics.simulated import clustered_scores, writing_design

FLIPS = 10_000


def _exact_by_brute_force(a: np.ndarray, b: np.ndarray, design) -> float:
    """Every sign vector over every cluster, written out: the share at least as extreme as observed."""
    g = cluster_sums((a - b) * item_weights(design), design)
    vectors = np.array(np.meshgrid(*[[-1.0, 1.0]] * g.size)).reshape(g.size, -1).T
    observed = abs(float(headline(a - b, design)))
    return float(np.mean(np.abs(vectors @ g) >= observed * (1 - 1e-9)))


def _p(a: np.ndarray, b: np.ndarray, design, permutations: int = FLIPS, seed: int = 0) -> float:
    observed = float(headline(a, design) - headline(b, design))
    return paired_p_values(np.stack([a, b]), design, [(0, 1)], [observed], permutations, seed)[0]


def _pair(requests: int, shift: float, seed: int):
    design = writing_design(configs=2, requests=requests)
    rng = np.random.default_rng(seed)
    b = clustered_scores(design, rng, 6.0, 1.5, 0.5)
    return b + shift + rng.normal(0.0, 1.0, design.n_items), b, design


def test_few_clusters_are_flipped_every_way_for_the_exact_p_value() -> None:
    a, b, design = _pair(requests=6, shift=0.4, seed=1)  # 12 clusters: 4,096 sign vectors <= 10,000 flips
    assert _p(a, b, design) == _exact_by_brute_force(a, b, design)
    # A cluster where the two models agree item for item flips to itself: it is left out, not counted twice.
    b[design.clusters == 0] = a[design.clusters == 0]
    assert _p(a, b, design, permutations=2048) == _exact_by_brute_force(a, b, design)


def test_random_flips_estimate_the_exact_p_value_within_their_error() -> None:
    a, b, design = _pair(requests=8, shift=0.25, seed=2)  # 16 clusters: 65,536 vectors > 10,000 flips
    exact = _exact_by_brute_force(a, b, design)
    assert 0.02 < exact < 0.5
    error = np.sqrt(exact * (1 - exact) / FLIPS)
    estimates = [_p(a, b, design, seed=seed) for seed in range(3)]
    assert all(abs(estimate - exact) < 4 * error for estimate in estimates)
    assert len(set(estimates)) == 3  # seeded, and each seed its own draw
    assert _p(a, b, design, seed=1) == estimates[1]


def test_a_difference_random_flips_would_surely_never_reach_is_given_their_answer_without_drawing_them() -> None:
    a, b, design = _pair(requests=100, shift=1.0, seed=3)
    observed = float(headline(a, design) - headline(b, design))
    sums = cluster_sums(np.stack([a, b]) * item_weights(design), design)
    g = sums[0] - sums[1]
    assert FLIPS * 2 * np.exp(-observed**2 / (2 * np.sum(g**2))) <= SURE_MISS  # Hoeffding: the sure case
    flipped = flipped_sums(sums, FLIPS, seed=0)
    assert _p(a, b, design) == two_sided_p_value(observed, flipped[:, 0] - flipped[:, 1]) == 1 / (FLIPS + 1)


def test_flipped_sums_are_sums_of_random_signs_times_each_cluster_sum() -> None:
    sums = np.array([[1.0, 2.0, 4.0]])
    flipped = flipped_sums(sums, 4000, seed=5)[:, 0]
    possible = {float(s1 + 2 * s2 + 4 * s3) for s1 in (-1, 1) for s2 in (-1, 1) for s3 in (-1, 1)}
    assert set(flipped.tolist()) == possible  # 4,000 draws: each of the 8 vectors turns up
    assert np.mean(flipped) == pytest.approx(0.0, abs=0.25)


def test_models_that_never_differ_have_p_1_and_a_matrix_draws_its_flips_once_for_its_pairs() -> None:
    design = item_design(["Hindi"] * 40)
    rng = np.random.default_rng(4)
    base = rng.normal(5, 1, 40)
    scores = np.stack([base, base.copy(), base + rng.normal(0.0, 0.5, 40)])
    pairs = [(0, 1), (0, 2), (1, 2)]
    observed = [float(headline(scores[i], design) - headline(scores[j], design)) for i, j in pairs]
    p_values = paired_p_values(scores, design, pairs, observed, FLIPS, seed=0)
    assert p_values[0] == 1.0
    assert p_values[1] == p_values[2]  # models 0 and 1 are the same, so are their flips against model 2
