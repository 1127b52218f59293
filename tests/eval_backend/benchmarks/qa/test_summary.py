"""Aggregation: per-domain and micro-averaged accuracy, agreement buckets, counts, the JSON schema."""

from __future__ import annotations

import unicodedata

import pytest

from eval_backend.benchmarks.qa import (
    Accuracy,
    Normalization,
    QaJudgment,
    QaRow,
    agreement_counts,
    judge_summary,
    score_row,
    scorer_accuracy,
    summarize,
)

ROWS = [
    QaRow("q1", "Ruru Jataka", "Art", "the Ruru Jataka"),  # both
    QaRow("q2", "amalak", "Art", "Amalaka"),  # exact only
    QaRow("q3", "Narmada valley", "Geography", "Narmada river valley"),  # overlap only
    QaRow("q4", "Delhi", "Geography", "Mumbai"),  # neither
    QaRow("q5", "Kaveri", "Geography", "  "),  # blank: neither
    QaRow("q6", "", "Geography", "whatever"),  # empty golden: both
]


def test_combined_accuracy_is_the_micro_average_not_the_mean_of_domains() -> None:
    accuracy = scorer_accuracy(["A", "A", "A", "B"], [True, True, True, False])
    assert accuracy.combined == Accuracy(3, 4) and accuracy.combined.percent == 75.0
    assert accuracy.domains == {"A": Accuracy(3, 3), "B": Accuracy(0, 1)}
    # The mean of the domain percentages would be 50: the seed weights each domain by its size.
    assert accuracy.to_json() == {"combined": 75.0, "domains": {"A": 100.0, "B": 0.0}}


def test_percentages_are_not_rounded() -> None:
    accuracy = scorer_accuracy(["A"] * 3, [True, False, False])
    assert accuracy.combined.percent == 100 / 3


def test_a_none_verdict_is_left_out_of_every_mean() -> None:
    accuracy = scorer_accuracy(["A", "A", "B"], [True, None, None])
    assert accuracy.combined == Accuracy(1, 1)
    assert accuracy.domains == {"A": Accuracy(1, 1)}
    assert scorer_accuracy([], []).to_json() == {"combined": None, "domains": {}}


def test_agreement_counts_every_bucket() -> None:
    verdicts = [score_row(row) for row in ROWS]
    assert agreement_counts(verdicts) == {"both": 2, "exact_only": 1, "overlap_only": 1, "neither": 2}
    assert agreement_counts([]) == {"both": 0, "exact_only": 0, "overlap_only": 0, "neither": 0}


def test_summary_json_has_the_issues_schema() -> None:
    summary = summarize(ROWS, [score_row(row) for row in ROWS])
    data = summary.to_json()
    assert data["n"] == 6 and data["blank_responses"] == 1 and data["empty_golden"] == 1
    assert summary.empty_golden_rows == (6,)
    assert data["exact"] == {"combined": 50.0, "domains": {"Art": 100.0, "Geography": 25.0}}
    assert data["overlap"]["combined"] == 50.0
    assert data["overlap"]["domains"] == {"Art": 50.0, "Geography": 50.0}
    assert data["agreement"] == {"both": 2, "exact_only": 1, "overlap_only": 1, "neither": 2}
    assert "judge" not in data
    assert data["normalize"] is None and data["nfc_would_change"] == 0


def test_without_normalisation_the_rows_nfc_would_flip_are_named() -> None:
    nfd = unicodedata.normalize("NFD", "café")
    rows = [*ROWS, QaRow("q7", "café", "Food", nfd)]
    summary = summarize(rows, [score_row(row) for row in rows])
    assert summary.nfc_would_change_rows == (7,)
    normalised = summarize(rows, [score_row(row, Normalization.NFC) for row in rows], Normalization.NFC)
    assert normalised.nfc_would_change_rows is None
    assert normalised.to_json()["normalize"] == "nfc" and "nfc_would_change" not in normalised.to_json()
    assert normalised.exact.domains["Food"] == Accuracy(1, 1)


def test_judge_summary_leaves_failed_judgments_out_and_counts_them() -> None:
    judgments = [
        QaJudgment(True, "ok"),
        QaJudgment(False, "different claim"),
        QaJudgment(None, "invalid judge answer", attempts=3, error_kind="invalid_answer"),
    ]
    judge = judge_summary(ROWS[:3], judgments, "stand-in-judge", 0.0, None)
    assert judge.failed == 1
    assert judge.to_json() == {
        "combined": 50.0,
        "domains": {"Art": 50.0},
        "model": "stand-in-judge",
        "temperature": 0.0,
        "temperature_refused": None,
        "temperature_refused_calls": 0,
        "failed": 1,
    }
    data = summarize(ROWS[:3], [score_row(row) for row in ROWS[:3]], judge=judge).to_json()
    assert list(data)[:6] == ["n", "blank_responses", "empty_golden", "exact", "overlap", "judge"]


def test_verdicts_and_rows_must_line_up() -> None:
    with pytest.raises(ValueError):
        scorer_accuracy(["A", "B"], [True])
