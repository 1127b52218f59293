"""scores.jsonl: one line per judge verdict of a benchmark that keeps its verdicts in it (QA, Saraiki, …).

The LLM calls are the costly, networked part of scoring, so each verdict is appended the
moment it is known and a re-run sends only the calls not made yet; rule scores are pure and
are recomputed at every scoring instead of stored.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from eval_backend.records import TRANSPORT_ERROR, ItemKey, Usage, to_json_dict, utc_now
from eval_backend.verdict_lines import VerdictLines

if TYPE_CHECKING:
    from eval_backend.judge_client import JudgeOutcome


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
    part: str | None = None
    """The part of the item judged, for a judge that fans out over parts; None: the scorer's one call."""

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


def score_record(
    item: Any, scorer: str, part: str, response_sha256: str, judge_model: str, outcome: JudgeOutcome[Any],
    prompt_sha256: str, temperature: float | None,
) -> ScoreRecord:
    """The scores.jsonl line of one judge call's outcome, however it was judged (live or in a batch)."""
    verdict = outcome.verdict
    return ScoreRecord(
        config=item.config,
        index=item.index,
        id=item.id,
        scorer=scorer,
        values=_values(verdict) if verdict is not None else None,
        response_sha256=response_sha256,
        judge_model=judge_model,
        attempts=outcome.attempts,
        usage=outcome.usage,
        temperature=temperature,
        error=outcome.error,
        error_kind=outcome.error_kind,
        raw_text=None if verdict is not None else outcome.raw_text,
        item_sha256=item.item_sha256,
        part=None if part == scorer else part,
    )


def _values(verdict: Any) -> dict[str, Any]:
    return to_json_dict(verdict) if dataclasses.is_dataclass(verdict) else dict(verdict)


SCORE_LINES = VerdictLines(
    file="scores.jsonl",
    read=score_from_dict,
    part=lambda record: record.part or record.scorer,
    write=score_record,
)
"""scores.jsonl: a `ScoreRecord` per judge call."""
