"""Judging a run: plan the judge calls still owed, send them concurrently, append each verdict.

Resuming is the same operation as starting: judgments already on disk for the same
judged text and judge model are not owed, so a re-run sends only what is missing.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from eval_backend.benchmarks import Benchmark
from eval_backend.judge_client import JudgeClient
from eval_backend.jsonl import JsonlAppender
from eval_backend.records import Item, ItemKey, Judgment, ResponseRecord, sha256_text, to_json_dict
from eval_backend.scoring import current_judgments, judged_response_sha

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class JudgeTask:
    """One judge call owed: an item's criterion against the judged text of its response."""

    item: Item
    criterion_index: int
    judged_text: str
    response_sha256: str


@dataclass
class JudgingProgress:
    """Running totals of a judging pass, for progress bars and the queue's progress column."""

    total: int
    done: int = 0
    failed: int = 0
    tokens: int = 0
    throttled: int = 0
    transport_retries: int = 0

    def record(self, judgment: Judgment) -> None:
        self.done += 1
        self.failed += judgment.failed
        self.tokens += judgment.usage.total_tokens


ProgressCallback = Callable[[JudgingProgress], None]


def plan_judge_tasks(
    benchmark: Benchmark,
    items: Sequence[Item],
    responses: Mapping[ItemKey, ResponseRecord],
    existing: Iterable[Judgment],
    judge_model: str,
) -> list[JudgeTask]:
    """The judge calls owed: every criterion of every answered item not already judged for good."""
    done = {key for key, judgment in current_judgments(existing, judge_model).items() if judgment.final}
    tasks = []
    for item in items:
        response = responses.get(item.key)
        sha = judged_response_sha(benchmark, response) if response else None
        if sha is None:
            continue
        text = benchmark.judged_text(response.response)  # type: ignore[union-attr, arg-type]
        for criterion in range(len(item.checklist)):
            if (item.config, item.index, criterion, sha) not in done:
                tasks.append(JudgeTask(item, criterion, text, sha))
    return tasks


async def run_judge_tasks(
    benchmark: Benchmark,
    tasks: Sequence[JudgeTask],
    client: JudgeClient,
    appender: JsonlAppender,
    on_progress: ProgressCallback | None = None,
) -> JudgingProgress:
    """Send every task through `client`, appending each judgment the moment it is known.

    As many workers as the client's concurrency bound pull tasks in order; prompts are
    built lazily, one per call in flight, since each carries a long query.
    """
    progress = JudgingProgress(total=len(tasks))
    pending: Iterator[JudgeTask] = iter(tasks)

    async def worker() -> None:
        for task in pending:
            judgment = await _judge_one(benchmark, task, client)
            appender.append(to_json_dict(judgment))
            progress.record(judgment)
            if on_progress:
                on_progress(progress)

    workers = min(client.limiter.max_limit, len(tasks))
    try:
        async with asyncio.TaskGroup() as group:  # one worker's fatal error stops the others
            for _ in range(workers):
                group.create_task(worker())
    except ExceptionGroup as errors:
        raise errors.exceptions[0] from None
    progress.throttled = client.limiter.throttles
    progress.transport_retries = client.transport_retries
    return progress


async def _judge_one(benchmark: Benchmark, task: JudgeTask, client: JudgeClient) -> Judgment:
    item = task.item
    messages = benchmark.judge_messages(item, task.criterion_index, task.judged_text)
    outcome = await client.judge(messages)
    verdict = outcome.verdict
    return Judgment(
        config=item.config,
        index=item.index,
        id=item.id,
        variant=item.variant,
        domain=item.domain,
        subdomain=item.subdomain,
        criterion_index=task.criterion_index,
        criterion=str(item.checklist[task.criterion_index].get("name", "")),
        score=verdict.score if verdict else None,
        reason=verdict.reason if verdict else None,
        judge_model=client.model,
        attempts=outcome.attempts,
        usage=outcome.usage,
        response_sha256=task.response_sha256,
        prompt_sha256=sha256_text(messages[-1]["content"]),
        error=outcome.error,
        error_kind=outcome.error_kind,
        raw_text=None if verdict else outcome.raw_text,
    )

