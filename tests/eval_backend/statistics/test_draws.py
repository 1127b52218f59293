"""Enough bootstrap draws that an interval's endpoints do not move with the seed by more than the stated error."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import cluster_bootstrap_interval, item_design, joint_bootstrap
from eval_backend.statistics.draws import (
    BLOCK,
    DEFAULT_REPLICATES,
    ENDPOINT_ERROR,
    MAX_REPLICATES,
    enough_replicate_headlines,
    quantile_error_factor,
    replicates_needed,
)

SEEDS = 30


def _wide_figure() -> tuple[np.ndarray, object]:
    """One run on 40 requests (3 renderings each) of one language: a bootstrap sd of about 0.25 points."""
    design = item_design(["Hindi"] * 120, [i // 3 for i in range(120)])
    rng = np.random.default_rng(5)
    scores = np.clip(6.0 + rng.normal(0.0, 1.5, 40)[design.clusters] + rng.normal(0.0, 0.5, 120), 1, 10)
    return scores, design


def test_the_factor_is_the_percentile_s_asymptotic_error_under_normality() -> None:
    # sqrt(0.025 * 0.975) / phi(1.96) = 0.1561 / 0.0584
    assert quantile_error_factor() == pytest.approx(2.671, abs=0.001)


def test_draws_grow_with_the_spread_in_whole_blocks_within_bounds() -> None:
    assert replicates_needed(0.01) == DEFAULT_REPLICATES
    needed = replicates_needed(0.25)
    assert (needed - DEFAULT_REPLICATES) % BLOCK == 0
    assert needed >= (2.671 * 0.25 / ENDPOINT_ERROR) ** 2 > DEFAULT_REPLICATES
    assert replicates_needed(100.0) == MAX_REPLICATES
    assert replicates_needed(float("nan")) == DEFAULT_REPLICATES
    with pytest.raises(ValueError, match="endpoint_error"):
        replicates_needed(0.2, endpoint_error=0)


def test_an_endpoint_s_monte_carlo_sd_over_seeds_is_under_the_bound_where_1000_draws_were_not() -> None:
    scores, design = _wide_figure()
    fixed = [cluster_bootstrap_interval(scores, design, replicates=DEFAULT_REPLICATES, seed=seed).high
             for seed in range(SEEDS)]
    enough = [cluster_bootstrap_interval(scores, design, seed=seed).high for seed in range(SEEDS)]
    assert np.std(fixed, ddof=1) > 2 * ENDPOINT_ERROR  # today's 1,000 draws: the endpoint moves with the seed
    # The sd of 30 seeds' endpoints is itself within about 13 % of the true one.
    assert np.std(enough, ddof=1) < 1.3 * ENDPOINT_ERROR


def test_the_first_draws_are_the_fixed_draws_and_the_same_seed_gives_the_same_interval() -> None:
    scores, design = _wide_figure()
    replicates = enough_replicate_headlines(scores, design, seed=3)
    assert replicates.shape[0] == replicates_needed(float(np.std(replicates[:DEFAULT_REPLICATES])))
    fixed = cluster_bootstrap_interval(scores, design, replicates=DEFAULT_REPLICATES, seed=3)
    assert np.quantile(replicates[:DEFAULT_REPLICATES], 0.975) == pytest.approx(fixed.high)
    assert cluster_bootstrap_interval(scores, design, seed=3) == cluster_bootstrap_interval(scores, design, seed=3)


def test_a_joint_bootstrap_draws_for_its_widest_model() -> None:
    scores, design = _wide_figure()
    narrow = np.full_like(scores, 5.0) + 0.01 * (np.arange(scores.size) % 2)
    joint = joint_bootstrap(np.stack([scores, narrow]), design)
    alone = enough_replicate_headlines(scores, design, seed=0)
    assert joint.replicates.shape[0] == alone.shape[0] > DEFAULT_REPLICATES
