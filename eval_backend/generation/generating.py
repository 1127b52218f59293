"""Generating a run: plan the items still owed a response, run the backend, append each answer.

Resuming is the same operation as starting: an item with a line in responses.jsonl is
done (an item recorded with the model's error too: its error is final for this model), so a
re-run generates only what is missing and never an item twice. An item whose query changed
in the dataset since its answer, or that the system failed on, is owed again.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from eval_backend.generation.base import Completion, Generator, PromptOf, unclosed_thinking
from eval_backend.jsonl import JsonlAppender
from eval_backend.records import MODEL_ERROR, ItemKey, ResponseRecord, to_json_dict

if TYPE_CHECKING:
    from eval_backend.benchmarks.plugin import SuiteItem

logger = logging.getLogger(__name__)


@dataclass
class GenerationProgress:
    """Running totals of a generation pass, for progress bars and the queue's progress column."""

    total: int
    done: int = 0
    errors: int = 0
    output_tokens: int = 0
    elapsed_s: float = 0.0
    """Seconds spent generating (model loading excluded), for throughput."""

    def record(self, response: ResponseRecord) -> None:
        self.done += 1
        self.errors += response.error is not None
        self.output_tokens += response.output_tokens or 0


GenerationCallback = Callable[[GenerationProgress], None]


def owed_items(items: Sequence[SuiteItem], responses: Mapping[ItemKey, ResponseRecord]) -> list[SuiteItem]:
    """The items owed an answer, in the run's order: no line yet, a system error, or an answer to an older query."""
    return [item for item in items if _owed(item, responses.get(item.key))]


def _owed(item: SuiteItem, response: ResponseRecord | None) -> bool:
    if response is None or response.system_error:
        return True
    return response.query_sha256 is not None and response.query_sha256 != item.query_sha256


def response_record(item: SuiteItem, completion: Completion, params: Mapping[str, Any]) -> ResponseRecord:
    """The responses.jsonl line for one completion; `params` are the run's generation parameters."""
    return ResponseRecord(
        config=item.config,
        index=item.index,
        id=item.id,
        response=completion.text,
        finish_reason=completion.finish_reason,
        output_tokens=completion.output_tokens,
        unclosed_thinking=unclosed_thinking(completion.text, completion.prompt_opens_thinking),
        error=completion.error,
        # A backend reports per item only what the model caused (a prompt too long for it);
        # the system's failures stop the run, leaving the item owed.
        error_kind=MODEL_ERROR if completion.error else None,
        generation={**params, "max_tokens": completion.max_tokens or params.get("max_tokens")},
        query_sha256=item.query_sha256,
    )


def generate_items(
    items: Sequence[SuiteItem],
    generator: Generator,
    params: Mapping[str, Any],
    appender: JsonlAppender,
    prompt_of: PromptOf,
    on_progress: GenerationCallback | None = None,
) -> GenerationProgress:
    """Answer `items` (each asked `prompt_of(item)`) with `generator`, appending each response the moment it is known."""
    by_key = {item.key: item for item in items}
    progress = GenerationProgress(total=len(items))

    def record(completion: Completion) -> None:
        response = response_record(by_key[completion.key], completion, params)
        appender.append(to_json_dict(response))
        progress.record(response)
        if response.error:
            logger.warning("%s #%d: %s", response.config, response.index, response.error)
        if on_progress:
            on_progress(progress)

    started = time.monotonic()
    generator.generate(items, record, prompt_of)
    progress.elapsed_s = time.monotonic() - started
    return progress
