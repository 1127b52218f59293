"""A worker paused past its claim (SIGSTOP) still holds its run folder: the worker that takes the request
over waits for the folder, or puts the request back without using an attempt, and never fails it for that."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from eval_backend.run_folder import RunFolder
from eval_backend.submissions import NewRequest, QueueStore, Status
from tests.eval_backend.submissions.test_worker import REPO_ROOT, _keys, wait_for
from tests.support.chat_server import StandInChatServer, chat_reply
from tests.support.held_replies import HeldReplies
from tests.support.queue_backends import QueueBackend

SERVED = {"backend": "openai", "max_tokens": 8}  # the model under test behind the stand-in server: no weights to load


def _worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "eval_backend", "worker"], cwd=REPO_ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=log.open("wb"))


def _stop_outside_a_write(worker: subprocess.Popen[bytes], queue: Path) -> None:
    """SIGSTOP the worker while the test holds the queue's write lock. A worker stopped inside its own write
    (a heartbeat every 0.2 s) would hold SQLite's lock while stopped, and no other worker could claim anything:
    one loaded full run stopped it so and timed out."""
    conn = sqlite3.connect(queue, timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")  # waits for a write of the worker's to end
        worker.send_signal(signal.SIGSTOP)
        wait_for(lambda: _stopped(worker.pid), "the worker's every thread to stop", timeout_s=30)
        conn.execute("ROLLBACK")
    finally:
        conn.close()


def _stopped(pid: int) -> bool:
    """Every thread of the process is stopped (a signal is sent at once, but takes effect when it is next run)."""
    states = [(task / "stat").read_text().rsplit(")", 1)[1].split()[0] for task in Path(f"/proc/{pid}/task").iterdir()]
    return all(state in "Tt" for state in states)


@pytest.mark.parametrize("queue_backend", ["sqlite"], indirect=True)
def test_a_takeover_of_a_paused_workers_request_waits_for_its_folder_and_uses_no_attempt_for_it(
    store: QueueStore, queue_backend: QueueBackend, tmp_path: Path, dataset_dir: Path, judge_env: StandInChatServer,
) -> None:
    held = judge_env.reply = HeldReplies(answered=2)  # the worker is paused midway through judging, however slow
    model = StandInChatServer(chat_reply(lambda messages: "An answer.")).start()
    request = store.add(NewRequest("org/model", "b" * 40, "main", "float32", False, "alice", SERVED))
    env = {
        **os.environ, **queue_backend.env(), "DATA_DIR": str(tmp_path / "data"), "WB_DATASET": str(dataset_dir),
        "GENERATION_BASE_URL": model.base_url,
        "WORKER_RUN_LIMIT": "1", "WORKER_HEARTBEAT_S": "0.2", "QUEUE_STALE_AFTER_S": "1.5",
        "WORKER_POLL_INTERVAL_S": "0.2", "JUDGE_CONCURRENCY": "1", "WORKER_FOLDER_WAIT_S": "1",
    }
    paused = _worker(env, tmp_path / "paused.log")
    workers = [paused]
    try:
        wait_for(lambda: (row := store.get(request.id)).progress_done > 0 and row.phase == "judging",
                 "the first worker to be judging", timeout_s=60)
        _stop_outside_a_write(paused, queue_backend.path)  # past the stale limit: it loses the claim, keeps the folder
        held.release()  # its call in flight is answered while it is paused; every later call at once
        workers.append(_worker(env, tmp_path / "taker.log"))
        given_back = wait_for(
            lambda: ("requeued without using an attempt" in (row := store.get(request.id)).log_tail
                     or row.status is Status.FAILED) and row,
            "the takeover to give the request back while the folder is held", timeout_s=120)
        assert given_back.status is not Status.FAILED, given_back.error  # the folder held is not the run failing
        paused.send_signal(signal.SIGCONT)  # it finds its claim gone at its next write and lets go of the folder
        ended = wait_for(lambda: (row := store.get(request.id)).status in (Status.FINISHED, Status.FAILED) and row,
                         "the request to end", timeout_s=300)
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGCONT)
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=30)
        model.stop()
    logs = "".join((tmp_path / name).read_text(errors="replace") for name in ("paused.log", "taker.log"))
    assert ended.status is Status.FINISHED, (ended.error, logs[-3000:])
    assert ended.attempts == 2  # the paused worker's, and the one that finished it: waiting used none
    assert "waiting up to 1s for it to be released" in ended.log_tail
    folder = RunFolder(Path(ended.run_dir))  # type: ignore[arg-type]
    judged = _keys(folder.judgments_path, ("config", "index", "criterion_index"))
    assert len(judged) == len(set(judged)) == 15  # each criterion judged once, by whichever worker held the folder
