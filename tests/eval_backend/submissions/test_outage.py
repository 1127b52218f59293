"""PostgreSQL stopped for a while under two worker processes (one busy, one idle), then started again:
both wait, saying so in their logs, reconnect, and the busy one keeps its claim and finishes the run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from eval_backend.run_folder import RunFolder
from eval_backend.submissions import NewRequest, QueueRequest, Status
from eval_backend.submissions.queue_postgres import PostgresQueueStore
from tests.eval_backend.submissions.test_worker import REPO_ROOT, _keys, wait_for
from tests.support.chat_server import StandInChatServer, chat_reply
from tests.support.held_replies import HeldReplies
from tests.support.postgres import PostgresServer, running_server

SERVED = {"backend": "openai", "max_tokens": 8}  # the model under test behind a stand-in server: no weights to load
WAITING = "waiting for the queue database"
POLLING = "polling postgresql://"


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A server of this test's own: stopping it must not stop the session's."""
    yield from running_server()


def _worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "eval_backend", "worker"], cwd=REPO_ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=log.open("wb"))


def _row(url: str, request_id: int) -> QueueRequest | None:
    """The request as the database has it now, or None while the database is away."""
    try:
        with PostgresQueueStore(url, connect_timeout_s=1) as store:
            return store.get(request_id)
    except Exception:  # noqa: BLE001  (the database restarting: ask again)
        return None


def _when(url: str, request_id: int, test: Callable[[QueueRequest], Any]) -> Callable[[], QueueRequest | None]:
    return lambda: (row := _row(url, request_id)) is not None and test(row) and row


def test_workers_wait_out_a_database_restart_and_the_busy_one_keeps_its_claim(
    own_server: PostgresServer, tmp_path: Path, dataset_dir: Path, judge_env: StandInChatServer,
) -> None:
    held = judge_env.reply = HeldReplies(answered=2)  # the database stops midway through the judging, however slow
    url = own_server.new_database()
    with PostgresQueueStore(url) as store:
        request = store.add(NewRequest("org/model", "b" * 40, "main", "float32", False, "alice", SERVED))
    model = StandInChatServer(chat_reply(lambda messages: "An answer.")).start()
    env = {
        **os.environ, "QUEUE_URL": url, "DATA_DIR": str(tmp_path / "data"), "WB_DATASET": str(dataset_dir),
        "GENERATION_BASE_URL": model.base_url, "WORKER_RUN_LIMIT": "1", "WORKER_HEARTBEAT_S": "0.2",
        "QUEUE_STALE_AFTER_S": "60", "WORKER_POLL_INTERVAL_S": "0.2", "JUDGE_CONCURRENCY": "1",
        "QUEUE_RECONNECT_MAX_S": "0.5", "QUEUE_CONNECT_TIMEOUT_S": "1",
    }
    logs = [tmp_path / "worker-0.log", tmp_path / "worker-1.log"]
    workers = [_worker(env, log) for log in logs]
    try:
        running = wait_for(_when(url, request.id, lambda r: r.phase == "judging" and r.progress_done > 0),
                           "a worker to be judging", timeout_s=120)
        # Both past their start: a worker that cannot reach the database as it starts exits saying so (a wrong
        # QUEUE_URL), which is not the outage under test.
        wait_for(lambda: all(POLLING in log.read_text(errors="replace") for log in logs), "both workers to poll",
                 timeout_s=60)
        own_server.halt()
        held.release()  # the run goes on judging through the outage
        wait_for(lambda: all(WAITING in log.read_text(errors="replace") for log in logs)
                 or any(worker.poll() is not None for worker in workers),
                 "both workers to say they wait for the database", timeout_s=60)
        assert all(worker.poll() is None for worker in workers), "a worker exited during the outage"
        own_server.restart()
        ended = wait_for(_when(url, request.id, lambda r: r.status in (Status.FINISHED, Status.FAILED)),
                         "the request to end", timeout_s=120)
        assert all(worker.poll() is None for worker in workers), "a worker exited after the outage"
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=30)
        model.stop()
    text = "".join(log.read_text(errors="replace") for log in logs)
    assert ended.status is Status.FINISHED, (ended.error, text[-3000:])
    assert (ended.attempts, ended.worker_id) == (1, running.worker_id)  # the claim was kept, not taken over
    assert "Traceback" not in text, text[-3000:]
    judged = _keys(RunFolder(Path(ended.run_dir)).judgments_path, ("config", "index", "criterion_index"))  # type: ignore[arg-type]
    assert len(judged) == len(set(judged)) == 15  # each criterion judged once
