"""Sending the judge calls owed: progress reporting."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from eval_backend import judging
from eval_backend.benchmarks import BENCHMARKS
from eval_backend.judge_client import JudgeClient
from eval_backend.judge_transport import run_event_loop
from eval_backend.jsonl import JsonlAppender
from eval_backend.records import Item, ResponseRecord
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import StandInChatServer

BENCHMARK = BENCHMARKS["indic_writing_bench"]


def test_progress_is_reported_at_most_once_an_interval_and_always_with_the_final_totals(
    items: list[Item], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An interval longer than the test: only the first judgment's report and the final one get through.
    monkeypatch.setattr(judging, "PROGRESS_INTERVAL_S", 3600.0)
    responses = {item.key: ResponseRecord(item.config, item.index, f"An answer to {item.id}.") for item in items[:3]}
    tasks = judging.plan_judge_tasks(BENCHMARK, items, responses, [], "stand-in-judge")
    reports: list[judging.JudgingProgress] = []

    async def judge_all(server: StandInChatServer) -> judging.JudgingProgress:
        client = JudgeClient(fast_judge_settings(server, concurrency=4))
        try:
            with JsonlAppender(tmp_path / "judgments.jsonl") as appender:
                return await judging.run_judge_tasks(
                    BENCHMARK, tasks, client, appender, lambda progress: reports.append(replace(progress))
                )
        finally:
            await client.close()

    with StandInChatServer() as server:
        progress = run_event_loop(judge_all(server))
    assert len(tasks) == 3 * BENCHMARK.criteria_per_item
    assert [report.done for report in reports] == [1, len(tasks)]
    assert reports[-1] == progress and progress.failed == 0
    assert len((tmp_path / "judgments.jsonl").read_text(encoding="utf-8").splitlines()) == len(tasks)
