"""The typed records of the short-answer QA benchmark (seed 002): a row, its verdicts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from eval_backend.records import Usage


@dataclass(frozen=True)
class QaRow:
    """One question as the seed's scripts see it: the dataset's columns plus the model's response.

    `answer` (the golden answer) and `response` are kept exactly as read: never stripped.
    """

    question: str
    answer: str
    domain: str
    response: str


@dataclass(frozen=True)
class OverlapScore:
    """Word overlap of one row: correct when every golden word is present, with partial credit."""

    correct: bool
    matching_words: int
    total_golden_words: int


class Agreement(StrEnum):
    """Which of the two deterministic scorers passed a row (the seed's four buckets)."""

    BOTH = "both"
    EXACT_ONLY = "exact_only"
    OVERLAP_ONLY = "overlap_only"
    NEITHER = "neither"


@dataclass(frozen=True)
class QaVerdict:
    """Both deterministic verdicts of one row, after the blank-response rule."""

    exact_correct: bool
    overlap_correct: bool
    matching_words: int
    total_golden_words: int
    blank_response: bool
    empty_golden: bool

    @property
    def agreement(self) -> Agreement:
        if self.exact_correct:
            return Agreement.BOTH if self.overlap_correct else Agreement.EXACT_ONLY
        return Agreement.OVERLAP_ONLY if self.overlap_correct else Agreement.NEITHER


@dataclass(frozen=True)
class EquivalenceVerdict:
    """The judge's parsed answer: does the response state the golden answer, and why."""

    correct: bool
    reason: str


@dataclass(frozen=True)
class QaJudgment:
    """What the LLM judge made of one row; `correct` is None when the judgment failed.

    A failed judgment (invalid answers on every attempt, an unreachable or refusing judge)
    keeps its error and error kind (see `eval_backend.records`) and is left out of the
    judge's accuracy and counted, never scored as wrong.
    """

    correct: bool | None
    reason: str
    attempts: int = 0
    usage: Usage = Usage()
    error_kind: str | None = None

    @property
    def failed(self) -> bool:
        return self.correct is None
