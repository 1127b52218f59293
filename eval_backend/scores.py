"""scores.jsonl: one line per judge verdict of a scorer-kind benchmark (QA, Saraiki, …).

The LLM calls are the costly, networked part of scoring, so each verdict is appended the
moment it is known and a re-run sends only the calls not made yet; rule scores are pure and
are recomputed at every scoring instead of stored.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from eval_backend.records import TRANSPORT_ERROR, ItemKey, Usage, utc_now


@dataclass(frozen=True)
class ScoreRecord:
    """One judge scorer's verdict on one response; `values` is None when the judgment failed.

    A failed judgment keeps its error, error kind and the judge's last answer, so it is
    counted and shown, never lost. `temperature` is what the judge was sent (None: not sent,
    because the judge model refuses it).
    """

    config: str
    index: int
    id: str
    scorer: str
    values: Mapping[str, Any] | None
    response_sha256: str
    judge_model: str
    attempts: int = 0
    usage: Usage = Usage()
    temperature: float | None = None
    error: str | None = None
    error_kind: str | None = None
    raw_text: str | None = None
    created_at: str = field(default_factory=utc_now)
    item_sha256: str | None = None
    """The judged item's `item_sha256` (None in folders written before it existed)."""

    @property
    def key(self) -> ItemKey:
        return (self.config, self.index)

    @property
    def failed(self) -> bool:
        return self.values is None

    @property
    def final(self) -> bool:
        """False for a failure worth sending again on resume (the endpoint was unreachable)."""
        return self.error_kind != TRANSPORT_ERROR


def score_from_dict(data: Mapping[str, Any]) -> ScoreRecord:
    """Rebuild a ScoreRecord from its JSONL form."""
    names = {f.name for f in dataclasses.fields(ScoreRecord)}
    values = {key: value for key, value in data.items() if key in names}
    values["usage"] = Usage(**(data.get("usage") or {}))
    return ScoreRecord(**values)


def current_scores(
    records: Iterable[ScoreRecord], judge_model: str, item_hashes: Mapping[ItemKey, str]
) -> dict[tuple[str, int, str, str], ScoreRecord]:
    """The latest record per (config, index, scorer, response hash) from this judge model, of the
    item as `item_hashes` has it now: a verdict on an earlier revision of the item is not current
    (one written before records carried the hash is)."""
    latest: dict[tuple[str, int, str, str], ScoreRecord] = {}
    for record in records:
        if record.judge_model == judge_model and record.item_sha256 in (None, item_hashes.get(record.key)):
            latest[(record.config, record.index, record.scorer, record.response_sha256)] = record
    return latest
