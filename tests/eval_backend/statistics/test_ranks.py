"""Ranks within a replicate: ties share the best of their ranks; rank intervals are whole ranks."""

from __future__ import annotations

import numpy as np

from eval_backend.statistics import competition_ranks, rank_intervals


def test_tied_models_share_the_best_of_their_ranks() -> None:
    ranks = competition_ranks(np.array([[3.0, 5.0, 5.0, 1.0], [1.0, 2.0, 3.0, 4.0]]))
    assert ranks.tolist() == [[3, 1, 1, 4], [4, 3, 2, 1]]


def test_lower_is_better() -> None:
    assert competition_ranks(np.array([0.2, 0.1, 0.2]), higher_is_better=False).tolist() == [[2, 1, 2]]


def test_rank_intervals_are_the_middle_95_percent_of_the_ranks_held() -> None:
    # A model ranked 1st in 96 % of replicates and 2nd in 4 %: its 97.5th percentile is 2, its 2.5th 1.
    ranks = np.array([[1, 2]] * 96 + [[2, 1]] * 4)
    best, worst = rank_intervals(ranks)
    assert best.tolist() == [1, 1]
    assert worst.tolist() == [2, 2]
    # 2 % of replicates is inside the 2.5 % tail: the rarely held rank is left out.
    best, worst = rank_intervals(np.array([[1, 2]] * 98 + [[2, 1]] * 2))
    assert best.tolist() == [1, 2] and worst.tolist() == [1, 2]


def test_headlines_equal_but_for_rounding_are_tied() -> None:
    # 0.1 + 0.2 != 0.3 in floating point; as headlines they are the same figure.
    assert competition_ranks(np.array([0.1 + 0.2, 0.3, 0.2])).tolist() == [[1, 1, 3]]


def test_the_tails_are_cut_at_exactly_two_and_a_half_percent() -> None:
    # 200 replicates: the 2.5th percentile is the 5th lowest rank. A model ranked 1st in exactly 5
    # replicates keeps 1 as its best; (1 - 0.95) / 2 in floating point is a hair above 0.025 and
    # would give 2.
    ranks = np.array([[1]] * 5 + [[2]] * 195)
    assert rank_intervals(ranks)[0].tolist() == [1]
