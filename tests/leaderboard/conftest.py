"""Fixtures for the leaderboard: a data folder of several models evaluated by the real engine."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pandas as pd
import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from leaderboard.results import ResultsStore
from leaderboard.writing_bench_tables import table_for_runs
from tests.support.built_once import built_once
from tests.support.run_folders import EvaluatedData, build_evaluated_data

CHROMIUM = "/usr/bin/chromium"
# `expect` waits 5 s by default, pages 20 s (UI_TIMEOUT_MS): under a parallel `make test` on 2 cores a
# Gradio page can take longer than 5 s to render, so assertions wait as long as page actions do.
expect.set_options(timeout=20_000)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    """Five models judged by the stand-in judge; shared, so tests must not change it."""
    return built_once(tmp_path_factory, "leaderboard-evaluated", build_evaluated_data)


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
    return table_for_runs(store.snapshot().runs)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium for one browser-test module (never a downloaded build)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (`make browser`)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
