"""A server over read-only data started once per test run and used by every pytest-xdist worker.

The browser pass runs in two processes. A session fixture that starts `app.py` would start it once per
worker; this starts it in the first worker that asks and lends it to the others (as `built_once` does for
data). The worker that started it stops it at its session's end, once no other worker still uses it: a
worker records its use (`users`) when it asks and removes it at its own session's end. A worker that asks
after the server was stopped starts it again. Without xdist the server is simply started and stopped.

    @pytest.fixture(scope="session")
    def board_app(tmp_path_factory):
        yield from shared_server(tmp_path_factory, "board-app", lambda: running_app(...))

Tests must only read through such a server: other workers use it at the same time.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Callable, Iterator

import pytest

from tests.support.app_server import AppServer

LAST_USER_WAIT_S = 3600
"""How long the starting worker waits at its end for the others to finish with the server (a deadline, not a
wait: it returns as soon as they have)."""


def shared_server(tmp_path_factory: pytest.TempPathFactory, name: str,
                  start: Callable[[], AbstractContextManager[AppServer]]) -> Iterator[AppServer]:
    """Yield the server `start` runs, started by one worker of this run and used by all (a generator for a
    session fixture's `yield from`)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        with start() as server:
            yield server
        return
    shared = tmp_path_factory.getbasetemp().parent / "shared-servers"
    shared.mkdir(exist_ok=True)
    state, lock = shared / f"{name}.json", shared / f"{name}.lock"
    with ExitStack() as owned:
        with _locked(lock):
            running = _read(state)
            started = running is None
            if started:  # the others wait for it to serve rather than start their own
                server = owned.enter_context(start())
                running = {"server": {**asdict(server), "data_dir": str(server.data_dir)}, "users": 0}
            _write(state, {**running, "users": running["users"] + 1})
        try:
            yield AppServer(**{**running["server"], "data_dir": Path(running["server"]["data_dir"])})
        finally:
            _leave(state, lock, started)


def _leave(state: Path, lock: Path, started: bool) -> None:
    """Record that this worker is done with the server; the worker that started it waits for the others first,
    and says it is stopped (no state) before it stops it."""
    with _locked(lock):
        running = _read(state)
        if running is not None:  # None only where the starting worker stopped waiting (LAST_USER_WAIT_S)
            _write(state, {**running, "users": running["users"] - 1})
    if not started:
        return
    deadline = time.monotonic() + LAST_USER_WAIT_S
    while True:
        with _locked(lock):
            if _read(state)["users"] <= 0 or time.monotonic() > deadline:
                state.unlink()
                return
        time.sleep(0.5)


@contextmanager
def _locked(lock: Path) -> Iterator[None]:
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # released when the file closes, also if this worker dies
        yield


def _read(state: Path) -> dict | None:
    return json.loads(state.read_text()) if state.exists() else None


def _write(state: Path, running: dict) -> None:
    partial = state.with_suffix(".partial")
    partial.write_text(json.dumps(running))
    partial.replace(state)
