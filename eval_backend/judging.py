"""Judging a run live: send the judge calls a verdict book owes concurrently, appending each verdict.

Resuming is the same operation as starting: verdicts already on disk for the same judged
text, item revision and judge model are not owed (`eval_backend.judge_calls.VerdictBook.owed`),
so a re-run sends only what is missing. A verdict on an older revision of the item (its query,
rubric or golden answer changed in the dataset) is owed again; so is one that failed for good,
when the caller asks to retry those.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, ContextManager, Iterable, Iterator

from eval_backend.concurrency import run_workers
from eval_backend.jsonl import JsonlAppender
from eval_backend.judge_calls import JudgeCall, VerdictBook
from eval_backend.judge_client import JudgeClients
from eval_backend.judge_transport import run_event_loop
from eval_backend.memory import trim_heap
from eval_backend.records import sha256_text, to_json_dict
from eval_backend.settings import JudgeSettings
from eval_backend.verdict_lines import VerdictLine

logger = logging.getLogger(__name__)


@dataclass
class JudgingProgress:
    """Running totals of a judging pass, for progress bars and the queue's progress column."""

    total: int
    done: int = 0
    failed: int = 0
    tokens: int = 0
    throttled: int = 0
    transport_retries: int = 0

    def record(self, verdict: VerdictLine) -> None:
        self.done += 1
        self.failed += verdict.failed
        self.tokens += verdict.usage.total_tokens


ProgressCallback = Callable[[JudgingProgress], None]

# Progress is reported at most this often: a bar redrawn (or a queue row written) on every one of
# hundreds of judgments a second costs more CPU than the judge calls themselves.
PROGRESS_INTERVAL_S = 0.1


def judge_live(
    book: VerdictBook,
    groups: Iterable[list[JudgeCall]],
    settings: JudgeSettings,
    appender: ContextManager[JsonlAppender],
    on_progress: ProgressCallback | None = None,
) -> JudgingProgress:
    """Send every group of calls (a config's, as `book.owed` plans them) live, appending each verdict.

    The one live path of every judge scorer: one set of clients for the phase, so the concurrency
    bound learns across groups; the total grows group by group, as each is planned (counting first
    would read every config of the dataset once more).
    """
    return run_event_loop(_judge_groups(book, groups, settings, appender, on_progress))


async def _judge_groups(
    book: VerdictBook,
    groups: Iterable[list[JudgeCall]],
    settings: JudgeSettings,
    appender: ContextManager[JsonlAppender],
    on_progress: ProgressCallback | None,
) -> JudgingProgress:
    clients = JudgeClients(settings)
    progress = JudgingProgress(total=0)
    try:
        with appender as out:
            for calls in groups:
                progress.total += len(calls)
                if calls:
                    await run_judge_tasks(book, calls, clients, out, on_progress, progress)
                del calls
                trim_heap()  # the group's items (WritingBench's queries) go back to the OS before the next
    finally:
        await clients.close()
    return progress


async def run_judge_tasks(
    book: VerdictBook,
    calls: list[JudgeCall],
    clients: JudgeClients,
    appender: JsonlAppender,
    on_progress: ProgressCallback | None = None,
    progress: JudgingProgress | None = None,
) -> JudgingProgress:
    """Send every call through `clients`, appending each verdict, as `book` writes it, the moment it is known.

    As many workers as the concurrency bound pull calls in order; prompts are built lazily,
    one per call in flight, since each may carry a long query. `progress`, when given, is
    added to (a phase judged config by config keeps one running total).

    The calls are taken over: `calls` is emptied at once and each call let go when it is
    done, so an item, and its 20 KB query, is freed with its last criterion instead of at
    the end of the config (the heap it leaves serves the calls still to come).
    """
    count = len(calls)
    progress = progress or JudgingProgress(total=count)
    pending = _taken_in_order(calls)
    report = at_most_every(PROGRESS_INTERVAL_S, on_progress) if on_progress else None

    async def judge(call: JudgeCall) -> None:
        line = await _judge_one(book, call, clients)
        if line is None:
            return
        appender.append(to_json_dict(line))
        progress.record(line)
        if report:
            report(progress)

    await run_workers(pending, judge, min(clients.settings.concurrency, count))  # a fatal error stops them all
    progress.throttled = clients.throttles
    progress.transport_retries = clients.transport_retries
    if on_progress:
        on_progress(progress)  # the final totals, whatever the interval held back
    return progress


def _taken_in_order(calls: list[JudgeCall]) -> Iterator[JudgeCall]:
    """The calls in order, each held only by this iterator until taken; `calls` is emptied now."""
    queue = deque(calls)
    calls.clear()
    return (queue.popleft() for _ in range(len(queue)))


def at_most_every(interval_s: float, callback: ProgressCallback) -> ProgressCallback:
    """`callback`, skipping the calls that come within `interval_s` of the last one it made
    (a bar redrawn on each of hundreds of judgments a second costs more CPU than the calls)."""
    last = -interval_s

    def report(progress: JudgingProgress) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= interval_s:
            last = now
            callback(progress)

    return report


async def _judge_one(book: VerdictBook, call: JudgeCall, clients: JudgeClients) -> Any:
    judge = book.judge(call.part)
    client = clients.at(judge.temperature)
    messages = call.messages()
    outcome = await client.judge(messages, judge.parse)
    prompt_sha256 = outcome.prompt_sha256 or sha256_text(messages[-1]["content"])  # the client's, when it sent it
    return book.verdict_line(call.call_id, client.model, outcome, prompt_sha256, client.sent_temperature)
