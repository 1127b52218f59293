"""Typed records that flow through the engine: items, responses, judgments.

Each record is a frozen dataclass that round-trips through one JSONL line, so the run
folder is the durable form of exactly these objects.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping

ItemKey = tuple[str, int]
"""(config, index): how a response is joined to its benchmark item."""


def utc_now() -> str:
    """The current time as an ISO-8601 UTC string, the one timestamp format on disk."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def sha256_text(text: str) -> str:
    """Hex SHA-256 of UTF-8 text; identifies a judged response or a prompt."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
        )


@dataclass(frozen=True)
class ItemMeta:
    """An item as a run folder records it (items.jsonl): the query, tens of KB, stays in the dataset."""

    config: str
    index: int
    id: str
    language: str
    variant: str
    domain: str
    subdomain: str
    prompt: str
    checklist: tuple[Mapping[str, Any], ...]

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)


@dataclass(frozen=True)
class Usage:
    """Token usage reported by an endpoint, summed over every call made for one record."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    calls: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.total_tokens + other.total_tokens,
            self.calls + other.calls,
        )

    @classmethod
    def from_api(cls, usage: Mapping[str, Any] | None) -> Usage:
        """Read an OpenAI-style `usage` object (or None) as one call's usage."""
        if not isinstance(usage, Mapping):
            return cls(calls=1)
        prompt = _count(usage.get("prompt_tokens"))
        completion = _count(usage.get("completion_tokens"))
        total = _count(usage.get("total_tokens")) or prompt + completion
        return cls(prompt, completion, total, 1)


def _count(value: Any) -> int:
    return value if type(value) is int and value >= 0 else 0


@dataclass(frozen=True)
class ResponseRecord:
    """The model's answer to one item: one line of responses.jsonl.

    `response` is the raw output; the judged text is derived from it by the benchmark
    (for Indic WritingBench, the reasoning before the first `</think>\\n\\n` is dropped).
    A generation that could not run for this item has `response=None` and an `error`.
    """

    config: str
    index: int
    response: str | None
    id: str = ""
    finish_reason: str | None = None
    output_tokens: int | None = None
    unclosed_thinking: bool = False
    error: str | None = None
    generation: Mapping[str, Any] | None = None
    created_at: str = field(default_factory=utc_now)

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)


INVALID_ANSWER = "invalid_answer"
"""The judge answered, but not a valid verdict, on every attempt: final, as the seed says."""
TRANSPORT_ERROR = "transport"
"""The endpoint could not be reached within the retry bound: sent again on resume."""
REJECTED = "rejected"
"""The endpoint refused this one request (HTTP 400, e.g. a content filter): final."""


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

    @property
    def final(self) -> bool:
        """False for a failure worth sending again on resume (the endpoint was unreachable)."""
        return self.error_kind != TRANSPORT_ERROR

    @property
    def failed(self) -> bool:
        return self.score is None

    @property
    def resume_key(self) -> tuple[str, int, int, str, str]:
        """Two judgments with this key are the same work: the second need not be sent."""
        return (self.config, self.index, self.criterion_index, self.response_sha256, self.judge_model)


def to_json_dict(record: Any) -> dict[str, Any]:
    """A record as a plain JSON-ready dict (nested dataclasses become dicts).

    Records are frozen and their containers never mutated, so unlike `dataclasses.asdict`
    this does not deep-copy: it runs once per judgment on the hot path.
    """
    return {
        name: to_json_dict(value) if dataclasses.is_dataclass(value) else value
        for name, value in vars(record).items()
    }


def judgment_from_dict(data: Mapping[str, Any]) -> Judgment:
    """Rebuild a Judgment from its JSONL form."""
    fields = {f.name for f in dataclasses.fields(Judgment)}
    values = {k: v for k, v in data.items() if k in fields}
    values["usage"] = Usage(**(data.get("usage") or {}))
    return Judgment(**values)


def item_meta_from_dict(data: Mapping[str, Any]) -> ItemMeta:
    """Rebuild an ItemMeta from its JSONL form."""
    fields = {f.name for f in dataclasses.fields(ItemMeta)}
    values = {k: v for k, v in data.items() if k in fields}
    values["checklist"] = tuple(values.get("checklist") or ())
    return ItemMeta(**values)


def response_from_dict(data: Mapping[str, Any]) -> ResponseRecord:
    """Rebuild a ResponseRecord from its JSONL form."""
    fields = {f.name for f in dataclasses.fields(ResponseRecord)}
    return ResponseRecord(**{k: v for k, v in data.items() if k in fields})
