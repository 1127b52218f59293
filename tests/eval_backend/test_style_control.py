"""The style-controlled fit: the same as least squares with a dummy per model and item on every replicate,
and on simulated boards whose judge adds beta per log-length unit, the true order recovered."""

from __future__ import annotations

import numpy as np
import pytest
from eval_backend.statistics import Weighting, item_design, joint_bootstrap
from eval_backend.statistics.headline import item_weights
from eval_backend.statistics.resampling import cluster_counts
from eval_backend.statistics.style_control import StyleNotIdentified, style_control

REPLICATES = 200


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation of two untied vectors: the correlation of their ranks."""
    return float(np.corrcoef(np.argsort(np.argsort(a)), np.argsort(np.argsort(b)))[0, 1])


def _design(configs: int, clusters_per_config: int, cluster_size: int = 3, weighting=Weighting.EQUAL_STRATA):
    """Items in clusters of `cluster_size` (a WritingBench request's renderings), configs of unequal size."""
    strata, clusters = [], []
    for config in range(configs):
        for cluster in range(clusters_per_config + config):
            strata += [f"lang{config}"] * cluster_size
            clusters += [cluster] * cluster_size
    return item_design(strata, clusters, weighting)


def _dummy_fit(scores: np.ndarray, features: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted least squares with an explicit column per model and per item: the coefficients of the features."""
    n_models, n_items, n_features = features.shape
    model_columns = np.repeat(np.eye(n_models), n_items, axis=0)
    item_columns = np.tile(np.eye(n_items), (n_models, 1))
    design = np.hstack([model_columns, item_columns, features.reshape(-1, n_features)])
    root = np.sqrt(np.tile(weights, n_models))
    kept = root > 0
    solution = np.linalg.lstsq(design[kept] * root[kept, None], scores.reshape(-1)[kept] * root[kept], rcond=None)[0]
    return solution[-n_features:]


def _board(rng: np.random.Generator, beta: float, design, n_models: int = 10):
    """A simulated board: true qualities, verbose models that are worse, a judge that adds beta per log-length unit.

    Returns (quality, scores, log lengths as (models, items, 1))."""
    quality = rng.permutation(np.linspace(0.0, 1.0, n_models))
    verbosity = 1.5 * (1.0 - quality) + rng.normal(0.0, 0.1, n_models)
    item_length = rng.normal(6.0, 0.5, design.n_items)
    log_length = verbosity[:, None] + item_length[None, :] + rng.normal(0.0, 0.4, (n_models, design.n_items))
    difficulty = rng.normal(0.0, 1.0, design.n_items) + rng.normal(0.0, 0.5, design.n_clusters)[design.clusters]
    noise = rng.normal(0.0, 0.8, (n_models, design.n_items))
    scores = 5.0 + quality[:, None] + difficulty[None, :] + beta * log_length + noise
    return quality, scores, log_length[:, :, None]


@pytest.mark.parametrize("weighting", [Weighting.EQUAL_STRATA, Weighting.POOLED])
def test_each_replicate_has_the_coefficients_of_a_fit_with_a_dummy_per_model_and_item(weighting) -> None:
    rng = np.random.default_rng(7)
    design = _design(3, 3, weighting=weighting)
    features = rng.normal(size=(5, design.n_items, 2))
    scores = rng.normal(size=(5, design.n_items)) + features @ np.array([0.5, -0.2])
    style = style_control(scores, features, design, ["length", "markdown"], replicates=30, seed=3)
    assert [c.estimate for c in style.coefficients] == pytest.approx(_dummy_fit(scores, features, item_weights(design)))
    draws = cluster_counts(design, 30, 3)[:, design.clusters]
    refits = np.array([_dummy_fit(scores, features, item_weights(design, draws[r:r + 1])[0]) for r in range(30)])
    low, high = np.quantile(refits, [0.025, 0.975], axis=0)
    assert [c.low for c in style.coefficients] == pytest.approx(low)
    assert [c.high for c in style.coefficients] == pytest.approx(high)


def test_the_raw_ranking_is_the_joint_bootstrap_on_the_same_draws() -> None:
    rng = np.random.default_rng(11)
    design = _design(4, 4)
    _, scores, lengths = _board(rng, 0.5, design)
    style = style_control(scores, lengths, design, ["log_length"], replicates=REPLICATES, seed=5)
    joint = joint_bootstrap(scores, design, REPLICATES, 5)
    assert style.raw.headlines == pytest.approx(joint.headlines)
    assert style.raw.low == pytest.approx(joint.low) and style.raw.high == pytest.approx(joint.high)
    assert style.raw.rank_best.tolist() == joint.rank_best.tolist()
    assert style.raw.rank_worst.tolist() == joint.rank_worst.tolist()


def test_the_controlled_score_is_the_headline_moved_to_the_median_style() -> None:
    rng = np.random.default_rng(12)
    design = _design(3, 5)
    _, scores, lengths = _board(rng, 0.8, design, n_models=7)
    style = style_control(scores, lengths, design, ["log_length"], replicates=50)
    beta = style.coefficients[0].estimate
    expected = style.raw.headlines - beta * (style.model_style[:, 0] - np.median(style.model_style[:, 0]))
    assert style.controlled.headlines == pytest.approx(expected)
    middle = int(np.argsort(style.model_style[:, 0])[3])  # the median model's style is the median style
    assert style.controlled.headlines[middle] == pytest.approx(style.raw.headlines[middle])


def test_the_controlled_ranking_recovers_the_true_order_where_the_raw_one_does_not() -> None:
    rng = np.random.default_rng(2026)
    design = _design(4, 12)  # 4 languages, 162 items in clusters of three
    beta = 1.0
    controlled, raw, covered = [], [], []
    for _ in range(200):
        quality, scores, lengths = _board(rng, beta, design)
        style = style_control(scores, lengths, design, ["log_length"], replicates=REPLICATES,
                              seed=int(rng.integers(1 << 31)))
        controlled.append(spearman(quality, style.controlled.headlines))
        raw.append(spearman(quality, style.raw.headlines))
        coefficient = style.coefficients[0]
        covered.append(coefficient.low <= beta <= coefficient.high)
    assert np.mean(controlled) >= 0.95 and np.quantile(controlled, 0.05) >= 0.85
    assert np.mean(raw) < 0.0  # the judge's taste for length turns the raw order round
    assert 0.91 <= np.mean(covered) <= 0.99  # 95 % nominal; 200 boards give about +/- 3 points


def test_without_a_length_effect_the_two_rankings_agree_within_their_intervals() -> None:
    rng = np.random.default_rng(99)
    design = _design(4, 12)
    for _ in range(20):
        _, scores, lengths = _board(rng, 0.0, design)
        style = style_control(scores, lengths, design, ["log_length"], replicates=REPLICATES)
        controlled, raw = style.controlled, style.raw
        assert ((raw.low <= controlled.headlines) & (controlled.headlines <= raw.high)).all()
        assert ((controlled.low <= raw.headlines) & (raw.headlines <= controlled.high)).all()
        assert ((controlled.rank_best <= raw.rank_worst) & (raw.rank_best <= controlled.rank_worst)).all()


def test_a_language_with_one_cluster_has_no_coefficients_of_its_own() -> None:
    rng = np.random.default_rng(3)
    strata = ["Hindi"] * 30 + ["Tamil"] * 3
    design = item_design(strata, [i // 3 for i in range(30)] + [0, 0, 0])
    features = rng.normal(size=(4, 33, 1))
    scores = rng.normal(size=(4, 33)) + 0.3 * features[:, :, 0]
    style = style_control(scores, features, design, ["log_length"], replicates=40)
    hindi, tamil = style.stratum_coefficients
    assert hindi is not None and hindi[0].feature == "log_length" and hindi[0].low < hindi[0].high
    assert tamil is None


def test_a_feature_that_is_only_the_models_own_is_refused() -> None:
    design = _design(2, 3)
    per_model = np.array([1.0, 2.0, 3.0])
    features = np.broadcast_to(per_model[:, None, None], (3, design.n_items, 1)).copy()
    scores = np.random.default_rng(0).normal(size=(3, design.n_items))
    with pytest.raises(StyleNotIdentified, match="log_length"):
        style_control(scores, features, design, ["log_length"], replicates=20)


def test_mismatched_features_are_refused() -> None:
    design = _design(2, 2)
    with pytest.raises(ValueError, match="do not match"):
        style_control(np.zeros((3, design.n_items)), np.zeros((3, design.n_items, 2)), design, ["log_length"])
