"""Aggregating QA verdicts: per-domain and combined accuracy, agreement buckets, counts.

Pure functions over sequences of rows and verdicts. Combined accuracy is the micro-average
over every pooled question (the seed's definition), identical to weighting each domain by
its size. Percentages run 0–100 and are never rounded here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from eval_backend.benchmarks.qa.records import Agreement, QaJudgment, QaRow, QaVerdict
from eval_backend.benchmarks.qa.scorers import Normalization, nfc_would_change


@dataclass(frozen=True)
class Accuracy:
    """`correct` of `total` scored questions; `percent` is None when nothing was scored."""

    correct: int = 0
    total: int = 0

    @property
    def percent(self) -> float | None:
        return 100.0 * self.correct / self.total if self.total else None

    def add(self, correct: bool) -> Accuracy:
        return Accuracy(self.correct + correct, self.total + 1)


@dataclass(frozen=True)
class ScorerAccuracy:
    """One scorer's accuracy over all questions (micro-average) and per domain."""

    combined: Accuracy
    domains: dict[str, Accuracy]

    def to_json(self) -> dict[str, Any]:
        return {"combined": self.combined.percent, "domains": {d: a.percent for d, a in self.domains.items()}}


def scorer_accuracy(domains: Sequence[str], correct: Sequence[bool | None]) -> ScorerAccuracy:
    """Accuracy of one scorer; a None verdict (a failed judgment) is left out of every mean."""
    combined, per_domain = Accuracy(), dict[str, Accuracy]()
    for domain, verdict in zip(domains, correct, strict=True):
        if verdict is None:
            continue
        combined = combined.add(verdict)
        per_domain[domain] = per_domain.get(domain, Accuracy()).add(verdict)
    return ScorerAccuracy(combined, dict(sorted(per_domain.items())))


def agreement_counts(verdicts: Sequence[QaVerdict]) -> dict[str, int]:
    """How many rows fall in each of the four buckets, every bucket present (zero included)."""
    counts = Counter(verdict.agreement for verdict in verdicts)
    return {bucket.value: counts[bucket] for bucket in Agreement}


@dataclass(frozen=True)
class JudgeSummary:
    """The judge's accuracy with what a reader needs to trust it: who judged, how, what failed."""

    accuracy: ScorerAccuracy
    model: str
    temperature: float | None
    temperature_refused: str | None
    failed: int
    temperature_refused_calls: int = 0  # the first refusal and the calls in flight then (each sent again)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.accuracy.to_json(),
            "model": self.model,
            "temperature": self.temperature,
            "temperature_refused": self.temperature_refused,
            "temperature_refused_calls": self.temperature_refused_calls,
            "failed": self.failed,
        }


@dataclass(frozen=True)
class QaSummary:
    """Everything `qa-score --summary-out` writes; row numbers are 1-based data rows."""

    n: int
    blank_responses: int
    empty_golden_rows: tuple[int, ...]
    exact: ScorerAccuracy
    overlap: ScorerAccuracy
    agreement: dict[str, int]
    normalize: Normalization | None
    nfc_would_change_rows: tuple[int, ...] | None
    judge: JudgeSummary | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "n": self.n,
            "blank_responses": self.blank_responses,
            "empty_golden": len(self.empty_golden_rows),
            "exact": self.exact.to_json(),
            "overlap": self.overlap.to_json(),
        }
        if self.judge is not None:
            data["judge"] = self.judge.to_json()
        data["agreement"] = self.agreement
        data["normalize"] = self.normalize.value.lower() if self.normalize else None
        if self.nfc_would_change_rows is not None:
            data["nfc_would_change"] = len(self.nfc_would_change_rows)
        return data


def summarize(
    rows: Sequence[QaRow],
    verdicts: Sequence[QaVerdict],
    normalize: Normalization | None = None,
    judge: JudgeSummary | None = None,
) -> QaSummary:
    """The summary of one scored file (or one language), from its rows and their verdicts.

    `verdicts` are `score_row(row, normalize)` of `rows`, in order. Without normalisation,
    the rows whose verdict NFC would flip are found, so that callers can warn about them.
    """
    domains = [row.domain for row in rows]
    nfc_rows = None if normalize else tuple(n for n, row in enumerate(rows, start=1) if nfc_would_change(row))
    return QaSummary(
        n=len(rows),
        blank_responses=sum(verdict.blank_response for verdict in verdicts),
        empty_golden_rows=tuple(number for number, v in enumerate(verdicts, start=1) if v.empty_golden),
        exact=scorer_accuracy(domains, [verdict.exact_correct for verdict in verdicts]),
        overlap=scorer_accuracy(domains, [verdict.overlap_correct for verdict in verdicts]),
        agreement=agreement_counts(verdicts),
        normalize=normalize,
        nfc_would_change_rows=nfc_rows,
        judge=judge,
    )


def judge_summary(
    rows: Sequence[QaRow],
    judgments: Sequence[QaJudgment],
    model: str,
    temperature: float | None,
    temperature_refused: str | None,
    temperature_refused_calls: int = 0,
) -> JudgeSummary:
    """The judge's accuracy over `rows`; failed judgments are left out and counted."""
    accuracy = scorer_accuracy([row.domain for row in rows], [judgment.correct for judgment in judgments])
    failed = sum(judgment.failed for judgment in judgments)
    return JudgeSummary(accuracy, model, temperature, temperature_refused, failed, temperature_refused_calls)
