"""How well a refusal classifier agrees with labelled replies: accuracy, precision, recall.

A partial refusal counts as a refusal, as in the benchmark's rates, so the figures are those
of the binary question the rates ask ("did it refuse?"). Pure: labels in, figures out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class ClassifierFigures:
    """Agreement over `n` replies, in percent; precision is None when nothing was called a refusal."""

    n: int
    accuracy: float
    precision: float | None
    recall: float | None


def classifier_figures(pairs: Iterable[tuple[bool, bool]]) -> ClassifierFigures:
    """Figures over (truly refused, classified as refused) pairs; an empty input is refused."""
    pairs = list(pairs)
    if not pairs:
        raise ValueError("no labelled replies to measure the classifier on")
    hits = sum(truth and guess for truth, guess in pairs)
    called = sum(guess for _, guess in pairs)
    refused = sum(truth for truth, _ in pairs)
    agreed = sum(truth == guess for truth, guess in pairs)
    return ClassifierFigures(
        n=len(pairs),
        accuracy=100 * agreed / len(pairs),
        precision=100 * hits / called if called else None,
        recall=100 * hits / refused if refused else None,
    )
