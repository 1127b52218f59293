"""The queue on both backends (SQLite file, PostgreSQL server): claim order, worker-held writes, stale
requeue, admin transitions, duplicates per benchmark, the per-user limit, migrations, concurrent claims."""

from __future__ import annotations

import dataclasses
import multiprocessing
import sqlite3
import time
from pathlib import Path

import psycopg
import pytest

from eval_backend.benchmarks.chat_mode import ChatMode
from eval_backend.submissions import (
    DuplicateRequest,
    LimitReached,
    NewRequest,
    Phase,
    QueueError,
    QueueStore,
    RequestNotFound,
    SqliteQueueStore,
    Status,
)
from eval_backend.submissions.queue_store import SCHEMA_VERSION
from tests.support.queue_backends import QueueBackend

JOB_COLUMNS = ("job_id", "job_url", "job_flavor", "job_stage", "job_wall_s", "job_price_usd")
"""The columns of requests run as Hugging Face Jobs, the latest migration's."""


def new(
    model: str = "org/model", revision: str = "a" * 40, submitter: str = "alice", benchmark: str = "indic_writing_bench",
    chat_mode: ChatMode = ChatMode.CHAT,
) -> NewRequest:
    return NewRequest(model, revision, "main", "bfloat16", False, submitter, {"backend": "transformers"},
                      benchmark=benchmark, chat_mode=chat_mode)


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
    assert len(store.submission_times("alice", 3600)) == 2
    time.sleep(0.05)
    assert store.submission_times("alice", 0.01) == []


def test_the_status_column_refuses_unknown_states(store: QueueStore, queue_backend: QueueBackend) -> None:
    store.add(new())
    with pytest.raises((sqlite3.IntegrityError, psycopg.errors.CheckViolation), match="(?i)check"):
        queue_backend.execute("UPDATE requests SET status = 'DONE'")


def test_each_benchmark_of_a_revision_is_its_own_request(store: QueueStore) -> None:
    writing, qa = store.add_submission([new(), new(benchmark="qa")])
    assert (writing.benchmark, qa.benchmark) == ("indic_writing_bench", "qa")
    assert writing.submission_id == qa.submission_id == writing.id
    assert store.active_duplicate("org/model", "a" * 40, "qa").id == qa.id  # type: ignore[union-attr]
    assert store.active_duplicate("org/model", "a" * 40, "other") is None
    with pytest.raises(DuplicateRequest) as raised:
        store.add_submission([new(benchmark="other"), new(benchmark="qa")])
    assert raised.value.existing.id == qa.id
    assert len(store.list_requests()) == 2  # all or nothing: "other" was not queued either


def test_a_submission_counts_once_against_the_per_user_limit(store: QueueStore) -> None:
    store.add_submission([new("org/one"), new("org/one", benchmark="qa")], per_user_limit=2)
    assert len(store.submission_times("alice")) == 1
    store.add_submission([new("org/two")], per_user_limit=2)
    with pytest.raises(LimitReached) as raised:
        store.add_submission([new("org/three")], per_user_limit=2)
    assert (raised.value.submitter, raised.value.limit, len(raised.value.times)) == ("alice", 2, 2)
    assert [r.model_id for r in store.list_requests()] == ["org/one", "org/one", "org/two"]


def test_a_submission_is_one_model_revision_by_one_submitter(store: QueueStore) -> None:
    with pytest.raises(ValueError, match="one model revision by one submitter"):
        store.add_submission([new("org/one"), new("org/two", benchmark="qa")])
    with pytest.raises(ValueError):
        store.add_submission([])


def test_times_come_from_the_database_clock(store: QueueStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's own clock plays no part: a host whose clock is a year ahead writes the database's time."""
    import eval_backend.submissions.queue_store as queue_store

    monkeypatch.setattr(queue_store, "timestamp", lambda moment=None: "2099-01-01T00:00:00.000+00:00")
    before = store.database_time()
    request = store.add(new())
    store.claim("w1")
    assert store.heartbeat(request.id, "w1")
    row = store.get(request.id)
    after = store.database_time()
    assert before <= row.submitted_at <= row.started_at <= row.heartbeat_at <= after  # type: ignore[operator]
    assert after < "2099"


def test_a_restored_queue_keeps_its_ids_and_numbers_on_after_them(store: QueueStore, queue_backend: QueueBackend) -> None:
    first = store.add(new("org/one"))
    second = store.add(new("org/two", submitter="bob"))
    with queue_backend.open() as other:
        copy = [other.get(first.id), other.get(second.id)]
    queue_backend.execute("DELETE FROM requests")
    assert store.restore(copy) == 2
    assert store.list_requests() == copy
    assert store.add(new("org/three")).id == second.id + 1


def test_the_chat_mode_chosen_at_submission_is_what_the_worker_claims(store: QueueStore) -> None:
    raw = store.add(new("org/base", benchmark="saraiki", chat_mode=ChatMode.RAW))
    chat = store.add(new("org/chat"))
    claimed = store.claim("w1")
    assert claimed is not None and (claimed.id, claimed.chat_mode) == (raw.id, ChatMode.RAW)
    assert store.claim("w1").chat_mode is ChatMode.CHAT == chat.chat_mode  # type: ignore[union-attr]  # the default


def test_a_queue_from_before_chat_modes_is_migrated_on_open_and_its_rows_were_asked_in_chat(
    queue_backend: QueueBackend,
) -> None:
    with queue_backend.open() as current:
        old = current.add(new("org/old"))
    # Back to the schema before the chat_mode column (and the later ones), with the row still there.
    for column in (*JOB_COLUMNS, "open_weights", "license", "chat_mode"):
        queue_backend.execute(f"ALTER TABLE requests DROP COLUMN {column}")
    queue_backend.execute("UPDATE queue_schema SET version = 2" if queue_backend.url else "PRAGMA user_version = 2")
    with queue_backend.open() as migrated:
        assert migrated.get(old.id).chat_mode is ChatMode.CHAT
        raw = migrated.add(new("org/base", benchmark="saraiki", chat_mode=ChatMode.RAW))
        assert migrated.get(raw.id).chat_mode is ChatMode.RAW


def test_the_license_and_open_weights_recorded_at_submission_are_what_the_worker_claims(store: QueueStore) -> None:
    facts = dict(license="other:llama3", open_weights=False)
    gated = store.add(dataclasses.replace(new("org/gated"), **facts))
    unknown = store.add(new("org/unknown"))
    assert (gated.license, gated.open_weights) == ("other:llama3", False)
    claimed = store.claim("w1")
    assert claimed is not None and claimed.id == gated.id
    assert (claimed.license, claimed.open_weights) == ("other:llama3", False)
    assert (unknown.license, unknown.open_weights) == (None, None)  # not recorded: unknown, not "closed"
    opened = store.add(dataclasses.replace(new("org/open"), license="apache-2.0", open_weights=True))
    assert store.get(opened.id).open_weights is True


def test_a_queue_from_before_licenses_is_migrated_on_open_and_its_rows_are_unknown(queue_backend: QueueBackend) -> None:
    with queue_backend.open() as current:
        old = current.add(new("org/old"))
    for column in (*JOB_COLUMNS, "open_weights", "license"):
        queue_backend.execute(f"ALTER TABLE requests DROP COLUMN {column}")
    queue_backend.execute("UPDATE queue_schema SET version = 3" if queue_backend.url else "PRAGMA user_version = 3")
    with queue_backend.open() as migrated:
        assert (migrated.get(old.id).license, migrated.get(old.id).open_weights) == (None, None)
        added = migrated.add(dataclasses.replace(new("org/new"), license="mit", open_weights=True))
        assert (migrated.get(added.id).license, migrated.get(added.id).open_weights) == ("mit", True)
    with pytest.raises((sqlite3.IntegrityError, psycopg.errors.CheckViolation)):  # only yes, no or unknown
        queue_backend.execute(f"UPDATE requests SET open_weights = 2 WHERE id = {old.id}")


def test_reopening_a_queue_keeps_its_rows(queue_backend: QueueBackend) -> None:
    with queue_backend.open() as first:
        request = first.add(new())
    with queue_backend.open() as again:  # the schema is already current: nothing is recreated
        assert again.get(request.id) == request


_VERSION_1 = """
CREATE TABLE requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT, model_id TEXT NOT NULL, revision TEXT NOT NULL,
    requested_revision TEXT NOT NULL, precision TEXT NOT NULL, reasoning INTEGER NOT NULL DEFAULT 0,
    backend_params TEXT NOT NULL DEFAULT '{}', submitter TEXT NOT NULL, submitted_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'PENDING', phase TEXT, progress_done INTEGER NOT NULL DEFAULT 0,
    progress_total INTEGER NOT NULL DEFAULT 0, worker_id TEXT, started_at TEXT, finished_at TEXT,
    heartbeat_at TEXT, attempts INTEGER NOT NULL DEFAULT 0, error TEXT, log_tail TEXT NOT NULL DEFAULT '',
    run_dir TEXT, parameters INTEGER
);
INSERT INTO requests (model_id, revision, requested_revision, precision, submitter, submitted_at, status)
VALUES ('org/old', 'c', 'main', 'bfloat16', 'alice', '2026-01-01T00:00:00.000+00:00', 'FINISHED');
PRAGMA user_version = 1;
"""


def test_a_queue_file_of_the_first_schema_is_migrated_on_open(tmp_path: Path) -> None:
    path = tmp_path / "queue.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(_VERSION_1)
    store = SqliteQueueStore(path)
    [old] = store.list_requests()
    assert (old.model_id, old.benchmark, old.submission_id, old.status) == ("org/old", "indic_writing_bench", 1, "FINISHED")
    assert old.chat_mode is ChatMode.CHAT
    with pytest.raises(DuplicateRequest):
        store.add(NewRequest("ORG/Old", "c", "main", "bfloat16", False, "bob"))
    assert store.add(NewRequest("org/old", "c", "main", "bfloat16", False, "bob", benchmark="qa")).id == 2
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def _claim_all(backend: QueueBackend, worker_id: str, start: multiprocessing.Barrier, results: multiprocessing.Queue) -> None:
    claimed = []
    with backend.open() as store:
        start.wait()  # every worker begins claiming at once
        while (request := store.claim(worker_id)) is not None:
            claimed.append(request.id)
    results.put(claimed)


def test_concurrent_processes_never_claim_the_same_request(store: QueueStore, queue_backend: QueueBackend) -> None:
    ids = {store.add(new(f"org/model-{n}")).id for n in range(200)}
    context = multiprocessing.get_context("spawn")
    results, start = context.Queue(), context.Barrier(4)
    workers = [context.Process(target=_claim_all, args=(queue_backend, f"w{n}", start, results)) for n in range(4)]
    for worker in workers:
        worker.start()
    claimed = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    every_claim = [request_id for batch in claimed for request_id in batch]
    assert sorted(every_claim) == sorted(ids)  # each request exactly once
    assert sum(1 for batch in claimed if batch) > 1  # the workers really competed
    assert {row.status for row in store.list_requests()} == {Status.RUNNING}


def test_a_claim_given_back_is_pending_again_with_its_attempt_returned_for_its_holder_only(store: QueueStore) -> None:
    request = store.add(new())
    store.claim("w1")
    assert not store.release_claim(request.id, "intruder", "busy")
    assert store.release_claim(request.id, "w1", "run folder busy; requeued without using an attempt")
    row = store.get(request.id)
    assert (row.status, row.worker_id, row.attempts) == (Status.PENDING, None, 0)
    assert row.error == "run folder busy; requeued without using an attempt"
    assert store.claim("w2").attempts == 1  # type: ignore[union-attr]


def test_a_queue_from_before_jobs_is_migrated_on_open_and_its_rows_have_no_job(queue_backend: QueueBackend) -> None:
    with queue_backend.open() as current:
        old = current.add(new("org/old"))
    for column in JOB_COLUMNS:
        queue_backend.execute(f"ALTER TABLE requests DROP COLUMN {column}")
    queue_backend.execute("UPDATE queue_schema SET version = 4" if queue_backend.url else "PRAGMA user_version = 4")
    with queue_backend.open() as migrated:
        assert migrated.get(old.id).job_id is None
        claimed = migrated.claim("dispatcher")
        assert claimed is not None
        assert migrated.set_job(old.id, "dispatcher", "68a0c1d2e3f4a5b6c7d8e9f0", "https://hf.co/jobs/o/68a0", "l4x1")
        assert not migrated.set_job(old.id, "someone-else", "0" * 24, "https://hf.co/jobs/o/0", "l4x1")  # fenced
        migrated.update_job(old.id, "RUNNING", 61.5, 0.0137)
        row = migrated.get(old.id)
        assert (row.job_id, row.job_flavor, row.job_stage, row.job_wall_s, row.job_price_usd) == (
            "68a0c1d2e3f4a5b6c7d8e9f0", "l4x1", "RUNNING", 61.5, 0.0137)
        [adopted] = migrated.adopt_jobs("restarted")
        assert (adopted.id, adopted.worker_id) == (old.id, "restarted")
