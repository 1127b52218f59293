"""`tests.support.shared_server`: one server for both xdist workers, stopped after the last test that used it.

A pytest run of its own (two workers) over tests that each record, in one log, which worker used the server;
the server's start and stop are recorded in the same log.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = 8

CONFTEST = '''
import os
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.app_server import AppServer
from tests.support.shared_server import shared_server

LOG = Path(os.environ["SHARED_SERVER_LOG"])


def record(event):
    with LOG.open("a") as log:
        log.write(f"{event} {os.environ['PYTEST_XDIST_WORKER']}\\n")


@contextmanager
def stand_in(tmp_path_factory):
    record("start")
    yield AppServer(url="http://127.0.0.1:1/", data_dir=tmp_path_factory.mktemp("served"))
    record("stop")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    yield from shared_server(tmp_path_factory, "stand-in", lambda: stand_in(tmp_path_factory))
'''

TEST_MODULE = '''
import time

import pytest

from conftest import LOG, record


@pytest.mark.parametrize("n", range({tests}))
def test_uses_the_server(server, n):
    assert server.url == "http://127.0.0.1:1/"
    record("used")
    deadline = time.monotonic() + 60  # neither worker ends before the other used the server: one start is due
    while {{line.split()[1] for line in LOG.read_text().splitlines() if line.startswith("used")}} != {{"gw0", "gw1"}}:
        assert time.monotonic() < deadline, "the other worker never used the server"
        time.sleep(0.05)
'''


def test_both_workers_share_one_server_stopped_after_its_last_use(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_server.py").write_text(TEST_MODULE.format(tests=TESTS))
    log = tmp_path / "events.log"
    environment = {**os.environ, "SHARED_SERVER_LOG": str(log), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-p", "no:cacheprovider", "-q",
                           "--basetemp", str(tmp_path / "base"), str(tmp_path)],
                          cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    events = [line.split() for line in log.read_text().splitlines()]
    kinds = [kind for kind, _ in events]
    assert kinds.count("start") == 1 and kinds.count("stop") == 1, f"one start and one stop: {kinds}"
    assert kinds.count("used") == TESTS, f"every test used the server: {kinds}"
    assert {worker for kind, worker in events if kind == "used"} == {"gw0", "gw1"}, f"both workers used it: {events}"
    assert kinds[0] == "start" and kinds[-1] == "stop", f"started before its first use, stopped after its last: {kinds}"
