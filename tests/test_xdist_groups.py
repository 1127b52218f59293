"""`--dist loadgroup` keeps a module whose tests share a module-scoped fixture on one worker: it is set up once.

A pytest run of its own (two workers, this suite's conftest hooks) over a module of such tests and a module of
independent ones; each records in one log which worker ran it, and the fixture records its setups.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARING = 6

CONFTEST = '''
import os
from pathlib import Path

import pytest

from tests.conftest import (  # the suite's own hooks: the groups, and the scheduler that reads them
    pytest_collection_modifyitems, pytest_configure_node, pytest_unconfigure, pytest_xdist_make_scheduler,
)

LOG = Path(os.environ["GROUPS_LOG"])


def record(event):
    with LOG.open("a") as log:
        log.write(f"{event} {os.environ['PYTEST_XDIST_WORKER']}\\n")


@pytest.fixture(scope="module")
def expensive():
    record("setup")
    yield
'''

SHARING_MODULE = '''
import pytest

from conftest import record


@pytest.mark.parametrize("n", range({tests}))
def test_shares_the_module_fixture(expensive, n):
    record("shared")
'''

ALONE_MODULE = '''
import time

import pytest

from conftest import record


@pytest.mark.parametrize("n", range({tests}))
def test_needs_nothing_shared(n):
    time.sleep(0.05)  # long enough that both workers take some of these
    record("alone")
'''


def test_a_module_sharing_a_module_fixture_runs_on_one_worker_and_sets_it_up_once(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_sharing.py").write_text(SHARING_MODULE.format(tests=SHARING))
    (tmp_path / "test_alone.py").write_text(ALONE_MODULE.format(tests=3 * SHARING))
    log = tmp_path / "events.log"
    environment = {**os.environ, "GROUPS_LOG": str(log), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-p", "no:cacheprovider", "-q",
                           "--basetemp", str(tmp_path / "base"), str(tmp_path)],
                          cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    events = [line.split() for line in log.read_text().splitlines()]
    workers = {kind: [worker for event, worker in events if event == kind] for kind in ("setup", "shared", "alone")}
    assert len(workers["shared"]) == SHARING and len(workers["alone"]) == 3 * SHARING, f"every test ran: {events}"
    assert len(set(workers["shared"])) == 1, f"the sharing module's tests on one worker: {events}"
    assert workers["setup"] == workers["shared"][:1], f"its module fixture set up once: {events}"
    assert set(workers["alone"]) == {"gw0", "gw1"}, f"the independent tests spread over both workers: {events}"
