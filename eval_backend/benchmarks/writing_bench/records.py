"""WritingBench's records: its item (query and five-criterion rubric), as a run folder keeps it, and a judgment.

`Item` is what the model is asked and the judge reads; `ItemMeta` its line of items.jsonl (the
long query stays in the dataset); `Judgment` one rubric criterion's verdict, a line of
judgments.jsonl. The engine sees them only as a `SuiteItem` and a verdict line.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from eval_backend.records import (
    TRANSPORT_ERROR,
    ItemKey,
    Usage,
    build_record,
    sha256_text,
    shown_value,
    utc_now,
)


@dataclass(frozen=True)
class Item:
    """One benchmark item: the query sent to the model and the rubric it is judged by."""

    config: str
    index: int
    id: str
    domain: str
    subdomain: str
    language: str
    variant: str
    prompt: str
    query: str
    checklist: tuple[Mapping[str, Any], ...]

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)

    @property
    def query_sha256(self) -> str:
        """Identifies the query the model answers: a response to another query is stale."""
        return sha256_text(self.query)

    @property
    def item_sha256(self) -> str:
        """Identifies what the judge is shown of the item (query and rubric): a judgment of another is stale."""
        return sha256_text(json.dumps([self.query, [dict(entry) for entry in self.checklist]], ensure_ascii=False))

    def meta(self) -> ItemMeta:
        """What a run folder keeps of the item: everything but the long query."""
        return ItemMeta(
            config=self.config,
            index=self.index,
            id=self.id,
            language=self.language,
            variant=self.variant,
            domain=self.domain,
            subdomain=self.subdomain,
            prompt=self.prompt,
            checklist=self.checklist,
            query_sha256=self.query_sha256,
            item_sha256=self.item_sha256,
        )


@dataclass(frozen=True)
class ItemMeta:
    """An item as a run folder records it (items.jsonl): the query, tens of KB, stays in the dataset.

    The two hashes (None in folders written before they existed) tell which responses and
    judgments were made against this very item, and not an earlier revision of it.
    """

    config: str
    index: int
    id: str
    language: str
    variant: str
    domain: str
    subdomain: str
    prompt: str
    checklist: tuple[Mapping[str, Any], ...]
    query_sha256: str | None = None
    item_sha256: str | None = None

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)


@dataclass(frozen=True)
class Judgment:
    """The judge's verdict on one criterion of one item: one line of judgments.jsonl.

    A judgment that failed after all attempts keeps `score=None`, the `error` and the
    judge's last `raw_text`, so a failure is counted and shown rather than lost.
    """

    config: str
    index: int
    id: str
    variant: str
    domain: str
    subdomain: str
    criterion_index: int
    criterion: str
    score: int | None
    reason: str | None
    judge_model: str
    attempts: int
    usage: Usage
    response_sha256: str
    prompt_sha256: str
    error: str | None = None
    error_kind: str | None = None
    raw_text: str | None = None
    created_at: str = field(default_factory=utc_now)
    item_sha256: str | None = None
    """The judged item's `Item.item_sha256` (None in folders written before it existed)."""

    @property
    def final(self) -> bool:
        """False for a failure worth sending again on resume (the endpoint was unreachable)."""
        return self.error_kind != TRANSPORT_ERROR

    @property
    def failed(self) -> bool:
        return self.score is None

    @property
    def values(self) -> dict[str, Any] | None:
        """The verdict as every verdict record gives it (`ScoreRecord.values`); None when it failed."""
        return None if self.score is None else {"score": self.score}


def judgment_from_dict(data: Mapping[str, Any]) -> Judgment:
    """Rebuild a Judgment from its JSONL form; TypeError names a field of the wrong type."""
    usage = data.get("usage") or {}
    if not isinstance(usage, Mapping):
        raise TypeError(f"field 'usage' must be an object, got {shown_value(usage)}")
    return build_record(Judgment, {**data, "usage": build_record(Usage, usage)})


def item_meta_from_dict(data: Mapping[str, Any]) -> ItemMeta:
    """Rebuild an ItemMeta from its JSONL form; TypeError names a field of the wrong type."""
    meta = build_record(ItemMeta, data)
    return dataclasses.replace(meta, checklist=tuple(meta.checklist or ()))
