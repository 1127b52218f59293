"""The joint bootstrap written plainly, as the bench's reference: a loop over replicates and configs.

For each replicate it gathers the drawn clusters' items config by config and takes every
model's mean over them (numpy over models, Python over replicates, configs and clusters), then
ranks the models replicate by replicate. It draws with the same generator calls as
`eval_backend.statistics.resampling`, so on the same seed both give the same replicates and
the bench can check that the engine's figures are the reference's.
"""

from __future__ import annotations

import numpy as np

from eval_backend.statistics import Design
from eval_backend.statistics.ranks import TIE_DECIMALS


def reference_joint_bootstrap(scores: np.ndarray, design: Design, replicates: int, seed: int) -> dict[str, np.ndarray]:
    """Headline replicates (replicates x models), 95 % intervals and rank intervals, by plain loops."""
    rng = np.random.default_rng(seed)
    strata = range(design.n_strata)
    members = [np.flatnonzero(design.cluster_strata == stratum) for stratum in strata]
    items_of = [np.flatnonzero(design.clusters == cluster) for cluster in range(design.n_clusters)]
    picks = [rng.integers(0, clusters.size, size=(replicates, clusters.size)) for clusters in members]
    headlines = np.empty((replicates, scores.shape[0]))
    for replicate in range(replicates):
        stratum_means = []
        for stratum in strata:
            drawn = members[stratum][picks[stratum][replicate]]
            items = np.concatenate([items_of[cluster] for cluster in drawn])
            stratum_means.append(scores[:, items].mean(axis=1))
        headlines[replicate] = np.mean(stratum_means, axis=0)
    ranks = np.empty(headlines.shape, dtype=np.int64)
    tied = np.round(headlines, TIE_DECIMALS)  # the engine's rule: equal to 9 decimals is a tie
    for replicate in range(replicates):
        for model in range(scores.shape[0]):
            ranks[replicate, model] = 1 + np.count_nonzero(tied[replicate] > tied[replicate, model])
    low, high = np.quantile(headlines, [0.025, 0.975], axis=0)
    best = np.quantile(ranks, 0.025, axis=0, method="inverted_cdf")
    worst = np.quantile(ranks, 0.975, axis=0, method="inverted_cdf")
    return {"replicates": headlines, "low": low, "high": high, "rank_best": best, "rank_worst": worst}
