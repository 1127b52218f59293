"""Per-task figures: unrounded percentages, errors and missing replies counted beside them."""

from __future__ import annotations

import pytest

from eval_backend.benchmarks.saraiki.answers import AnswerScore
from eval_backend.benchmarks.saraiki.instructions import CheckError, InstructionCheck, InstructionScore
from eval_backend.benchmarks.saraiki.metrics import accuracy_metrics, instruction_metrics, percent, safety_metrics
from eval_backend.benchmarks.saraiki.refusal import RefusalLabel, RefusalMethod, RefusalVerdict
from eval_backend.benchmarks.saraiki.rows import SafetyRow

RIGHT, WRONG = AnswerScore("A", True), AnswerScore("B", False)


def test_accuracy_is_an_unrounded_percentage_with_its_shots() -> None:
    figures = accuracy_metrics([RIGHT, WRONG, WRONG], shots=5)
    assert figures == {"accuracy": 100 / 3, "shots": 5, "n": 3, "missing": 0}
    # the script prints round(100 * correct / len(rows), 1); the board rounds, the summary does not
    assert round(figures["accuracy"], 1) == 33.3


def test_items_without_a_reply_are_counted_not_scored() -> None:
    assert accuracy_metrics([RIGHT, None]) == {"accuracy": 100.0, "n": 1, "missing": 1}
    assert accuracy_metrics([], shots=8)["accuracy"] is None
    assert percent(0, 0) is None


def _score(*checks: tuple[bool | None, bool | None]) -> InstructionScore:
    return InstructionScore(
        tuple(
            InstructionCheck(f"id{i}", strict, loose)
            if strict is not None
            else InstructionCheck(f"id{i}", None, None, "no checker", CheckError.UNKNOWN_INSTRUCTION)
            for i, (strict, loose) in enumerate(checks)
        )
    )


def test_instruction_following_prompt_and_instruction_levels() -> None:
    scores = [
        _score((True, True), (True, True)),  # all met
        _score((False, True), (True, True)),  # loose only
        _score((False, False)),  # nothing met
    ]
    figures = instruction_metrics(scores)
    assert figures["prompt_level"] == 100 / 3
    assert figures["instruction_level"] == 100 * 3 / 5  # rules of every row together
    assert figures["prompt_level_loose"] == 200 / 3
    assert figures["instruction_level_loose"] == 100 * 4 / 5
    assert (figures["n"], figures["n_instructions"], figures["errors"]) == (3, 5, {})


def test_instructions_that_could_not_be_checked_are_errors_shown_apart() -> None:
    figures = instruction_metrics([_score((True, True), (None, None)), _score((True, True)), None])
    assert figures["errors"] == {"unknown_instruction": 1}
    assert figures["unscored_prompts"] == 1 and figures["missing"] == 1
    assert figures["n"] == 1 and figures["prompt_level"] == 100.0
    assert figures["n_instructions"] == 2 and figures["instruction_level"] == 100.0


def _verdict(label: RefusalLabel | None) -> RefusalVerdict:
    return RefusalVerdict(label, RefusalMethod.JUDGE, error=None if label else "invalid judge answer")


def test_safety_rates_are_separate_and_partial_refusals_count_as_refusals() -> None:
    rows = [SafetyRow("q", behavior) for behavior in ("refuse", "refuse", "refuse", "comply", "comply", "comply", "comply")]
    verdicts = [
        _verdict(RefusalLabel.REFUSAL),
        _verdict(RefusalLabel.PARTIAL_REFUSAL),
        _verdict(RefusalLabel.COMPLIANCE),
        _verdict(RefusalLabel.PARTIAL_REFUSAL),
        _verdict(RefusalLabel.COMPLIANCE),
        _verdict(None),
        None,
    ]
    assert safety_metrics(rows, verdicts) == {
        "refusal_rate": 200 / 3,
        "over_refusal_rate": 50.0,
        "n_refuse": 3,
        "n_comply": 2,
        "unclassified": 1,
        "missing": 1,
    }


def test_safety_verdicts_must_match_their_rows() -> None:
    with pytest.raises(ValueError, match="2 safety rows but 1 verdicts"):
        safety_metrics([SafetyRow("q", "refuse")] * 2, [None])
