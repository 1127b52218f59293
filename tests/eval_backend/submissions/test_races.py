"""Races on the queue, each run on both backends: fencing a stalled worker, cancelling a running request,
clock skew, parallel submissions against the per-user limit, and duplicates by case, benchmark and folder."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from eval_backend.pipeline import PhaseProgress
from eval_backend.run_folder import RunFolder
from eval_backend.settings import Settings
from eval_backend.submissions import QueueRequest, QueueStore, Status, SubmissionForm, SubmissionRejected
from eval_backend.submissions.model_facts import parameter_count
from eval_backend.submissions.service import submit
from eval_backend.submissions.worker import poll_once
from tests.eval_backend.submissions.conftest import make_settings
from tests.support.queue_backends import QueueBackend
from tests.eval_backend.submissions.test_worker import BACKEND, finished_summary, queued, wait_for
from tests.support.chat_server import StandInChatServer
from tests.support.hub_server import StandInHub, chat_model_files

BILLION = 1_000_000_000


def _lines(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("\n") if path.exists() else 0


def test_a_worker_that_stalled_past_its_claim_stops_before_its_next_write(store: QueueStore, tmp_path: Path) -> None:
    """Paused longer than QUEUE_STALE_AFTER_S, requeued and taken by another worker: no write after the pause."""
    request = queued(store)
    settings = make_settings(tmp_path, stale_after_s=0.3, heartbeat_interval_s=60)  # no heartbeat during the pause
    written: list[str] = []

    def runner(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Any) -> Any:
        folder.create()
        with folder.response_appender() as appender:
            appender.append({"config": "Hindi", "index": 0, "response": "before the pause"})
            written.append("before")
            time.sleep(0.5)  # the pause: the claim goes stale meanwhile
            [requeued] = store.requeue_stale(0.3, max_attempts=3)
            assert store.claim("worker-b").id == requeued.id == row.id  # type: ignore[union-attr]
            appender.append({"config": "Hindi", "index": 1, "response": "after the pause"})
            written.append("after")
        return finished_summary(7.0)

    ended = poll_once(store, settings, worker_id="worker-a", runner=runner)
    assert written == ["before"]
    assert ended is not None and (ended.status, ended.worker_id) == (Status.RUNNING, "worker-b")  # B's now
    folder = RunFolder(Path(ended.run_dir))  # type: ignore[arg-type]
    assert "before the pause" in folder.responses_path.read_text() and "after the pause" not in folder.responses_path.read_text()
    assert "no longer held by worker worker-a" in store.get(request.id).log_tail


def test_cancelling_a_running_request_stops_the_run_within_seconds_and_publishes_nothing(
    store: QueueStore, tmp_path: Path, tiny_model: Path, dataset_dir: Path, judge_env: StandInChatServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    judge_env.latency_s = 0.2  # slow enough to cancel between two judgments
    monkeypatch.setenv("JUDGE_CONCURRENCY", "1")
    queue = {"allow_local_models": True, "backend_params": BACKEND, "heartbeat_interval_s": 0.2}
    settings = make_settings(tmp_path / "data", dataset=dataset_dir, **queue)
    [request] = submit(SubmissionForm(str(tiny_model), precision="float32"), None, store=store, settings=settings)
    folder = RunFolder.for_model(settings.data.benchmark_runs_dir(request.benchmark), request.model_id, request.revision)
    worker = threading.Thread(target=poll_once, args=(store, settings), kwargs={"worker_id": "w"})
    worker.start()
    try:
        wait_for(lambda: _lines(folder.judgments_path) >= 2, "the first judgments", timeout_s=180)
        cancelled_at = time.monotonic()
        store.cancel(request.id)
    finally:
        worker.join(timeout=60)
    stopped_after = time.monotonic() - cancelled_at
    judgments = _lines(folder.judgments_path)
    assert not worker.is_alive() and stopped_after < 5, stopped_after
    assert judgments < 15  # far from all 5 criteria x 3 items: the judging stopped
    time.sleep(0.5)
    assert _lines(folder.judgments_path) == judgments  # and nothing is still writing
    assert not folder.summary_path.exists() and not folder.details_path.exists()  # nothing published
    assert store.get(request.id).status is Status.CANCELLED


def test_a_heartbeat_from_a_clock_ahead_of_the_database_is_stale(store: QueueStore, queue_backend: QueueBackend) -> None:
    request = queued(store)
    store.claim("w1")
    queue_backend.execute("UPDATE requests SET heartbeat_at = '2099-01-01T00:00:00.000+00:00'")
    [requeued] = store.requeue_stale(300, max_attempts=3)
    assert (requeued.id, requeued.status) == (request.id, Status.PENDING)


def test_parallel_submissions_from_one_user_respect_a_limit_of_one(
    store: QueueStore, hub: StandInHub, tmp_path: Path
) -> None:
    for n in range(5):
        hub.add_model(f"org/model-{n}", chat_model_files(), parameters=BILLION)
    settings = make_settings(tmp_path, hub, submissions_per_week=1)
    start, outcomes = threading.Barrier(5), []

    def one(n: int) -> None:
        start.wait()
        try:
            outcomes.append(submit(SubmissionForm(f"org/model-{n}"), "alice", store=store, settings=settings))
        except SubmissionRejected as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=one, args=(n,)) for n in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    accepted = [o for o in outcomes if isinstance(o, list)]
    refused = [o for o in outcomes if isinstance(o, str)]
    assert (len(accepted), len(refused)) == (1, 4)
    assert all("has made 1 submissions in the last 7 days and the limit is 1" in message for message in refused)
    assert len(store.list_requests()) == 1


def test_a_model_id_in_another_case_is_the_same_model(store: QueueStore, hub: StandInHub, tmp_path: Path) -> None:
    sha = hub.add_model("good-org/chat-7b", chat_model_files(), parameters=BILLION)
    settings = make_settings(tmp_path, hub)
    [first] = submit(SubmissionForm("good-org/chat-7b"), "alice", store=store, settings=settings)
    with pytest.raises(SubmissionRejected, match=f"is already in the queue as request #{first.id}"):
        submit(SubmissionForm("GOOD-ORG/Chat-7B"), "bob", store=store, settings=settings)
    [only] = store.list_requests()
    assert (only.model_id, only.revision) == ("good-org/chat-7b", sha)  # the Hub's own spelling


def test_a_mixed_case_submission_is_queued_under_the_hubs_spelling(
    store: QueueStore, hub: StandInHub, tmp_path: Path
) -> None:
    hub.add_model("Good-Org/Chat-7B", chat_model_files(), parameters=BILLION)
    [queued_row] = submit(SubmissionForm("good-org/chat-7b"), "alice", store=store, settings=make_settings(tmp_path, hub))
    assert queued_row.model_id == "Good-Org/Chat-7B"


def test_results_in_a_folder_named_after_the_branch_make_a_duplicate(
    store: QueueStore, hub: StandInHub, tmp_path: Path
) -> None:
    """The CLI (`run --model org/chat`) writes into `<org>__<name>/main` with no commit: same model, same branch."""
    hub.add_model("org/chat", chat_model_files(), parameters=BILLION)
    settings = make_settings(tmp_path, hub)
    folder = RunFolder.for_model(settings.data.benchmark_runs_dir("indic_writing_bench"), "org/chat", "main")
    folder.write_request({"model": "org/chat", "revision": None, "benchmark": "indic_writing_bench"})
    folder.write_summary({"overall": 6.5})
    with pytest.raises(SubmissionRejected, match=f"already evaluated on indic_writing_bench; its results are in {folder.path}"):
        submit(SubmissionForm("org/chat"), "alice", store=store, settings=settings)
    assert store.list_requests() == []


def test_a_submission_queues_only_the_benchmarks_still_to_run(
    store: QueueStore, hub: StandInHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from eval_backend.benchmarks import registry as benchmarks
    from eval_backend.submissions import validation

    second = "second_bench"
    monkeypatch.setitem(benchmarks.BENCHMARKS, second, benchmarks.BENCHMARKS["indic_writing_bench"])
    monkeypatch.setattr(validation, "BENCHMARKS", benchmarks.BENCHMARKS)
    hub.add_model("org/chat", chat_model_files(), parameters=BILLION)
    settings = make_settings(tmp_path, hub)
    [writing] = submit(SubmissionForm("org/chat"), "alice", store=store, settings=settings)
    both = SubmissionForm("org/chat", benchmarks=("indic_writing_bench", second))
    [added] = submit(both, "alice", store=store, settings=settings)
    assert (added.benchmark, added.submission_id) == (second, added.id)
    with pytest.raises(SubmissionRejected, match=f"request #{writing.id}.*; .*request #{added.id}"):
        submit(both, "bob", store=store, settings=settings)
    with pytest.raises(SubmissionRejected, match="unknown benchmark 'nope'"):
        submit(SubmissionForm("org/chat", benchmarks=("nope",)), "alice", store=store, settings=settings)


def test_a_negative_parameter_count_is_unknown_and_refused(store: QueueStore, hub: StandInHub, tmp_path: Path) -> None:
    hub.add_model("org/odd", chat_model_files(), parameters=-7_000_000_000)
    with pytest.raises(SubmissionRejected, match="no safetensors weights with a valid parameter count"):
        submit(SubmissionForm("org/odd"), "alice", store=store, settings=make_settings(tmp_path, hub))
    assert store.list_requests() == []


@pytest.mark.parametrize(("value", "expected"), [(7, 7), (0, None), (-5, None), (True, None), ("7", None), (None, None)])
def test_parameter_counts_are_positive_integers_or_unknown(value: object, expected: int | None) -> None:
    assert parameter_count(value) == expected


def test_progress_reports_stop_a_run_whose_request_was_cancelled(store: QueueStore, tmp_path: Path) -> None:
    """Between batches (no write needed): the progress callback itself stops a cancelled run."""
    request = queued(store)
    reports: list[int] = []

    def runner(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Any) -> Any:
        assert row.id == request.id
        for done in range(1000):
            on_progress(PhaseProgress("generating", done, 1000))
            reports.append(done)
            if done == 3:
                store.cancel(row.id)
            time.sleep(0.02)
        return finished_summary(7.0)

    ended = poll_once(store, make_settings(tmp_path, heartbeat_interval_s=0.05), worker_id="w", runner=runner)
    assert ended is not None and ended.status is Status.CANCELLED
    assert 3 < len(reports) < 100  # stopped within a few beats, not at the end
