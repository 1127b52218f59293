"""Typed records every benchmark's run shares: responses, token usage, the item key, and their JSONL reading.

Each record is a frozen dataclass that round-trips through one JSONL line, so the run
folder is the durable form of exactly these objects. A benchmark's own items and verdicts
are its package's (WritingBench's `Item`, `ItemMeta`, `Judgment`: `eval_backend.benchmarks.writing_bench.records`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import types
import typing
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping

ItemKey = tuple[str, int]
"""(config, index): how a response is joined to its benchmark item."""


def utc_now() -> str:
    """The current time as an ISO-8601 UTC string, the one timestamp format on disk."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def sha256_text(text: str) -> str:
    """Hex SHA-256 of UTF-8 text; identifies a judged response or a prompt.

    A lone surrogate (which a model can send) hashes as its surrogate-escaped bytes instead of failing.
    """
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


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
    A generation that could not run for this item has `response=None` and an `error`;
    `error_kind` says whose fault it was: the model's (`MODEL_ERROR`: its prompt does not
    fit the context; a line written before the field existed counts as this) or the
    system's (`SYSTEM_ERROR`: backend crash, out of memory, endpoint down), which is
    generated again rather than scored. `query_sha256` ties the answer to the query it
    answered, so an item whose query changed in the dataset is generated again.
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
    error_kind: str | None = None
    query_sha256: str | None = None

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)

    @property
    def system_error(self) -> bool:
        """True when the system, not the model, kept this item from an answer: it is owed again."""
        return self.response is None and self.error_kind == SYSTEM_ERROR


MODEL_ERROR = "model"
"""The model could not answer this item (its prompt does not fit the context): scored at the floor."""
SYSTEM_ERROR = "system"
"""The system failed on this item (backend crash, out of memory, endpoint down): pending, not scored."""

INVALID_ANSWER = "invalid_answer"
"""The judge answered, but not a valid verdict, on every attempt: final, as the seed says."""
TRANSPORT_ERROR = "transport"
"""The endpoint could not be reached within the retry bound: sent again on resume."""
REJECTED = "rejected"
"""The endpoint refused this one request (HTTP 400, e.g. a content filter): final."""


def to_json_dict(record: Any) -> dict[str, Any]:
    """A record as a plain JSON-ready dict (nested dataclasses become dicts).

    Records are frozen and their containers never mutated, so unlike `dataclasses.asdict`
    this does not deep-copy: it runs once per judgment on the hot path.
    """
    return {
        name: to_json_dict(value) if dataclasses.is_dataclass(value) else value
        for name, value in vars(record).items()
    }


def response_from_dict(data: Mapping[str, Any]) -> ResponseRecord:
    """Rebuild a ResponseRecord from its JSONL form; TypeError names a field of the wrong type."""
    return build_record(ResponseRecord, data)


def build_record(cls: Any, data: Mapping[str, Any]) -> Any:
    """A record of dataclass `cls` from the keys of `data` that are its fields, each checked against its annotation.

    A line edited by hand or written by another tool (`"score": "seven"`) is refused here,
    naming the field, rather than failing later in the arithmetic.
    """
    hints = _field_types(cls)
    values = {key: value for key, value in data.items() if key in hints}
    for name, value in values.items():
        if not _conforms(value, hints[name]):
            raise TypeError(f"field {name!r} must be {_type_name(hints[name])}, got {shown_value(value)}")
    return cls(**values)


@functools.cache
def _field_types(cls: Any) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _conforms(value: Any, expected: Any) -> bool:
    origin = typing.get_origin(expected)
    if expected is Any or dataclasses.is_dataclass(expected):
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, arg) for arg in typing.get_args(expected))
    if expected is type(None):
        return value is None
    if expected in (int, float):  # a bool is not a number here
        return type(value) is int or (expected is float and type(value) is float)
    if origin in (tuple, list):
        return isinstance(value, (list, tuple)) and all(isinstance(entry, Mapping) for entry in value)
    return isinstance(value, origin or expected)


def _type_name(expected: Any) -> str:
    return str(expected).replace("typing.", "") if typing.get_origin(expected) else expected.__name__


def shown_value(value: Any) -> str:
    """A value read from a file or an answer, as an error message shows it: its type and a short form.

    Never the whole of it: a list can be nested thousands deep, a number thousands of digits long.
    """
    if isinstance(value, (dict, list, tuple)):
        return type(value).__name__
    if type(value) is int and abs(value) >= 10**12:
        return "int (a huge one)"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"
