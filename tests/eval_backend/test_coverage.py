"""A run's coverage against its dataset and the publish rule, the same for every benchmark."""

from __future__ import annotations

from eval_backend.coverage import Coverage, coverage_of, unfinished_reason
from eval_backend.item_status import FAILED, NO_RESPONSE, PENDING, SCORED

HINDI, TAMIL, SARAIKI = "हिन्दी", "தமிழ்", "سرائیکی"


def test_items_the_run_never_reached_count_as_pending_against_the_dataset() -> None:
    outcomes = [(HINDI, SCORED), (HINDI, NO_RESPONSE), (TAMIL, FAILED)]

    coverage = coverage_of(outcomes, expected={HINDI: 4, TAMIL: 3}, dataset_configs=[HINDI, TAMIL, SARAIKI])

    assert coverage == Coverage(
        expected=7, scored=1, failed=1, no_response=1, pending=4, configs=2, dataset_configs=3
    )
    assert not coverage.complete
    assert coverage.partial


def test_without_recorded_counts_the_run_s_own_items_and_configs_stand_in() -> None:
    outcomes = [(HINDI, SCORED), (HINDI, PENDING), (TAMIL, SCORED)]

    coverage = coverage_of(outcomes, expected=None, dataset_configs=None)

    assert (coverage.expected, coverage.scored, coverage.pending) == (3, 2, 1)
    assert (coverage.configs, coverage.dataset_configs) == (2, 2)
    assert not coverage.partial


def test_a_run_is_complete_when_every_expected_item_is_scored_or_scored_by_the_no_answer_policy() -> None:
    answered_or_not = [(SARAIKI, SCORED), (SARAIKI, NO_RESPONSE)]
    one_failed = [(SARAIKI, SCORED), (SARAIKI, FAILED)]

    assert coverage_of(answered_or_not, {SARAIKI: 2}, [SARAIKI]).complete
    assert not coverage_of(one_failed, {SARAIKI: 2}, [SARAIKI]).complete
    assert not coverage_of([], {}, [SARAIKI]).complete, "a run of no items is never complete"


def test_a_complete_settled_run_may_be_published_and_an_incomplete_one_says_why_with_its_counts() -> None:
    complete = coverage_of([(HINDI, SCORED), (HINDI, NO_RESPONSE)], {HINDI: 2}, [HINDI])
    short = coverage_of([(HINDI, SCORED), (HINDI, FAILED)], {HINDI: 5}, [HINDI])

    assert unfinished_reason(complete, run_pending=0) is None
    assert unfinished_reason(short, run_pending=0) == (
        "incomplete run: 1 of 5 items scored (1 with a failed judgment, 3 pending, 0 without an answer)"
    )


def test_a_limited_run_is_finished_once_its_own_items_are_settled_though_never_complete() -> None:
    first_two = coverage_of([(TAMIL, SCORED), (TAMIL, NO_RESPONSE)], {TAMIL: 40}, [TAMIL])

    assert not first_two.complete
    assert unfinished_reason(first_two, run_pending=0, limited=True) is None
    assert unfinished_reason(first_two, run_pending=1, limited=True) is not None
    assert unfinished_reason(first_two, run_pending=0, limited=False) is not None
