"""The QA benchmark's items: one question of one language config, from the dataset's row.

The dataset has one config per language with columns `question`, `answer` and `Domain`
(CSV or parquet) and no index column: an item's index is its row's place in its config.
The golden answer is kept exactly as read (never stripped); an empty cell is an empty
golden answer, which the seed scores correct and the summary names.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Mapping

from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.qa.records import QaRow
from eval_backend.records import ItemKey, sha256_text

ROW_FIELDS = ("question", "answer", "Domain")


@dataclass(frozen=True)
class QaItem:
    """One question; `config` is its language. The item is short, so items.jsonl keeps all of it."""

    config: str
    index: int
    id: str
    question: str
    answer: str
    domain: str

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)

    @property
    def query_sha256(self) -> str:
        """Identifies the question the model answers: an answer to another question is stale."""
        return sha256_text(self.question)

    @property
    def item_sha256(self) -> str:
        """Identifies all the scorers read (question, golden answer, domain): a corrected golden
        answer is scored and judged again, without asking the model again."""
        return sha256_text(json.dumps([self.question, self.answer, self.domain], ensure_ascii=False))

    def meta(self) -> QaItem:
        return self

    def row(self, response: str) -> QaRow:
        """The seed's row for this item answered by `response`."""
        return QaRow(question=self.question, answer=self.answer, domain=self.domain, response=response)


def record_to_item(config: str, row: Mapping[str, Any]) -> QaItem:
    """Validate one dataset row (its `index` is its position); errors name config, row and field."""
    index = row["index"]
    where = f"config {config!r}, row {index}"
    question = row.get("question")
    if not isinstance(question, str) or not question.strip():
        raise ItemValidationError(f"{where}: field 'question' is missing or empty")
    return QaItem(
        config=config,
        index=index,
        id=f"{config}-{index}",
        question=question,
        answer=_text(row.get("answer"), where, "answer"),
        domain=_text(row.get("Domain"), where, "Domain") or "unspecified",
    )


def item_from_meta(data: Mapping[str, Any]) -> QaItem:
    """An item read back from its items.jsonl line."""
    return QaItem(**{name: data[name] for name in ("config", "index", "id", "question", "answer", "domain")})


def _text(value: Any, where: str, field: str) -> str:
    # CSV cells arrive as the text written (the loader reads CSV as text). A parquet null is an
    # empty cell, and a parquet number is its text (`1947`, `7.5`); a NaN or infinity is no answer.
    if value is None:
        return ""
    if isinstance(value, float) and not math.isfinite(value):
        raise ItemValidationError(f"{where}: field {field!r} is the number {value}, expected text")
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return str(value)
    raise ItemValidationError(f"{where}: field {field!r} is {type(value).__name__}, expected text")
