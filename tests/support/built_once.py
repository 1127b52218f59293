"""An expensive, read-only fixture built once per test run and shared by every pytest-xdist worker.

Under xdist each worker is its own process with its own session fixtures, so a session fixture
that builds a data folder or a model would be built once per worker. The workers of one run share
`tmp_path_factory.getbasetemp().parent`: the first worker to take the lock there builds, the
others wait and load what it built. Without xdist that parent is shared by every pytest run on the
machine, so the fixture is built in the run's own temp folder instead.

    @pytest.fixture(scope="session")
    def evaluated(tmp_path_factory):
        return built_once(tmp_path_factory, "evaluated-5-models", build_evaluated_data)

`name` must say everything the build depends on (two fixtures with different arguments need two
names); `build(folder)` writes into `folder` and returns a picklable record of what it wrote.
Tests must treat the result as read-only: other workers read it at the same time.
"""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from pathlib import Path
from typing import Callable, TypeVar

import pytest

T = TypeVar("T")
_RECORD = "built.pickle"


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], T]) -> T:
    """What `build` returns for a folder named `name`, built by one worker of this run and loaded by the others."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return build(tmp_path_factory.mktemp(name))
    shared = tmp_path_factory.getbasetemp().parent / "built-once"
    shared.mkdir(exist_ok=True)
    folder, record = shared / name, shared / f"{name}.{_RECORD}"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if this worker dies
        if record.exists():
            return pickle.loads(record.read_bytes())
        shutil.rmtree(folder, ignore_errors=True)  # what a worker that failed midway left
        folder.mkdir()
        built = build(folder)
        partial = record.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(built))
        partial.replace(record)
        return built
