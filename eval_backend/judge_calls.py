"""A judge call of any benchmark, and the verdict file a run folder keeps them in.

A judge call is an item, the part of it judged (a WritingBench rubric criterion, a QA or
Saraiki judge scorer), the judged text's hash and the prompt. Each benchmark kind keeps its
verdicts in its own file (judgments.jsonl, scores.jsonl) with its own line shape, so it
offers the engine a `VerdictBook`: what is owed, how an answer is parsed and how an outcome
is written. The live worker pool (`eval_backend.judging.judge_live`) and the Batch API runner
(`eval_backend.batch`) work on a book alone, so every judge scorer is judged by one code path
(and a consistency check is a book over its own file).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ContextManager, Iterable, Iterator, Protocol, TypeVar

from eval_backend.jsonl import JsonlAppender
from eval_backend.judge_client import JudgeOutcome

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
    def call_id(self) -> str:
        return call_id_of(self.config, self.index, self.part, self.response_sha256)


class VerdictBook(Protocol):
    """A run folder's verdicts of one benchmark kind, as the batch runner reads and writes them."""

    def owed(self, judge_model: str, retry_failed: bool) -> Iterator[list[JudgeCall]]:
        """Every judge call `judge_model` still owes, against the verdict file as it is now, one list per
        part of the run planned at once (a config's, where the items are read config by config)."""

    def parser(self, part: str) -> Callable[[str | None], Any]:
        """The strict parser of a part's answer (raises VerdictError on an invalid one)."""

    def temperature(self, part: str) -> float | None:
        """The temperature a part's calls carry (None: sent without one)."""

    def verdict_line(
        self, call_id: str, judge_model: str, outcome: JudgeOutcome[Any], prompt_sha256: str, temperature: float | None
    ) -> Any | None:
        """The record to append for a call's final outcome, judged at `temperature` (None: sent without one);
        None when its item is no longer in the run."""

    def written_since(self, judge_model: str, since: str) -> set[str]:
        """The call ids `judge_model` has verdicts for, written at or after the time `since`."""

    def appender(self) -> ContextManager[JsonlAppender]:
        """The verdict file, opened for appending."""


def by_config(items: Iterable[T]) -> dict[str, list[T]]:
    """The items of each config, configs in the order first seen: a book's `configs` and its `load_config`."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(item.config, []).append(item)
    return groups

