"""A judge call of any benchmark, and the one verdict book a run folder keeps them in.

A judge call is an item, the part of it judged (a judge scorer's one call, or one of the parts a
judge fans out over: a WritingBench rubric criterion), the judged text's hash and the prompt. One
planner (`plan_calls`) lists the calls owed for every benchmark's judge scorers, and one book
(`VerdictBook`) says what is owed, how an answer is parsed and how an outcome is written, in the
line shape the benchmark's `verdict_lines` declare (scores.jsonl, WritingBench's judgments.jsonl).
The live worker pool (`eval_backend.judging.judge_live`), the Batch API runner (`eval_backend.batch`)
and a consistency check (a book over its own file) work on a book alone.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterable, Iterator, Mapping, Protocol, Sequence, TypeVar

from eval_backend.benchmarks.plugin import JudgeScorer, judge_of_part
from eval_backend.item_status import answered, awaits_response
from eval_backend.jsonl import JsonlAppender
from eval_backend.judge_client import JudgeOutcome
from eval_backend.records import ItemKey, ResponseRecord, sha256_text
from eval_backend.run_folder import RunFolder, read_records, recorded_items
from eval_backend.verdict_lines import CallKey, VerdictLines, current_verdicts

logger = logging.getLogger(__name__)

_SEPARATOR = "|"

Messages = list[dict[str, str]]


class OfConfig(Protocol):
    """Anything of one dataset config: an item of any benchmark."""

    config: str


T = TypeVar("T", bound=OfConfig)


def call_id_of(config: str, index: int, part: str | int, response_sha256: str) -> str:
    """The id of one judge call (a batch line's `custom_id`): item, part judged, judged response."""
    return _SEPARATOR.join((config, str(index), str(part), response_sha256))


def parse_call_id(call_id: str) -> tuple[str, int, str, str]:
    """(config, index, part, response_sha256) of a call id; ValueError for any other text.

    Split from the right: the hash, the index and a part (a number or a scorer's name) never
    hold the separator, a config name might.
    """
    config, index, part, sha = call_id.rsplit(_SEPARATOR, 3)
    return config, int(index), part, sha


@dataclass(frozen=True)
class JudgeCall:
    """One judge call owed: its prompt is built on demand, since a WritingBench query is ~20 KB."""

    config: str
    index: int
    part: str
    response_sha256: str
    messages: Callable[[], Messages]

    @property
    def key(self) -> CallKey:
        return (self.config, self.index, self.part, self.response_sha256)

    @property
    def call_id(self) -> str:
        return call_id_of(*self.key)


class VerdictBook:
    """A run folder's verdicts, of every judge scorer of its benchmark: what is owed, how an answer is parsed
    and how an outcome is written, for the live pool, the Batch API runner and a consistency check alike.

    `configs` are planned one at a time, `load_config` giving a config's items as they are now (so
    only one config's WritingBench queries are held at once); `path` is the verdict file (a
    consistency check's own; by default the folder's, as the benchmark's `verdict_lines` name it).
    """

    def __init__(
        self, benchmark: Any, folder: RunFolder, configs: Sequence[str], load_config: Callable[[str], Sequence[Any]],
        path: Path | None = None,
    ) -> None:
        self.benchmark, self.folder, self.configs, self.load_config = benchmark, folder, configs, load_config
        self.lines: VerdictLines = benchmark.verdict_lines
        self.path = path or folder.path / self.lines.file
        # A batch answer may come back before its config is planned again: its item is the one recorded.
        self.by_key = {item.key: item for item in recorded_items(benchmark, folder)} if folder.items_path.exists() else {}

    def read(self) -> list[Any]:
        """Every line of the verdict file, in the order written."""
        return list(read_records(self.path, self.lines.read, "verdict"))

    def owed(self, judge_model: str, retry_failed: bool) -> Iterator[list[JudgeCall]]:
        """Every judge call `judge_model` still owes, against the verdict file as it is now, one list a config.

        With `retry_failed`, a judgment that failed for good is owed again too."""
        responses, existing = self.folder.read_responses(), self.read()
        for config in self.configs:
            items = self.load_config(config)
            current = current_verdicts(self.lines, existing, judge_model, {item.key: item.item_sha256 for item in items})
            calls = plan_calls(self.benchmark, items, responses, partial(self._settled, current, retry_failed))
            logger.info("%d judge calls to make for %s in %s", len(calls), config, self.folder.path)
            del items
            yield calls  # the live pool empties the list as it takes the calls: each item goes with its last call

    def _settled(self, current: Mapping[CallKey, Any], retry_failed: bool, call: JudgeCall) -> bool:
        """Whether the call's current verdict stands: final, and not a failure to retry."""
        record = current.get(call.key)
        if record is None or not record.final or (retry_failed and record.failed):
            return False
        # Written before lines carried the item's hash: the prompt it was sent tells whether the item changed.
        sent = self.lines.prompt_sha256(record) if record.item_sha256 is None else None
        return sent is None or sent == sha256_text(call.messages()[-1]["content"])

    def judge(self, part: str) -> JudgeScorer:
        """The judge scorer a call's part belongs to: its parser and temperature."""
        return judge_of_part(self.benchmark.judges, part)

    def verdict_line(
        self, call_id: str, judge_model: str, outcome: JudgeOutcome[Any], prompt_sha256: str, temperature: float | None
    ) -> Any | None:
        """The record to append for a call's final outcome, judged at `temperature` (None: sent without one);
        None when its item is no longer in the run."""
        config, index, part, response_sha = parse_call_id(call_id)
        item = self.by_key.get((config, index))
        if item is None:
            return None
        scorer = self.judge(part).name
        return self.lines.write(item, scorer, part, response_sha, judge_model, outcome, prompt_sha256, temperature)

    def written_since(self, judge_model: str, since: str) -> set[str]:
        """The call ids `judge_model` has verdicts for, written at or after the time `since`."""
        return {
            call_id_of(r.config, r.index, self.lines.part(r), r.response_sha256)
            for r in self.read()
            if r.judge_model == judge_model and r.created_at >= since
        }

    def appender(self) -> ContextManager[JsonlAppender]:
        """The verdict file, opened for appending."""
        return JsonlAppender(self.path)


def plan_calls(
    benchmark: Any, items: Sequence[Any], responses: Mapping[ItemKey, ResponseRecord], settled: Callable[[JudgeCall], bool]
) -> list[JudgeCall]:
    """Every judge call of every judge scorer on the current answer of each item that `settled` does not
    find standing. An item without a current answer is owed one first; one the model did not answer
    is scored by the no-answer policy, and a verdict a rule decides needs no call."""
    calls = []
    for item in items:
        response = responses.get(item.key)
        if awaits_response(response, item.query_sha256) or not answered(benchmark, response):
            continue
        text = benchmark.judged_text(str(response.response))  # type: ignore[union-attr]
        sha = sha256_text(text)
        for scorer in benchmark.judges:
            if scorer.ruled(item, text) is not None:
                continue
            for part, messages in scorer.calls(item, text):
                call = JudgeCall(item.config, item.index, part, sha, messages)
                if not settled(call):
                    calls.append(call)
    return calls


def never_settled(call: JudgeCall) -> bool:
    """Every call owed: `plan_calls` lists all the calls a run makes, as if none were made."""
    return False


def by_config(items: Iterable[T]) -> dict[str, list[T]]:
    """The items of each config, configs in the order first seen: a book's `configs` and its `load_config`."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(item.config, []).append(item)
    return groups

