"""The queue tables, read from a real SQLite queue."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from eval_backend.benchmarks.chat_mode import ChatMode
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.submissions import NewRequest, Phase, SqliteQueueStore
from leaderboard.queue_view import job_cell, progress_bar, queue_tables


def _request(model: str) -> NewRequest:
    return NewRequest(model_id=model, revision="abc123", requested_revision="main", precision="bfloat16",
                      reasoning=False, submitter="tester")


def test_each_status_has_its_table_with_progress_and_reasons(tmp_path: Path) -> None:
    store = SqliteQueueStore(tmp_path / "queue.sqlite")
    for model in ("org/running", "org/failing", "org/waiting", "org/<script>x</script>"):
        store.add(_request(model))
    running = store.claim("w1")
    store.update_progress(running.id, "w1", Phase.JUDGING, 30, 120)
    failing = store.claim("w2")
    store.fail(failing.id, "w2", "judge endpoint refused the call: 401")
    tables = queue_tables(store.list_requests())
    assert tables.running[["model", "phase"]].values.tolist() == [["org/running", "judging"]]
    assert tables.running["progress"].item() == progress_bar(30, 120)
    assert tables.failed[["model", "reason"]].values.tolist() == [["org/failing", "judge endpoint refused the call: 401"]]
    assert list(tables.pending["model"]) == ["org/waiting", "org/<script>x</script>"]
    assert tables.finished.empty


def test_progress_bar() -> None:
    assert progress_bar(0, 0) == "starting…"
    assert progress_bar(5, 10) == "█████░░░░░ 50% (5/10)"
    assert progress_bar(12, 10).startswith("█" * 10 + " 100%")


def test_a_commit_revision_is_short_and_what_a_state_adds_comes_first(tmp_path: Path) -> None:
    store = SqliteQueueStore(tmp_path / "queue.sqlite")
    sha = "0123456789abcdef0123456789abcdef01234567"
    store.add(NewRequest(model_id="org/failing", revision=sha, requested_revision="main", precision="bfloat16",
                         reasoning=False, submitter="tester"))
    failing = store.claim("w1")
    store.fail(failing.id, "w1", "out of memory")
    failed = queue_tables(store.list_requests()).failed
    assert list(failed.columns[:7]) == ["id", "model", "revision", "benchmark", "status", "finished", "reason"]
    assert failed["revision"].item() == "0123456"


def test_each_row_says_its_benchmark_and_how_its_prompts_are_sent(tmp_path: Path) -> None:
    store = SqliteQueueStore(tmp_path / "queue.sqlite")
    for benchmark, mode in (("indic_writing_bench", ChatMode.CHAT), ("indic_qa", ChatMode.CHAT),
                            ("saraiki", ChatMode.RAW)):
        store.add(dataclasses.replace(_request("org/base-model"), benchmark=benchmark, chat_mode=mode))
    pending = queue_tables(store.list_requests()).pending
    assert pending[["benchmark", "mode"]].values.tolist() == [
        [BENCHMARKS["indic_writing_bench"].title, "chat"], ["Indic QA", "chat"], ["Saraiki", "raw"]]
    assert list(pending.columns) == ["id", "model", "revision", "benchmark", "mode", "precision", "submitter",
                                     "submitted"]


def test_a_request_run_as_a_job_shows_its_flavor_stage_time_price_and_link(tmp_path: Path) -> None:
    store = SqliteQueueStore(tmp_path / "queue.sqlite")
    request = store.add(NewRequest("org/model", "a" * 40, "main", "bfloat16", False, "alice"))
    store.claim("dispatcher")
    store.set_job(request.id, "dispatcher", "68a0c1d2e3f4a5b6c7d8e9f0", "https://huggingface.co/jobs/org/68a0c1d2e3f4a5b6c7d8e9f0",
                  "a100-large")
    store.update_job(request.id, "RUNNING", 3720.0, 2.5833)
    running = queue_tables(store.list_requests()).running
    assert running["job"].tolist() == ["a100-large RUNNING, 1h 02m, $2.58: https://huggingface.co/jobs/org/68a0c1d2e3f4a5b6c7d8e9f0"]
    other = store.add(NewRequest("org/other", "b" * 40, "main", "bfloat16", False, "alice"))
    assert job_cell(store.get(other.id)) == ""  # a request never run as a Job
