"""Judging a run: plan the judge calls still owed, send them concurrently, append each verdict.

Resuming is the same operation as starting: judgments already on disk for the same
judged text, item revision and judge model are not owed, so a re-run sends only what is
missing. A judgment of an older revision of the item (its query or rubric changed in the
dataset) is owed again; so is one that failed for good, when the caller asks to retry those.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterable, Iterator, Mapping, Sequence

from eval_backend.benchmarks import Benchmark
from eval_backend.concurrency import run_workers
from eval_backend.item_status import answered, response_is_current
from eval_backend.jsonl import JsonlAppender
from eval_backend.judge_calls import JudgeCall, VerdictBook, call_id_of, parse_call_id
from eval_backend.judge_client import JudgeClients, JudgeOutcome
from eval_backend.judge_transport import run_event_loop
from eval_backend.memory import trim_heap
from eval_backend.records import (
    Item,
    ItemKey,
    ItemMeta,
    Judgment,
    ResponseRecord,
    judgment_from_dict,
    sha256_text,
    to_json_dict,
)
from eval_backend.run_folder import RunFolder, read_records
from eval_backend.scores import ScoreRecord
from eval_backend.settings import JudgeSettings
from eval_backend.verdict import Verdict, parse_verdict
from eval_backend.writing_bench_scoring import current_judgments, judged_response_sha

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class JudgeTask:
    """One judge call owed: an item's criterion against the judged text of its response."""

    item: Item
    criterion_index: int
    judged_text: str
    response_sha256: str
    item_sha256: str | None = None  # the item's hash, computed once for all its criteria (~0.3 ms each)


@dataclass
class JudgingProgress:
    """Running totals of a judging pass, for progress bars and the queue's progress column."""

    total: int
    done: int = 0
    failed: int = 0
    tokens: int = 0
    throttled: int = 0
    transport_retries: int = 0

    def record(self, verdict: Judgment | ScoreRecord) -> None:
        self.done += 1
        self.failed += verdict.failed
        self.tokens += verdict.usage.total_tokens


ProgressCallback = Callable[[JudgingProgress], None]

# Progress is reported at most this often: a bar redrawn (or a queue row written) on every one of
# hundreds of judgments a second costs more CPU than the judge calls themselves.
PROGRESS_INTERVAL_S = 0.1


def plan_judge_tasks(
    benchmark: Benchmark,
    items: Sequence[Item],
    responses: Mapping[ItemKey, ResponseRecord],
    existing: Iterable[Judgment],
    judge_model: str,
    retry_failed: bool = False,
) -> list[JudgeTask]:
    """The judge calls owed: every criterion of every answered item not already judged for good.

    With `retry_failed`, a judgment that failed for good (invalid answers, a rejected
    request) is owed again too; nothing else is.
    """
    latest = current_judgments(existing, judge_model)
    tasks = []
    for item in items:
        response = responses.get(item.key)
        if response is None or not answered(benchmark, response):
            continue  # nothing to judge: owed an answer first, or the floor
        if not response_is_current(response, item.query_sha256):
            continue  # an answer to an older query: owed a new one first
        text = benchmark.judged_text(str(response.response))
        sha = judged_response_sha(benchmark, response) or ""  # an answered response always has one
        item_sha = item.item_sha256  # hashes the long query: once per item, not per criterion
        for criterion in range(len(item.checklist)):
            judgment = latest.get((item.config, item.index, criterion, sha))
            if not _settled(benchmark, judgment, item, item_sha, criterion, text, retry_failed):
                tasks.append(JudgeTask(item, criterion, text, sha, item_sha))
    return tasks


def _settled(
    benchmark: Benchmark,
    judgment: Judgment | None,
    item: Item,
    item_sha: str,
    criterion: int,
    text: str,
    retry_failed: bool,
) -> bool:
    """Whether `judgment` stands: final, of this revision of the item, and not a failure to retry."""
    if judgment is None or not judgment.final or (retry_failed and judgment.failed):
        return False
    if judgment.item_sha256 is not None:
        return judgment.item_sha256 == item_sha
    # Written before items carried a hash: the prompt it was sent tells whether the item changed.
    return judgment.prompt_sha256 == sha256_text(benchmark.judge_messages(item, criterion, text)[-1]["content"])


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
    client = clients.at(book.temperature(call.part))
    messages = call.messages()
    outcome = await client.judge(messages, book.parser(call.part))
    prompt_sha256 = outcome.prompt_sha256 or sha256_text(messages[-1]["content"])  # the client's, when it sent it
    return book.verdict_line(call.call_id, client.model, outcome, prompt_sha256, client.sent_temperature)


def build_judgment(
    item: Item | ItemMeta,
    criterion_index: int,
    response_sha256: str,
    judge_model: str,
    outcome: JudgeOutcome[Verdict],
    prompt_sha256: str,
    item_sha256: str | None = None,
) -> Judgment:
    """The judgment line of one criterion's outcome, however it was judged (live or in a batch).

    `item_sha256`, when the caller has it, saves hashing the item's 20 KB query once more.
    """
    verdict = outcome.verdict
    return Judgment(
        config=item.config,
        index=item.index,
        id=item.id,
        variant=item.variant,
        domain=item.domain,
        subdomain=item.subdomain,
        criterion_index=criterion_index,
        criterion=str(item.checklist[criterion_index].get("name", "")),
        score=verdict.score if verdict else None,
        reason=verdict.reason if verdict else None,
        judge_model=judge_model,
        attempts=outcome.attempts,
        usage=outcome.usage,
        response_sha256=response_sha256,
        prompt_sha256=prompt_sha256,
        error=outcome.error,
        error_kind=outcome.error_kind,
        raw_text=None if verdict else outcome.raw_text,
        item_sha256=item_sha256 or item.item_sha256,
    )



class RubricVerdicts:
    """A rubric benchmark's judgments.jsonl as a `VerdictBook`: one call per criterion of each answer.

    `load_config` gives one config's items, so only one config's queries are held at a time. `path`
    is the verdict file (a consistency check's own, or by default the folder's judgments.jsonl).
    """

    def __init__(
        self, benchmark: Benchmark, folder: RunFolder, configs: Sequence[str], load_config: Callable[[str], Sequence[Item]],
        path: Path | None = None,
    ) -> None:
        self.benchmark, self.folder, self.configs, self.load_config = benchmark, folder, configs, load_config
        self.path = path or folder.judgments_path
        self.metas = {meta.key: meta for meta in folder.read_items()}

    def read(self) -> list[Judgment]:
        """Every line of the verdict file, in the order written."""
        return list(read_records(self.path, judgment_from_dict))

    def owed(self, judge_model: str, retry_failed: bool) -> Iterator[list[JudgeCall]]:
        responses, existing = self.folder.read_responses(), self.read()
        for config in self.configs:
            calls = self._calls(self.load_config(config), responses, existing, judge_model, retry_failed)
            logger.info("%d judge calls to make for %s in %s", len(calls), config, self.folder.path)
            yield calls  # the live pool empties the list as it takes the calls

    def _calls(
        self, items: Sequence[Item], responses: Mapping[ItemKey, ResponseRecord], existing: Sequence[Judgment],
        judge_model: str, retry_failed: bool,
    ) -> list[JudgeCall]:
        # A list built here, not a loop over the tasks in `owed`: nothing keeps the tasks (and their items)
        # while the calls are sent, so each item goes with its last call.
        return [judge_call(self.benchmark, task)
                for task in plan_judge_tasks(self.benchmark, items, responses, existing, judge_model, retry_failed)]

    def parser(self, part: str) -> Callable[[str | None], Verdict]:
        return parse_verdict

    def temperature(self, part: str) -> None:
        return None  # WritingBench's judge protocol sends none

    def verdict_line(
        self, call_id: str, judge_model: str, outcome: JudgeOutcome[Verdict], prompt_sha256: str, temperature: None
    ) -> Judgment | None:
        config, index, criterion, response_sha = parse_call_id(call_id)
        meta = self.metas.get((config, index))
        if meta is None:
            return None
        return build_judgment(meta, int(criterion), response_sha, judge_model, outcome, prompt_sha256)

    def written_since(self, judge_model: str, since: str) -> set[str]:
        return {
            call_id_of(j.config, j.index, j.criterion_index, j.response_sha256)
            for j in self.read()
            if j.judge_model == judge_model and j.created_at >= since
        }

    def appender(self) -> ContextManager[JsonlAppender]:
        return JsonlAppender(self.path)


def judge_call(benchmark: Benchmark, task: JudgeTask) -> JudgeCall:
    """The judge call of a rubric task, its prompt built when it is sent."""
    return JudgeCall(task.item.config, task.item.index, str(task.criterion_index), task.response_sha256,
                     partial(benchmark.judge_messages, task.item, task.criterion_index, task.judged_text))
