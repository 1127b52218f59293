"""The joint bootstrap: rank intervals equal to the constructed truth, intervals as one model's."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import cluster_bootstrap_interval, joint_bootstrap
from tests.eval_backend.statistics.simulated import clustered_scores, writing_design


def _models(shifts: tuple[float, ...], tie_last_two: bool = False) -> tuple[np.ndarray, object]:
    design = writing_design(configs=3, requests=40)
    rng = np.random.default_rng(5)
    base = clustered_scores(design, rng, 5.0, 1.5, 0.5)
    rows = [base + shift + rng.normal(0.0, 0.5, design.n_items) for shift in shifts]
    if tie_last_two:
        # The third model: the second one's very scores, shuffled among the items of each config, so the
        # two have the same headline while each replicate favours one or the other.
        shuffled = rows[1].copy()
        for stratum in range(design.n_strata):
            where = np.flatnonzero(design.strata == stratum)
            shuffled[where] = rng.permutation(rows[1][where])
        rows[2] = shuffled
    return np.stack(rows), design


def test_a_clear_leader_and_two_models_that_tie_on_the_headline() -> None:
    scores, design = _models((3.0, 0.0, 0.0), tie_last_two=True)
    joint = joint_bootstrap(scores, design)
    assert joint.headlines[1] == pytest.approx(joint.headlines[2])
    assert list(joint.rank_best) == [1, 2, 2]
    assert list(joint.rank_worst) == [1, 3, 3]


def test_three_models_far_apart_hold_their_ranks() -> None:
    scores, design = _models((2.0, 1.0, 0.0))
    joint = joint_bootstrap(scores, design)
    assert list(joint.rank) == [1, 2, 3]
    assert list(zip(joint.rank_best, joint.rank_worst)) == [(1, 1), (2, 2), (3, 3)]


def test_lower_is_better_reverses_the_ranks() -> None:
    scores, design = _models((2.0, 1.0, 0.0))
    assert list(joint_bootstrap(scores, design, higher_is_better=False).rank) == [3, 2, 1]


def test_each_models_interval_is_its_own_cluster_bootstrap_interval() -> None:
    scores, design = _models((1.0, 0.5, 0.0))
    joint = joint_bootstrap(scores, design, replicates=1000, seed=4)
    for row in range(3):
        alone = cluster_bootstrap_interval(scores[row], design, replicates=1000, seed=4)
        assert (joint.low[row], joint.high[row]) == pytest.approx((alone.low, alone.high))
    assert joint.replicates.shape == (1000, 3)


def test_a_run_without_every_items_score_is_refused() -> None:
    scores, design = _models((1.0, 0.0, 0.0))
    scores[1, 4] = np.nan
    with pytest.raises(ValueError, match="every item needs a score"):
        joint_bootstrap(scores, design)
