"""The line shape of a run's verdict file, as the one verdict book reads and writes it for any benchmark.

Every verdict line names its item (config, index), the hash of the text judged, the judge model,
the item's hash and when it was written, and says whether it failed and whether that is final.
What else it holds, and the file's name, are its benchmark's: QA and Saraiki write a `ScoreRecord`
per call to scores.jsonl (`eval_backend.scores.SCORE_LINES`), WritingBench a `Judgment` per
criterion to judgments.jsonl (`eval_backend.benchmarks.writing_bench.judgment_lines.JUDGMENT_LINES`), the shape
its run folders, and the copies on the Hub, have always had.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Protocol

from eval_backend.records import ItemKey, Usage

if TYPE_CHECKING:
    from eval_backend.judge_client import JudgeOutcome

CallKey = tuple[str, int, str, str]
"""config, index, the part judged (a judge scorer's name, a rubric criterion's index), hash of the judged text."""


class VerdictLine(Protocol):
    """What the engine reads of any verdict line."""

    config: str
    index: int
    response_sha256: str
    judge_model: str
    item_sha256: str | None
    created_at: str
    usage: Usage
    attempts: int
    error: str | None

    @property
    def values(self) -> Mapping[str, Any] | None:
        """The verdict's values (a rubric criterion's {"score": n}); None when it failed."""

    @property
    def failed(self) -> bool: ...

    @property
    def final(self) -> bool: ...


@dataclass(frozen=True)
class VerdictLines:
    """One benchmark's verdict file: its name and how a line is read, keyed, valued and written."""

    file: str
    """The file's name in the run folder."""
    read: Callable[[Mapping[str, Any]], Any]
    """A line's JSON object -> its record."""
    part: Callable[[Any], str]
    """The part of its item a record judged, as its call id names it."""
    write: Callable[[Any, str, str, str, str, JudgeOutcome[Any], str, float | None], Any]
    """(item, scorer, part, judged text's hash, judge model, outcome, prompt's hash, temperature sent) -> the record."""
    prompt_sha256: Callable[[Any], str | None] = lambda record: None
    """The hash of the prompt a record's call sent, where the line keeps it: what tells, for a line written
    before lines carried the item's hash, whether the item changed since (None: such a line stands)."""


def current_verdicts(
    lines: VerdictLines, records: Iterable[VerdictLine], judge_model: str, item_hashes: Mapping[ItemKey, str | None]
) -> dict[CallKey, Any]:
    """The latest record per call (config, index, part, judged text's hash) from this judge model, of the
    item as `item_hashes` has it now: a verdict on an earlier revision of the item is not current (one
    written before lines carried the item's hash is)."""
    latest: dict[CallKey, Any] = {}
    for record in records:
        if record.judge_model == judge_model and record.item_sha256 in (None, item_hashes.get((record.config, record.index))):
            latest[(record.config, record.index, lines.part(record), record.response_sha256)] = record
    return latest
