"""One verdict per comparison: the adjusted p-value and the interval both required; none on too few clusters."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from eval_backend.statistics import compare_paired, holm_adjusted, item_design, precision, verdicts
from eval_backend.statistics.verdict import A_BETTER, B_BETTER, NO_DIFFERENCE, NO_VERDICT


def test_one_item_has_no_interval_no_p_value_and_no_verdict() -> None:
    # Today's main: +3.000 [+3.000, +3.000], p = 1.0, read as "A better".
    paired = compare_paired(np.array([9.0]), np.array([6.0]), item_design(["Hindi"]))
    assert paired.difference.estimate == 3.0
    assert np.isnan(paired.difference.low) and np.isnan(paired.difference.high) and np.isnan(paired.p_value)
    assert "1 cluster" in paired.no_verdict
    (answer,) = verdicts([paired], [True])
    assert (answer.label, answer.adjusted_p, answer.family_size) == (NO_VERDICT, None, 0)
    assert answer.reason == paired.no_verdict


def test_configs_of_one_cluster_each_have_no_spread_either() -> None:
    # Two languages, one item each: every bootstrap replicate redraws both, the interval would be a point.
    paired = compare_paired(np.array([9.0, 8.0]), np.array([6.0, 7.0]), item_design(["Hindi", "Tamil"]))
    assert paired.no_verdict is not None and "single cluster" in paired.no_verdict
    assert verdicts([paired], [True])[0].label == NO_VERDICT


def test_two_items_both_better_are_not_called_better_at_p_one_half() -> None:
    # Today's main: an interval of [+2, +3] (both items favour A) read as "A better" at p = 0.5.
    paired = compare_paired(np.array([9.0, 9.0]), np.array([6.0, 7.0]), item_design(["Hindi", "Hindi"]))
    assert paired.difference.low > 0
    assert paired.p_value == pytest.approx(0.5)  # the exact sign-flip p-value: 2 of 4 sign vectors
    answer = verdicts([paired], [True])[0]
    assert (answer.label, answer.adjusted_p) == (NO_DIFFERENCE, pytest.approx(0.5))


def _shifted(shift: float, seed: int, n: int = 80):
    rng = np.random.default_rng(seed)
    b = rng.normal(5.0, 1.0, n)
    return compare_paired(b + shift + rng.normal(0.0, 0.3, n), b, item_design(["Hindi"] * n))


def test_the_verdict_requires_the_holm_adjusted_p_value_and_the_interval() -> None:
    rows = [_shifted(0.5, 1), _shifted(-0.5, 2), _shifted(0.0, 3), _shifted(0.5, 4)]
    answers = verdicts(rows, [True, True, True, False])
    assert [answer.label for answer in answers] == [A_BETTER, B_BETTER, NO_DIFFERENCE, B_BETTER]
    expected = holm_adjusted(np.array([row.p_value for row in rows]))
    assert [answer.adjusted_p for answer in answers] == pytest.approx(expected.tolist())
    assert {answer.family_size for answer in answers} == {4}
    for row, answer in zip(rows, answers):  # never "better" where the adjusted p-value says otherwise
        if answer.significant:
            assert answer.adjusted_p <= 0.05 and (row.difference.low > 0 or row.difference.high < 0)


def test_a_row_significant_alone_is_not_after_the_correction() -> None:
    # A small shift on few items: significant on its own, not among 40 rows of no difference.
    weak = next(row for seed in range(200) if 0.005 < (row := _shifted(0.12, seed, n=40)).p_value < 0.02
                and row.difference.low > 0)
    nulls = [_shifted(0.0, 1000 + seed, n=40) for seed in range(39)]
    assert verdicts([weak], [True])[0].label == A_BETTER
    assert verdicts([weak, *nulls], [True] * 40)[0].label == NO_DIFFERENCE


def test_rows_without_a_p_value_are_no_hypothesis_of_the_family() -> None:
    one_item = compare_paired(np.array([9.0]), np.array([6.0]), item_design(["Hindi"]))
    strong = _shifted(1.0, 5)
    answers = verdicts([one_item, strong], [True, True])
    assert answers[1].family_size == 1 and answers[1].adjusted_p == pytest.approx(strong.p_value)
    assert np.isnan(holm_adjusted(np.array([np.nan, 0.01]))[0])


def test_the_exact_sign_flip_p_value_is_the_share_of_all_sign_vectors_as_extreme() -> None:
    # The reference enumerates the 2^11 sign vectors one by one (scipy's permutation_test with
    # permutation_type="samples" does the same; scipy is not installed here).
    rng = np.random.default_rng(9)
    b = rng.normal(5.0, 1.0, 11)
    a = b + 0.4 + rng.normal(0.0, 0.5, 11)
    paired = compare_paired(a, b, item_design(["Hindi"] * 11))
    d = a - b
    flipped = [abs(np.mean(np.array(signs) * d)) for signs in product((-1.0, 1.0), repeat=d.size)]
    reference = np.mean(np.array(flipped) >= abs(np.mean(d)) * (1 - 1e-9))
    assert paired.p_value == pytest.approx(reference)


def test_the_detectable_difference_says_why_it_is_missing() -> None:
    design = item_design(["Hindi"] * 20)
    runs = np.random.default_rng(2).normal(6.0, 1.0, size=(3, 20))
    assert precision(runs[:1], design).no_detectable_reason.startswith("one run")
    one_item = precision(runs[:, :1], item_design(["Hindi"]))
    assert one_item.detectable_difference is None and "1 cluster" in one_item.no_detectable_reason
    constant = precision(np.full((3, 20), 7.0), design)  # today's main: 0.0
    assert constant.detectable_difference is None and "no spread" in constant.no_detectable_reason
    measured = precision(runs, design)
    assert measured.detectable_difference > 0 and measured.no_detectable_reason is None
