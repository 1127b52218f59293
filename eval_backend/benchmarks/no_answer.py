"""A benchmark's no-answer policy: what an item scores when the model gave no answer.

The model that cannot answer an item (its prompt does not fit its context, its answer is
empty) must never score higher for it, so every benchmark declares the verdicts such an
item gets, and the engine applies them in one place (`eval_backend.scorer_runs`), a judge's
verdict to every part it asks (WritingBench's floor on each criterion). The statement is what
the About page says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

ScorerValues = Mapping[str, Mapping[str, Any]]
"""Scorer name -> the values that scorer records for the item."""


def _nothing(item: Any) -> ScorerValues:
    return {}


@dataclass(frozen=True)
class NoAnswerPolicy:
    """What an unanswered item scores: each rule scorer's values and each judge scorer's verdict.

    `rules(item)` and `judges(item)` give them by scorer name; the item then counts in every
    figure those scorers feed, as the benchmark's `aggregate` reads them.
    """

    statement: str
    rules: Callable[[Any], ScorerValues] = _nothing
    judges: Callable[[Any], ScorerValues] = _nothing
