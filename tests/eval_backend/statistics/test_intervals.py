"""Cluster bootstrap intervals: coverage of the truth on a known clustered design."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import cluster_bootstrap_interval, item_design, joint_bootstrap
from tests.eval_backend.statistics.simulated import clustered_scores, writing_design

TRUE_MEAN = 6.0
DATASETS = 200


def _coverage(clustered: bool) -> float:
    """Share of 200 simulated datasets whose interval holds the true mean (seeded: the same datasets each time).

    The datasets are bootstrapped together, as the joint bootstrap does models (one draw of the
    clusters for all): given the draw, the datasets are independent, so the number covered is
    binomial with the interval's own coverage as its probability.
    """
    design = writing_design(configs=3, requests=40)
    rng = np.random.default_rng(20240)
    # Renderings of one request share most of their variance (intra-cluster correlation 0.9).
    datasets = np.stack([
        clustered_scores(design, rng, TRUE_MEAN, request_sd=1.5, rendering_sd=0.5) for _ in range(DATASETS)
    ])
    joint = joint_bootstrap(datasets, design if clustered else design.unclustered())
    return float(np.mean((joint.low <= TRUE_MEAN) & (TRUE_MEAN <= joint.high)))


def test_the_clustered_interval_covers_the_truth_about_95_percent_of_the_time() -> None:
    # 200 datasets: a binomial standard deviation of 1.5 points at 95 %; [0.90, 0.99] is about +-3 of
    # them (a percentile bootstrap on 40 clusters a stratum runs a point or so under nominal).
    assert 0.90 <= _coverage(clustered=True) <= 0.99


def test_the_naive_interval_treating_renderings_as_independent_falls_short() -> None:
    # With three renderings at correlation 0.9 the variance is 1 + 2 * 0.9 = 2.8 times the naive
    # one, so a naive 95 % interval covers about P(|Z| < 1.96 / sqrt(2.8)) = 76 % (sd 3 points).
    assert _coverage(clustered=False) < 0.85


def test_the_interval_is_seeded_and_holds_the_estimate() -> None:
    design = writing_design(configs=2, requests=10)
    scores = clustered_scores(design, np.random.default_rng(1), 5.0, 1.0, 1.0)
    first = cluster_bootstrap_interval(scores, design, seed=3)
    assert cluster_bootstrap_interval(scores, design, seed=3) == first
    assert first.low < first.estimate < first.high
    assert first.estimate == pytest.approx(scores.mean())  # equal strata of equal size: the plain mean


def test_an_item_without_a_score_is_refused_rather_than_guessed() -> None:
    design = item_design(["Hindi", "Hindi", "Tamil"])
    with pytest.raises(ValueError, match="every item needs a score"):
        cluster_bootstrap_interval(np.array([1.0, np.nan, 3.0]), design)
