"""A queue row that cannot be decoded fails alone, on SQLite and PostgreSQL: it is listed with its problem
(store, `queue list` / `queue show`, the Submit tab's tables), marked FAILED with the reason when a worker
claims it, and never stops a worker: a two-worker fleet goes on to the next request."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from eval_backend.cli import main
from eval_backend.submissions import NewRequest, QueueStore, Status
from eval_backend.submissions.worker import poll_once
from leaderboard.queue_view import queue_tables
from tests.eval_backend.submissions.conftest import make_settings
from tests.eval_backend.submissions.test_worker import BACKEND, REPO_ROOT, finished_summary, wait_for
from tests.support.chat_server import StandInChatServer
from tests.support.queue_backends import QueueBackend, on_backend

LONG_MODEL = "ai4bharat-research-collective/" + "IndicGemma-मराठी-தமிழ்-বাংলা-سرائیکی-".ljust(70, "x")
BAD_PARAMS = {  # stored backend_params -> what the problem names
    "{not json": "backend_params is not JSON",
    "[1, 2, 3]": "backend_params is not a JSON object",
    "": "backend_params is not JSON",
}


def _add(store: QueueStore, model: str, revision: str = "c" * 40, backend: dict[str, Any] | None = None) -> int:
    return store.add(NewRequest(model, revision, "main", "float32", False, "alice", backend or BACKEND)).id


def _spoil(queue_backend: QueueBackend, request_id: int, stored: str) -> None:
    """Write a backend_params column that is not what the store writes (a hand edit, an old bug, a bad restore)."""
    quoted = stored.replace("'", "''")
    queue_backend.execute(f"UPDATE requests SET backend_params = '{quoted}' WHERE id = {request_id}")


@pytest.fixture
def spoiled(store: QueueStore, queue_backend: QueueBackend) -> dict[int, str]:
    """One good request between rows whose backend_params cannot be decoded; id -> the expected problem."""
    problems = {}
    for n, (stored, problem) in enumerate(BAD_PARAMS.items()):
        request_id = _add(store, f"{LONG_MODEL[:-2]}{n:02d}")
        _spoil(queue_backend, request_id, stored)
        problems[request_id] = problem
    _add(store, "org/good-model")
    return problems


def test_every_row_is_listed_and_the_undecodable_ones_name_their_problem(
    store: QueueStore, spoiled: dict[int, str]
) -> None:
    rows = {row.id: row for row in store.list_requests()}
    assert len(rows) == 4
    for request_id, problem in spoiled.items():
        assert problem in (rows[request_id].problem or ""), rows[request_id]
        assert rows[request_id].backend_params == {} and rows[request_id].status is Status.PENDING
        assert store.get(request_id).problem == rows[request_id].problem
    good = next(row for row in rows.values() if row.id not in spoiled)
    assert good.problem is None and dict(good.backend_params) == BACKEND


def test_a_column_of_the_wrong_type_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    """SQLite keeps whatever a column is given: every decoded column says what it holds instead of raising."""
    backend = QueueBackend("sqlite", tmp_path / "queue.sqlite", None)
    with backend.open() as store:
        request_id = _add(store, "org/model")
        backend.execute(f"UPDATE requests SET reasoning = 'perhaps', progress_done = 'many', "
                        f"open_weights = NULL, parameters = 'seven billion' WHERE id = {request_id}")
        row = store.get(request_id)
    assert row.problem is not None
    for column in ("reasoning", "progress_done", "parameters"):
        assert column in row.problem
    assert "open_weights" not in row.problem  # NULL is its "unknown", not a problem


def test_a_row_without_a_job_reads_clean_and_a_job_column_of_the_wrong_type_is_named(tmp_path: Path) -> None:
    """The Job columns (WORKER_DISPATCH=hf-jobs) are NULL on every row run in a worker's process."""
    backend = QueueBackend("sqlite", tmp_path / "queue.sqlite", None)
    with backend.open() as store:
        request_id = _add(store, "org/model")
        assert store.get(request_id).problem is None
        backend.execute(f"UPDATE requests SET job_price_usd = 'a lot' WHERE id = {request_id}")
        row = store.get(request_id)
    assert row.problem == "job_price_usd is not a finite number ('a lot')" and row.job_price_usd is None


def test_queue_list_and_show_print_the_problem_and_exit_0(
    store: QueueStore, queue_backend: QueueBackend, spoiled: dict[int, str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in queue_backend.env().items():
        monkeypatch.setenv(name, value)
    assert main(["queue", "list"]) == 0
    listed = capsys.readouterr().out
    assert "org/good-model" in listed
    for request_id, problem in spoiled.items():
        assert problem in listed
        assert main(["queue", "show", str(request_id)]) == 0
        assert problem in capsys.readouterr().out


def test_the_submit_tabs_tables_show_the_undecodable_rows_with_their_problem(
    store: QueueStore, spoiled: dict[int, str]
) -> None:
    tables = queue_tables(store.list_requests())
    assert list(tables.pending["model"]) == ["org/good-model"]
    failed = tables.failed.set_index("id")
    for request_id, problem in spoiled.items():
        assert problem in failed.loc[request_id, "reason"]
        assert failed.loc[request_id, "status"] == "PENDING"  # as stored, until a worker fails it


def test_a_claimed_undecodable_row_is_failed_with_its_reason_and_the_next_poll_runs_the_good_one(
    store: QueueStore, spoiled: dict[int, str], tmp_path: Path
) -> None:
    settings = make_settings(tmp_path / "data")
    ran: list[int] = []

    def runner(request: Any, folder: Any, settings: Any, on_progress: Any) -> dict[str, Any]:
        ran.append(request.id)
        return finished_summary(0.5)

    outcomes = [poll_once(store, settings, worker_id="w1", runner=runner) for _ in range(len(spoiled) + 1)]
    assert all(outcome is not None for outcome in outcomes)
    for request_id, problem in spoiled.items():
        failed = store.get(request_id)
        assert failed.status is Status.FAILED and failed.attempts == 1
        assert problem in (failed.error or "") and "cannot be read" in (failed.error or "")
    assert len(ran) == 1 and ran[0] not in spoiled  # the bad rows never reached a runner
    assert store.get(ran[0]).status is Status.FINISHED


def _worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "eval_backend", "worker"], cwd=REPO_ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=log.open("wb"))


@pytest.fixture
def fleet_env(queue_backend: QueueBackend, tmp_path: Path, dataset_dir: Path) -> dict[str, str]:
    return {
        **os.environ, **queue_backend.env(), "DATA_DIR": str(tmp_path / "data"), "WB_DATASET": str(dataset_dir),
        "WORKER_RUN_LIMIT": "1", "WORKER_HEARTBEAT_S": "0.2", "QUEUE_STALE_AFTER_S": "3",
        "WORKER_POLL_INTERVAL_S": "0.2", "JUDGE_CONCURRENCY": "2",
    }


# The rows are decoded by the store, tested on both backends above (in process); the fleet's point is two worker
# processes on one queue, which runs on the queue workers on many hosts share.
@on_backend("postgres")
def test_a_two_worker_fleet_fails_the_undecodable_rows_and_both_workers_go_on(
    store: QueueStore, queue_backend: QueueBackend, tiny_model: Path, judge_env: StandInChatServer,
    fleet_env: dict[str, str], tmp_path: Path,
) -> None:
    spoiled: dict[int, str] = {}
    for n, (stored, problem) in enumerate(BAD_PARAMS.items()):
        request_id = _add(store, str(tiny_model), f"local-bad-{n}")
        _spoil(queue_backend, request_id, stored)
        spoiled[request_id] = problem
    good = [_add(store, str(tiny_model), f"local-good-{n}") for n in range(2)]
    workers = [_worker(fleet_env, tmp_path / f"worker-{n}.log") for n in range(2)]
    try:
        wait_for(lambda: all(store.get(i).status is Status.FAILED for i in spoiled), "the bad rows to fail", 120)
        wait_for(lambda: all(store.get(i).status is Status.FINISHED for i in good), "the good rows to finish", 600)
        alive = [worker.poll() is None for worker in workers]
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=30)
    logs = "".join((tmp_path / f"worker-{n}.log").read_text(errors="replace") for n in range(2))
    assert alive == [True, True], logs[-3000:]
    for request_id, problem in spoiled.items():
        failed = store.get(request_id)
        assert problem in (failed.error or "") and failed.attempts == 1, failed
    assert "Traceback" not in logs
