"""Sending the judge calls owed: progress reporting, and letting go of each item once it is judged."""

from __future__ import annotations

import weakref
from dataclasses import replace
from pathlib import Path

import pytest

from eval_backend import judging
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.writing_bench.items import CRITERIA_PER_ITEM
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.jsonl import JsonlAppender
from eval_backend.judge_calls import JudgeCall, VerdictBook, never_settled, plan_calls
from eval_backend.judge_client import JudgeClients
from eval_backend.judge_transport import run_event_loop
from eval_backend.records import ItemKey, ResponseRecord
from eval_backend.run_folder import RunFolder
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import StandInChatServer

BENCHMARK = BENCHMARKS["indic_writing_bench"]


def owed_calls(items: list[Item], responses: dict[ItemKey, ResponseRecord], folder: RunFolder) -> tuple[VerdictBook, list[JudgeCall]]:
    """The run folder's verdict book (its items recorded) and every call it owes for `responses`."""
    folder.create()
    folder.write_items(item.meta() for item in items)
    return VerdictBook(BENCHMARK, folder, [], lambda config: []), plan_calls(BENCHMARK, items, responses, never_settled)


def test_progress_is_reported_at_most_once_an_interval_and_always_with_the_final_totals(
    items: list[Item], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An interval longer than the test: only the first judgment's report and the final one get through.
    monkeypatch.setattr(judging, "PROGRESS_INTERVAL_S", 3600.0)
    responses = {item.key: ResponseRecord(item.config, item.index, f"An answer to {item.id}.") for item in items[:3]}
    book, tasks = owed_calls(items, responses, RunFolder(tmp_path))
    reports: list[judging.JudgingProgress] = []

    async def judge_all(server: StandInChatServer) -> judging.JudgingProgress:
        clients = JudgeClients(fast_judge_settings(server, concurrency=4))
        try:
            with JsonlAppender(tmp_path / "judgments.jsonl") as appender:
                return await judging.run_judge_tasks(
                    book, tasks, clients, appender, lambda progress: reports.append(replace(progress))
                )
        finally:
            await clients.close()

    owed = len(tasks)
    with StandInChatServer() as server:
        progress = run_event_loop(judge_all(server))
    assert owed == 3 * CRITERIA_PER_ITEM
    assert [report.done for report in reports] == [1, owed]
    assert reports[-1] == progress and progress.failed == 0
    assert len((tmp_path / "judgments.jsonl").read_text(encoding="utf-8").splitlines()) == owed


def test_each_item_is_let_go_once_its_criteria_are_judged(
    items: list[Item], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Judging takes the task list over: an item (its 20 KB query) is not held until the whole config is done.
    monkeypatch.setattr(judging, "PROGRESS_INTERVAL_S", 0.0)  # a report after every judgment
    copies = [replace(item) for item in items[:3]]  # held by nothing but the tasks
    alive = [weakref.ref(item) for item in copies]
    responses = {item.key: ResponseRecord(item.config, item.index, f"An answer to {item.id}.") for item in copies}
    book, tasks = owed_calls(copies, responses, RunFolder(tmp_path))
    del copies
    items_alive: dict[int, int] = {}  # judgments done -> items still in memory

    def on_progress(progress: judging.JudgingProgress) -> None:
        items_alive[progress.done] = sum(ref() is not None for ref in alive)

    async def judge_all(server: StandInChatServer) -> None:
        clients = JudgeClients(fast_judge_settings(server, concurrency=1))  # one call at a time, in order
        try:
            with JsonlAppender(tmp_path / "judgments.jsonl") as appender:
                await judging.run_judge_tasks(book, tasks, clients, appender, on_progress)
        finally:
            await clients.close()

    with StandInChatServer() as server:
        run_event_loop(judge_all(server))
    assert tasks == []  # taken over
    per_item = CRITERIA_PER_ITEM
    # The worker holds the task it just judged until it takes the next: an item goes when the next item starts.
    expected = {done: 3 - (done - 1) // per_item for done in range(1, 3 * per_item + 1)}
    expected[3 * per_item] = 0  # the final report comes once every worker is done
    assert items_alive == expected
