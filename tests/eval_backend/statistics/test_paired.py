"""Paired comparisons: a known difference that two separate intervals miss and the paired test finds."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import cluster_bootstrap_interval, compare_paired, item_design, pairwise_comparisons
from tests.eval_backend.statistics.simulated import clustered_scores, writing_design

TRUE_DIFFERENCE = 0.3


def _pair() -> tuple[np.ndarray, np.ndarray, object]:
    """B on requests of widely varying difficulty; A the same answers 0.3 better, give or take 0.5 an item."""
    design = writing_design(configs=3, requests=40)
    rng = np.random.default_rng(7)
    b = clustered_scores(design, rng, mean=6.0, request_sd=1.5, rendering_sd=0.5)
    a = b + TRUE_DIFFERENCE + rng.normal(0.0, 0.5, design.n_items)
    return a, b, design


def test_two_separate_intervals_overlap_but_the_paired_interval_excludes_zero() -> None:
    a, b, design = _pair()
    interval_a, interval_b = cluster_bootstrap_interval(a, design), cluster_bootstrap_interval(b, design)
    assert interval_a.low < interval_b.high  # read apart, the two models cannot be told apart

    paired = compare_paired(a, b, design)
    assert paired.difference.low > 0
    assert paired.difference.low <= TRUE_DIFFERENCE <= paired.difference.high
    assert paired.difference.estimate == pytest.approx(float(np.mean(a - b)))
    assert paired.p_value < 0.001
    assert paired.wins + paired.ties + paired.losses == paired.n_items == design.n_items
    assert paired.n_clusters == 120


def test_identical_models_are_not_different() -> None:
    _, b, design = _pair()
    paired = compare_paired(b, b.copy(), design)
    assert paired.difference.estimate == 0
    assert paired.p_value == 1
    assert (paired.wins, paired.ties, paired.losses) == (0, design.n_items, 0)


def test_only_the_items_both_models_scored_are_compared() -> None:
    design = item_design(["Hindi"] * 4 + ["Tamil"] * 4)
    a = np.array([9, 8, 7, np.nan, 6, 6, 5, 4], dtype=float)
    b = np.array([5, 8, 9, 1.0, 6, 2, np.nan, 4], dtype=float)
    paired = compare_paired(a, b, design, replicates=200, permutations=200)
    assert (paired.wins, paired.ties, paired.losses, paired.n_items) == (2, 3, 1, 6)
    # The mean of the two languages' mean differences: Hindi (4 + 0 - 2) / 3, Tamil (0 + 4 + 0) / 3.
    assert paired.difference.estimate == pytest.approx((2 / 3 + 4 / 3) / 2)


def test_the_test_flips_whole_clusters_so_linked_items_are_not_counted_as_independent_evidence() -> None:
    # 12 requests rendered 3 times; A is 1 point better on every rendering of 9 requests, 1 point worse
    # on 3. Flipping whole requests, the exact p-value is P(|sum of 12 random signs| >= 6) =
    # 2 * (C(12,9) + C(12,10) + C(12,11) + C(12,12)) / 2**12 = 598 / 4096 = 0.146, which the test gives
    # exactly (4,096 sign vectors are fewer than 10,000 flips). Flipping the 36 renderings apart it would
    # be about 0.003.
    design = writing_design(configs=1, requests=12)
    per_request = np.array([1.0] * 9 + [-1.0] * 3)[design.clusters]
    base = np.random.default_rng(3).normal(6.0, 1.0, design.n_items)
    clustered = compare_paired(base + per_request, base, design)
    naive = compare_paired(base + per_request, base, design.unclustered())
    assert clustered.p_value == 598 / 4096
    assert naive.p_value < 0.01


def test_a_pairwise_matrix_corrects_its_p_values_with_holm() -> None:
    design = writing_design(configs=2, requests=30)
    rng = np.random.default_rng(11)
    base = clustered_scores(design, rng, 6.0, 1.5, 0.5)
    scores = np.stack([base + shift + rng.normal(0, 0.5, design.n_items) for shift in (0.6, 0.3, 0.0)])
    matrix = pairwise_comparisons(scores, design, permutations=2000)
    assert set(matrix.comparisons) == {(0, 1), (0, 2), (1, 2)}
    assert matrix.correction.startswith("Holm")
    for pair, comparison in matrix.comparisons.items():
        assert matrix.adjusted_p[pair] >= comparison.p_value
    assert matrix.comparisons[(0, 2)].difference.estimate == pytest.approx(float(np.mean(scores[0] - scores[2])))


def test_under_no_difference_the_test_is_significant_about_5_percent_of_the_time() -> None:
    # 200 pairs of models equal in truth, on clustered items: a calibrated test rejects at 5 % in about
    # 10 of them (binomial sd 3.1); [4, 18] is beyond +-2.5 sd, wide enough for a seeded run yet far
    # from what the same test ignoring the clusters gives here (48 of 200, a quarter).
    design = writing_design(configs=2, requests=20)
    rng = np.random.default_rng(17)
    rejected = 0
    for seed in range(200):
        base = clustered_scores(design, rng, 6.0, 1.5, 0.5)
        shared_noise = rng.normal(0.0, 1.0, design.n_clusters)[design.clusters]  # each request moves both alike
        a = base + rng.normal(0.0, 0.3, design.n_items) + 0.5 * shared_noise
        b = base + rng.normal(0.0, 0.3, design.n_items) - 0.5 * shared_noise
        rejected += compare_paired(a, b, design, replicates=10, permutations=500, seed=seed).p_value < 0.05
    assert 4 <= rejected <= 18
