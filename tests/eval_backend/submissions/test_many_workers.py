"""Workers on many hosts, as far as one machine shows it: three `python -m eval_backend worker` processes on
one queue, twelve requests, one worker killed midway; every request is done exactly once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from eval_backend.run_folder import RunFolder
from eval_backend.submissions import NewRequest, QueueStore, Status
from tests.eval_backend.submissions.test_worker import BACKEND, REPO_ROOT, _keys, wait_for
from tests.support.chat_server import StandInChatServer
from tests.support.queue_backends import QueueBackend

REQUESTS = 12
WORKERS = 3


def _worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "eval_backend", "worker"], cwd=REPO_ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=log.open("wb"),
    )


@pytest.mark.parametrize("queue_backend", ["postgres"], indirect=True)  # the queue workers on many hosts share
def test_three_workers_do_twelve_requests_exactly_once_with_one_killed_midway(
    store: QueueStore, queue_backend: QueueBackend, tmp_path: Path, tiny_model: Path, dataset_dir: Path,
    judge_env: StandInChatServer,
) -> None:
    judge_env.latency_s = 0.05
    data = tmp_path / "data"
    for n in range(REQUESTS):  # one local model under twelve revisions: twelve run folders
        store.add(NewRequest(str(tiny_model), f"local-{n:02d}", "local", "float32", False, "alice", BACKEND))
    env = {
        **os.environ, **queue_backend.env(), "DATA_DIR": str(data), "WB_DATASET": str(dataset_dir),
        "WORKER_RUN_LIMIT": "1", "WORKER_HEARTBEAT_S": "0.2", "QUEUE_STALE_AFTER_S": "3",
        "WORKER_POLL_INTERVAL_S": "0.2", "JUDGE_CONCURRENCY": "2",
    }
    workers = [_worker(env, tmp_path / f"worker-{n}.log") for n in range(WORKERS)]
    try:
        victim = workers[0]
        running = wait_for(
            lambda: next((r for r in store.list_requests(Status.RUNNING)
                          if r.worker_id and f":{victim.pid}:" in r.worker_id and r.progress_done > 0), None),
            "the first worker to be midway through a request", timeout_s=300,
        )
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        wait_for(lambda: all(r.status is Status.FINISHED for r in store.list_requests()),
                 "every request to finish", timeout_s=600)
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=30)
    logs = "".join((tmp_path / f"worker-{n}.log").read_text(errors="replace") for n in range(WORKERS))

    rows = store.list_requests()
    assert len(rows) == REQUESTS and {r.status for r in rows} == {Status.FINISHED}, logs[-3000:]
    resumed = next(r for r in rows if r.id == running.id)
    assert resumed.attempts == 2 and "stopped responding" in resumed.log_tail  # taken over after the kill
    assert all(r.attempts == 1 for r in rows if r.id != running.id)  # nobody else ran twice
    assert len({r.worker_id.rsplit(":", 2)[1] for r in rows if r.worker_id}) >= 2  # the work was shared
    for row in rows:
        _assert_done_once(RunFolder(Path(row.run_dir)))  # type: ignore[arg-type]
    # Every judge call was paid once, but for at most the calls in flight when the worker was killed.
    assert len(judge_env.requests) <= REQUESTS * 15 + 2


def _assert_done_once(folder: RunFolder) -> None:
    responses = _keys(folder.responses_path, ("config", "index"))
    judgments = _keys(folder.judgments_path, ("config", "index", "criterion_index"))
    assert len(responses) == len(set(responses)) == 3, folder.path  # each item generated once
    assert len(judgments) == len(set(judgments)) == 15, folder.path  # each criterion judged once
    summary: dict[str, Any] = json.loads(folder.summary_path.read_text())
    assert summary["counts"]["scored_items"] == 3
