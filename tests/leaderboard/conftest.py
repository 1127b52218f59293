"""Fixtures for the leaderboard: a data folder of several models evaluated by the real engine."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from leaderboard.results import ResultsStore
from leaderboard.tables import table_for_runs
from tests.support.run_folders import EvaluatedData, build_evaluated_data


@pytest.fixture(scope="session")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    """Five models judged by the stand-in judge; shared, so tests must not change it."""
    return build_evaluated_data(tmp_path_factory.mktemp("evaluated"))


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

