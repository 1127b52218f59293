"""Ranks within each bootstrap replicate, and each model's rank interval across replicates."""

from __future__ import annotations

import numpy as np

from eval_backend.statistics.level import LEVEL, tail_probability

TIE_DECIMALS = 9
"""Headlines equal to this many decimals are tied: a weighted sum and a mean of means of the same
scores differ in the last bits, and with discrete item scores exact ties are common."""


def competition_ranks(values: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Rank of each model in each row of (replicates, models): 1 + the models strictly better.

    Tied models share the best of their ranks ("1224" ranking), so a tie never makes a model
    look worse than any model that beats it.
    """
    rounded = np.round(np.asarray(values, dtype=float), TIE_DECIMALS)
    keys = np.atleast_2d(-rounded if higher_is_better else rounded)
    order = np.argsort(keys, axis=1, kind="stable")
    ordered = np.take_along_axis(keys, order, axis=1)
    positions = np.broadcast_to(np.arange(keys.shape[1]), keys.shape)
    starts_group = np.ones(keys.shape, dtype=bool)
    starts_group[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    # Each position takes the position where its run of equal values starts.
    group_start = np.maximum.accumulate(np.where(starts_group, positions, 0), axis=1)
    ranks = np.empty(keys.shape, dtype=np.int64)
    np.put_along_axis(ranks, order, group_start + 1, axis=1)
    return ranks


def rank_intervals(ranks: np.ndarray, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Each model's best and worst rank: the 2.5th and 97.5th percentile (at 95 %) of its replicate ranks.

    Read as ranks the replicates actually held ("inverted_cdf"), so both ends are whole ranks.
    """
    tail = tail_probability(level)
    best = np.quantile(ranks, tail, axis=0, method="inverted_cdf")
    worst = np.quantile(ranks, 1.0 - tail, axis=0, method="inverted_cdf")
    return best.astype(np.int64), worst.astype(np.int64)
