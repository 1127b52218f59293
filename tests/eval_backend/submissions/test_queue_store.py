"""The SQLite queue: claim order, worker-held writes, stale requeue, admin transitions, concurrent claims."""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from eval_backend.submissions import DuplicateRequest, NewRequest, Phase, QueueError, QueueStore, RequestNotFound, Status


def new(model: str = "org/model", revision: str = "a" * 40, submitter: str = "alice") -> NewRequest:
    return NewRequest(model, revision, "main", "bfloat16", False, submitter, {"backend": "transformers"})


def test_requests_are_claimed_oldest_first_and_once(store: QueueStore) -> None:
    first, second = store.add(new("org/one")), store.add(new("org/two"))
    claimed = store.claim("w1")
    assert claimed is not None and claimed.id == first.id
    assert (claimed.status, claimed.worker_id, claimed.attempts) == (Status.RUNNING, "w1", 1)
    assert claimed.backend_params == {"backend": "transformers"}
    assert store.claim("w2").id == second.id  # type: ignore[union-attr]
    assert store.claim("w3") is None


def test_progress_finish_and_fail_are_recorded_for_the_holding_worker_only(store: QueueStore) -> None:
    request = store.add(new())
    store.claim("w1")
    assert store.update_progress(request.id, "w1", Phase.JUDGING, 3, 10)
    assert not store.update_progress(request.id, "intruder", Phase.SCORING, 1, 1)
    assert not store.finish(request.id, "intruder")
    row = store.get(request.id)
    assert (row.status, row.phase, row.progress_done, row.progress_total) == (Status.RUNNING, Phase.JUDGING, 3, 10)
    assert store.fail(request.id, "w1", "ValueError: boom")
    row = store.get(request.id)
    assert (row.status, row.error) == (Status.FAILED, "ValueError: boom")
    assert row.finished_at is not None


def test_a_cancelled_request_is_not_finished_by_its_worker(store: QueueStore) -> None:
    request = store.add(new())
    store.claim("w1")
    store.cancel(request.id)
    assert not store.heartbeat(request.id, "w1")
    assert not store.finish(request.id, "w1")
    assert store.get(request.id).status is Status.CANCELLED


def test_log_tail_keeps_the_last_characters(store: QueueStore) -> None:
    request = store.add(new())
    store.append_log(request.id, "first line\n")
    store.append_log(request.id, "0123456789", keep_chars=15)
    assert store.get(request.id).log_tail == "line\n0123456789"


def test_stale_requests_go_back_to_pending_then_fail_after_max_attempts(store: QueueStore) -> None:
    request = store.add(new())
    store.claim("w1")
    assert store.requeue_stale(3600, max_attempts=2) == []  # a fresh heartbeat is left alone
    time.sleep(0.01)
    [requeued] = store.requeue_stale(0, max_attempts=2)
    assert (requeued.status, requeued.worker_id) == (Status.PENDING, None)
    assert "worker w1 stopped responding" in requeued.error and "requeued" in requeued.error
    assert store.claim("w2").attempts == 2  # type: ignore[union-attr]
    time.sleep(0.01)
    [failed] = store.requeue_stale(0, max_attempts=2)
    assert failed.status is Status.FAILED
    assert "worker w2 stopped responding" in failed.error and "on attempt 2 of 2; giving up" in failed.error
    assert store.get(request.id).status is Status.FAILED


def test_retry_and_cancel_only_from_states_that_allow_them(store: QueueStore) -> None:
    request = store.add(new())
    with pytest.raises(QueueError, match="request 1 is PENDING; only FAILED or CANCELLED requests can be retried"):
        store.retry(request.id)
    store.cancel(request.id)
    with pytest.raises(QueueError, match="request 1 is CANCELLED; only PENDING or RUNNING requests can be cancelled"):
        store.cancel(request.id)
    retried = store.retry(request.id)
    assert (retried.status, retried.attempts, retried.error) == (Status.PENDING, 0, None)
    with pytest.raises(RequestNotFound, match="no queue request with id 99"):
        store.cancel(99)


def test_a_second_active_request_for_a_revision_is_a_duplicate(store: QueueStore) -> None:
    first = store.add(new())
    with pytest.raises(DuplicateRequest) as raised:
        store.add(new(submitter="bob"))
    assert raised.value.existing.id == first.id
    store.claim("w1")
    store.fail(first.id, "w1", "out of memory")
    assert store.add(new(submitter="bob")).id != first.id  # a failed one may be submitted again
    assert len(store.find("org/model", "a" * 40)) == 2


def test_submission_times_count_one_submitter_within_the_window(store: QueueStore) -> None:
    store.add(new("org/one"))
    store.add(new("org/two"))
    store.add(new("org/three", submitter="bob"))
    hour_ago = datetime.now(timezone.utc) - timedelta(hours=1)
    assert len(store.submission_times("alice", hour_ago)) == 2
    assert store.submission_times("alice", datetime.now(timezone.utc) + timedelta(seconds=1)) == []


def test_the_status_column_refuses_unknown_states(store: QueueStore) -> None:
    store.add(new())
    with sqlite3.connect(store.path) as conn, pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute("UPDATE requests SET status = 'DONE'")


def _claim_all(path: Path, worker_id: str, start: multiprocessing.Barrier, results: multiprocessing.Queue) -> None:
    store, claimed = QueueStore(path), []
    start.wait()  # every worker begins claiming at once
    while (request := store.claim(worker_id)) is not None:
        claimed.append(request.id)
    results.put(claimed)


def test_concurrent_processes_never_claim_the_same_request(tmp_path: Path) -> None:
    path = tmp_path / "queue.sqlite"
    store = QueueStore(path)
    ids = {store.add(new(f"org/model-{n}")).id for n in range(200)}
    context = multiprocessing.get_context("fork")
    results, start = context.Queue(), context.Barrier(4)
    workers = [context.Process(target=_claim_all, args=(path, f"w{n}", start, results)) for n in range(4)]
    for worker in workers:
        worker.start()
    claimed = [results.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    every_claim = [request_id for batch in claimed for request_id in batch]
    assert sorted(every_claim) == sorted(ids)  # each request exactly once
    assert sum(1 for batch in claimed if batch) > 1  # the workers really competed
    assert {row.status for row in store.list_requests()} == {Status.RUNNING}
