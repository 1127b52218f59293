"""Agreement statistics of paired scores: exact, within ±1, Spearman (with ties), mean |difference|."""

from __future__ import annotations

import pytest

from eval_backend.agreement import agreement, average_ranks, spearman


def test_ties_share_the_mean_of_their_ranks() -> None:
    assert average_ranks([10, 20, 20, 30, 20]).tolist() == [1, 3, 3, 5, 3]
    assert average_ranks([]).tolist() == []


def test_spearman_matches_a_published_value_with_a_tie() -> None:
    # scipy.stats.spearmanr([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) in SciPy's documentation.
    assert spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) == pytest.approx(0.8207826816681233)


def test_spearman_is_about_order_not_distance() -> None:
    assert spearman([1, 2, 3, 4], [1, 10, 100, 1000]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [9, 7, 5, 1]) == pytest.approx(-1.0)


@pytest.mark.parametrize(("first", "second"), [([5, 5, 5], [1, 2, 3]), ([4], [4]), ([], [])])
def test_spearman_is_undefined_without_spread(first: list[int], second: list[int]) -> None:
    assert spearman(first, second) is None


def test_the_four_figures_of_known_pairs() -> None:
    figures = agreement([7, 7, 5, 9, 3], [7, 8, 3, 9, 4])
    assert figures.pairs == 5
    assert figures.exact == pytest.approx(2 / 5)
    assert figures.within_one == pytest.approx(4 / 5)
    assert figures.mean_abs_diff == pytest.approx((0 + 1 + 2 + 0 + 1) / 5)
    assert figures.spearman == pytest.approx(spearman([7, 7, 5, 9, 3], [7, 8, 3, 9, 4]))


def test_no_pairs_give_no_figures_and_unequal_lengths_are_refused() -> None:
    empty = agreement([], [])
    assert (empty.pairs, empty.exact, empty.within_one, empty.spearman, empty.mean_abs_diff) == (0, None, None, None, None)
    with pytest.raises(ValueError, match="3 and 2"):
        agreement([1, 2, 3], [1, 2])
