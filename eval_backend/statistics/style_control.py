"""The style-controlled ranking: each model's figure at the board's median style, refit on every bootstrap replicate.

The fit, over the ranked models' item-level scores y (models x items) and style features x
(models x items x features), each item weighted as the benchmark's headline weights it:

    y[m, i] = alpha[m] + gamma[i] + beta . x[m, i] + error

Model effects alpha, item (request) effects gamma, one coefficient per feature. A model's
controlled score is its figure had its answers the median style: its headline minus
beta . (its mean features - the median over models of the mean features); the headline's
identity a[m] = alpha[m] + mean(gamma) + beta . b[m] (the model effect's normal equation) makes
that alpha[m] + mean(gamma) + beta . median style.

Solved without a dummy per model or item: with every model on every item and weights that
depend only on the item, the two-way within transformation (model means, item means, grand mean)
is the exact projection, and beta's normal equations reduce to a few weighted means of per-item
sums (see `_fit`). Those means are linear in the weights, so every replicate of the cluster
bootstrap (the joint bootstrap's own draws: `cluster_counts` with the same seed) is one row of a
single matrix product of the draw counts with per-cluster sums: refitting on each replicate costs
what the raw joint bootstrap costs, times (1 + features). Tests check the result against a
least-squares fit with explicit dummies on each replicate's weights.

Per stratum (language), the same fit on that stratum's items alone gives its coefficients where the
data identify them. Pure numpy; nothing here knows a benchmark or reads a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from eval_backend.statistics.design import Design, Weighting
from eval_backend.statistics.headline import cluster_sums
from eval_backend.statistics.intervals import LEVEL, percentile_bounds, require_finite
from eval_backend.statistics.joint import JointBootstrap, from_replicates
from eval_backend.statistics.resampling import DEFAULT_REPLICATES, DEFAULT_SEED, cluster_counts

IDENTIFIED = 1e-8
"""The least share of a feature's variance (as the smallest eigenvalue of their correlation) that must
remain once model and item effects are taken out for its coefficient to be estimated."""


class StyleNotIdentified(ValueError):
    """The features vary with nothing but the model and the item: their effect cannot be told from quality."""


@dataclass(frozen=True)
class Coefficient:
    """A feature's effect on the score per unit of it, with its percentile bootstrap interval."""

    feature: str
    estimate: float
    low: float
    high: float
    level: float = LEVEL


@dataclass(frozen=True, eq=False)
class StyleControl:
    """The controlled and the raw ranking from the same draws, the coefficients, and the styles they rest on.

    `stratum_coefficients[s]` holds stratum `s`'s coefficients (design codes: configs in order of
    first appearance), None where its items do not identify them (under two clusters, or features
    that do not vary there beyond model and item). `model_style` is each model's mean features
    (models x features, weighted as the headline); `median_style` their median over the models.
    """

    controlled: JointBootstrap
    raw: JointBootstrap
    coefficients: tuple[Coefficient, ...]
    stratum_coefficients: tuple[tuple[Coefficient, ...] | None, ...]
    model_style: np.ndarray
    median_style: np.ndarray


@dataclass(frozen=True)
class _Layout:
    """Where each per-item quantity sits in the columns of the per-cluster table, for M models and K features."""

    models: int
    features: int

    def split(self, moments: np.ndarray) -> dict[str, np.ndarray]:
        """Moments (replicates, columns) cut into the named quantities the fit reads."""
        m, k = self.models, self.features
        widths = {"scores": m, "features": m * k, "cross": k, "gram": k * k, "mean_cross": k,
                  "mean_gram": k * k, "score_mean": 1, "feature_mean": k}
        parts, start = {}, 0
        for name, width in widths.items():
            parts[name] = moments[:, start:start + width]
            start += width
        r = moments.shape[0]
        parts["features"] = parts["features"].reshape(r, m, k)
        parts["gram"] = parts["gram"].reshape(r, k, k)
        parts["mean_gram"] = parts["mean_gram"].reshape(r, k, k)
        parts["score_mean"] = parts["score_mean"][:, 0]
        return parts


def style_control(
    scores: np.ndarray, features: np.ndarray, design: Design, feature_names: Sequence[str],
    replicates: int = DEFAULT_REPLICATES, seed: int = DEFAULT_SEED, higher_is_better: bool = True,
    level: float = LEVEL,
) -> StyleControl:
    """The style-controlled ranking of (models, items) scores with (models, items, features) style features.

    StyleNotIdentified when the features do not vary beyond model and item over the whole board.
    """
    values, style = _checked(scores, features, design, feature_names)
    layout = _Layout(values.shape[0], style.shape[2])
    table = _cluster_table(values, style, design)
    point = _replicate_fits(table, np.ones((1, design.n_clusters)), design, layout)
    if not point.identified[0]:
        raise StyleNotIdentified(
            f"the answers' {', '.join(feature_names)} vary with nothing but the model and the item: "
            "their effect cannot be told from the models' quality"
        )
    boot = _replicate_fits(table, cluster_counts(design, replicates, seed), design, layout)
    raw = from_replicates(point.headlines[0], boot.headlines, seed, higher_is_better, level)
    controlled = from_replicates(point.controlled[0], boot.controlled, seed, higher_is_better, level)
    return StyleControl(
        controlled=controlled,
        raw=raw,
        coefficients=_coefficients(feature_names, point.beta[0], boot.beta, level),
        stratum_coefficients=tuple(
            _coefficients(feature_names, point.stratum_beta[0, s], boot.stratum_beta[:, s], level)
            if point.stratum_identified[0, s] and _clusters_in(design, s) >= 2 else None
            for s in range(design.n_strata)
        ),
        model_style=point.model_style[0],
        median_style=point.median_style[0],
    )


def _checked(
    scores: np.ndarray, features: np.ndarray, design: Design, feature_names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    values = np.atleast_2d(np.asarray(scores, dtype=float))
    style = np.asarray(features, dtype=float)
    require_finite(values)
    if not np.isfinite(style).all():
        raise ValueError("every answer needs a value of every style feature")
    if style.ndim != 3 or style.shape[:2] != values.shape or style.shape[2] != len(feature_names):
        raise ValueError(
            f"style features of shape {style.shape} do not match scores {values.shape} "
            f"and {len(feature_names)} features"
        )
    if values.shape[1] != design.n_items:
        raise ValueError(f"scores have {values.shape[1]} items, the design {design.n_items}")
    if not feature_names:
        raise ValueError("no style feature to control for")
    return values, style


def _cluster_table(scores: np.ndarray, features: np.ndarray, design: Design) -> np.ndarray:
    """(clusters, columns): per cluster, the sums over its items of every quantity in `_Layout`'s order.

    Per item i: each model's score and features, sum over models of x y' and x x', the model-mean
    features d and score c as d c and d d', c, and d.
    """
    n_models, n_items, n_features = features.shape
    score_mean = scores.mean(axis=0)
    feature_mean = features.mean(axis=0)
    per_item = np.concatenate([
        scores.T,
        features.transpose(1, 0, 2).reshape(n_items, n_models * n_features),
        (scores.T[:, np.newaxis, :] @ features.transpose(1, 0, 2))[:, 0],
        (features.transpose(1, 2, 0) @ features.transpose(1, 0, 2)).reshape(n_items, -1),
        feature_mean * score_mean[:, np.newaxis],
        np.einsum("ik,il->ikl", feature_mean, feature_mean).reshape(n_items, -1),
        score_mean[:, np.newaxis],
        feature_mean,
    ], axis=1)
    return cluster_sums(per_item.T, design).T


@dataclass(frozen=True, eq=False)
class _Fits:
    """Per replicate (rows): headlines, controlled scores, coefficients, styles; per stratum coefficients."""

    headlines: np.ndarray
    controlled: np.ndarray
    beta: np.ndarray
    identified: np.ndarray
    model_style: np.ndarray
    median_style: np.ndarray
    stratum_beta: np.ndarray
    stratum_identified: np.ndarray


def _replicate_fits(table: np.ndarray, counts: np.ndarray, design: Design, layout: _Layout) -> _Fits:
    """The fit on each replicate's weights (counts: replicates x clusters), pooled and per stratum.

    A stratum's weighted means are its drawn clusters' sums over its drawn items; the pooled means
    combine them as the headline combines strata (each alike, or each by its items).
    """
    sizes = np.bincount(design.clusters, minlength=design.n_clusters).astype(float)
    members = [np.flatnonzero(design.cluster_strata == s) for s in range(design.n_strata)]
    drawn_items = np.stack([counts[:, cols] @ sizes[cols] for cols in members], axis=1)
    if design.weighting is Weighting.POOLED:
        share = drawn_items / drawn_items.sum(axis=1, keepdims=True)
    else:
        share = np.full(drawn_items.shape, 1.0 / design.n_strata)
    pooled = np.zeros((counts.shape[0], table.shape[1]))
    stratum_beta = np.zeros((counts.shape[0], design.n_strata, layout.features))
    stratum_identified = np.zeros((counts.shape[0], design.n_strata), dtype=bool)
    for s, cols in enumerate(members):
        moments = (counts[:, cols] @ table[cols]) / drawn_items[:, s:s + 1]
        pooled += moments * share[:, s:s + 1]
        stratum_beta[:, s], stratum_identified[:, s] = _fit(layout.split(moments), layout.models)
    parts = layout.split(pooled)
    beta, identified = _fit(parts, layout.models)
    model_style = parts["features"]
    median_style = np.median(model_style, axis=1)
    controlled = parts["scores"] - ((model_style - median_style[:, np.newaxis]) @ beta[:, :, np.newaxis])[:, :, 0]
    return _Fits(parts["scores"], controlled, beta, identified, model_style, median_style,
                 stratum_beta, stratum_identified)


def _fit(parts: dict[str, np.ndarray], n_models: int) -> tuple[np.ndarray, np.ndarray]:
    """Per replicate, beta of the two-way within fit from its weighted means, and whether it is identified.

    With weighted means over items a (model scores), b (model features), the per-item sums and the
    grand means g_y, g_x, the within cross-products are
        S_xy = mean(sum_m x y) - sum_m b a - M mean(d c) + M g_x g_y
        S_xx = mean(sum_m x x') - sum_m b b' - M mean(d d') + M g_x g_x'
    (the within-transformed x is orthogonal to model and item effects, so S_xy needs y untransformed).
    The sums over models are batched matrix products: several times faster than `einsum` here.
    """
    a, b = parts["scores"], parts["features"]
    g_y, g_x = parts["score_mean"], parts["feature_mean"]
    s_xy = (parts["cross"] - (a[:, np.newaxis, :] @ b)[:, 0] - n_models * parts["mean_cross"]
            + n_models * g_x * g_y[:, np.newaxis])
    s_xx = (parts["gram"] - b.transpose(0, 2, 1) @ b - n_models * parts["mean_gram"]
            + n_models * g_x[:, :, np.newaxis] * g_x[:, np.newaxis, :])
    total = np.diagonal(parts["gram"], axis1=1, axis2=2) - n_models * g_x**2
    beta = (np.linalg.pinv(s_xx) @ s_xy[..., np.newaxis])[..., 0]
    return beta, _identified(s_xx, total)


def _identified(s_xx: np.ndarray, total: np.ndarray) -> np.ndarray:
    """Whether the within variation of the features, scaled by their total variation, is of full rank."""
    scale = np.sqrt(np.where(total > 0, total, np.inf))
    correlation = s_xx / (scale[:, :, np.newaxis] * scale[:, np.newaxis, :])
    return np.linalg.eigvalsh(correlation).min(axis=1) > IDENTIFIED


def _coefficients(
    names: Sequence[str], point: np.ndarray, replicates: np.ndarray, level: float
) -> tuple[Coefficient, ...]:
    low, high = percentile_bounds(replicates, level)
    return tuple(
        Coefficient(name, float(point[k]), float(low[k]), float(high[k]), level) for k, name in enumerate(names)
    )


def _clusters_in(design: Design, stratum: int) -> int:
    return int(np.count_nonzero(design.cluster_strata == stratum))
