"""Fixtures for the leaderboard: a data folder of several models evaluated by the real engine, and the browser
tests' shared pieces: one Chromium for the session, and one app server per read-only data set that every browser
module reading it shares (a test that writes to its data starts a server of its own)."""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pandas as pd
import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from leaderboard.results import ResultsStore
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from leaderboard.scored_tables import ranking_frame
from eval_backend.submissions import NewRequest, SqliteQueueStore
from tests.support.apart import apart
from tests.support.app_server import AppServer, assert_no_traceback, running_app
from tests.support.board_apps import QUEUED, QUEUED_BY, QUEUED_REVISION, READ_ONLY_USER
from tests.support.built_once import built_once
from tests.support.readable_runs import build_readable_data
from tests.support.run_folders import EvaluatedData, build_evaluated_data
from tests.support.shared_server import shared_server

CHROMIUM = "/usr/bin/chromium"
# `expect` waits 5 s by default, pages 20 s (UI_TIMEOUT_MS): under a parallel `make test` on 2 cores a
# Gradio page can take longer than 5 s to render, so assertions wait as long as page actions do.
expect.set_options(timeout=20_000)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    """Five models judged by the stand-in judge; shared, so tests must not change it."""
    return built_once(tmp_path_factory, "leaderboard-evaluated", lambda folder: apart(build_evaluated_data, folder))


@pytest.fixture
def evaluated_copy(evaluated: EvaluatedData, tmp_path: Path) -> Path:
    """A private copy of the runs folder, for tests that add, change or break run folders."""
    runs = tmp_path / "runs"
    shutil.copytree(evaluated.runs_dir, runs)
    return runs


@pytest.fixture(scope="session")
def store(evaluated: EvaluatedData) -> ResultsStore:
    return ResultsStore(evaluated.runs_dir)


@pytest.fixture(scope="session")
def table(store: ResultsStore) -> pd.DataFrame:
    """Indic WritingBench's ranking of the evaluated runs, as its tab reads it."""
    return ranking_frame(store.snapshot().runs, BENCHMARKS[DEFAULT_BENCHMARK])


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium (never a downloaded build), one for every browser test of this process: each test opens
    a fresh context. Data built after it started is built `apart` (tests/support/apart.py says why)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (`make browser`)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def board_app(evaluated: EvaluatedData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """`app.py` over a copy of the evaluated board with two requests queued, for every browser test that only
    reads it (one for all xdist workers: `shared_server`); its log is `app.log` beside the data folder."""
    yield from shared_server(tmp_path_factory, "board-app", lambda: _board_app(evaluated, tmp_path_factory))


@contextmanager
def _board_app(evaluated: EvaluatedData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("board-app")
    shutil.copytree(evaluated.data_dir, root / "data")
    queue = SqliteQueueStore(root / "data" / "queue.sqlite")
    for model, benchmark, mode in QUEUED:
        queue.add(NewRequest(model_id=model, revision=QUEUED_REVISION, requested_revision="main", precision="bfloat16",
                             reasoning=False, submitter=QUEUED_BY, benchmark=benchmark, chat_mode=mode))
    with running_app(root / "data", root / "app.log", LOCAL_USER=READ_ONLY_USER) as server:
        yield server


@pytest.fixture(scope="session")
def readable_data(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    """Runs with 100-character model ids and prompts in Devanagari, Tamil and Bengali (`readable_runs`)."""
    return built_once(tmp_path_factory, "readable", lambda folder: apart(build_readable_data, folder))


@pytest.fixture(scope="session")
def readable_app(readable_data: EvaluatedData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """`app.py` over the readable runs, shared by the modules (and xdist workers) that only read them; no view may
    raise on the server."""
    yield from shared_server(tmp_path_factory, "readable-app", lambda: _readable_app(readable_data))


@contextmanager
def _readable_app(readable_data: EvaluatedData) -> Iterator[AppServer]:
    log = readable_data.data_dir.parent / "app.log"
    with running_app(readable_data.data_dir, log) as server:
        yield server
    assert_no_traceback(log)
