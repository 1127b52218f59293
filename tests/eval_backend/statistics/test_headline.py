"""The headline as weighted item scores: the mean of config means, or the pooled mean."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import Weighting, headline, item_design
from eval_backend.statistics.headline import item_weights

SCORES = np.array([2.0, 4.0, 9.0, 7.0, 8.0])
CONFIGS = ["Hindi", "Hindi", "Tamil", "Tamil", "Tamil"]


def test_each_config_counts_alike_in_the_mean_of_config_means() -> None:
    assert headline(SCORES, item_design(CONFIGS)) == pytest.approx((3.0 + 8.0) / 2)


def test_each_item_counts_alike_when_pooled() -> None:
    assert headline(SCORES, item_design(CONFIGS, weighting=Weighting.POOLED)) == pytest.approx(SCORES.mean())


def test_a_replicate_weights_each_item_by_how_often_it_was_drawn() -> None:
    design = item_design(CONFIGS)
    draws = np.array([[2.0, 0.0, 1.0, 1.0, 1.0]])  # Hindi: item 0 twice; Tamil: each once
    assert (item_weights(design, draws) @ SCORES)[0] == pytest.approx((2.0 + 8.0) / 2)


def test_several_models_at_once() -> None:
    design = item_design(CONFIGS)
    assert headline(np.stack([SCORES, SCORES + 1]), design).tolist() == pytest.approx([5.5, 6.5])


def test_a_replicate_on_cluster_sums_is_the_same_as_on_items() -> None:
    from eval_backend.statistics.headline import cluster_sums, cluster_weights
    from eval_backend.statistics.resampling import cluster_counts, cluster_draws

    for weighting in Weighting:
        design = item_design(CONFIGS, ["a", "a", "b", "c", "b"], weighting)
        on_items = item_weights(design, cluster_draws(design, 50, seed=2)) @ SCORES
        on_clusters = cluster_weights(design, cluster_counts(design, 50, seed=2)) @ cluster_sums(SCORES, design)
        assert on_clusters == pytest.approx(on_items)
