"""Fixtures for the Hub mirror: a stand-in Hub with dataset repos, evaluated run folders, settings."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import huggingface_hub.constants
import pytest

from eval_backend.settings import DataSettings, HubSettings, Settings
from tests.support.built_once import built_once
from tests.support.hub_repo_server import StandInHubRepos
from tests.support.run_folders import DEFAULT_PROFILES, EvaluatedData, build_evaluated_data

TOKEN = "hf_stand_in_secret_8c1f0e2a"
RESULTS_REPO = "board/results"
REQUESTS_REPO = "board/requests"


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandInHubRepos]:
    # The suite runs huggingface_hub offline; the stand-in on 127.0.0.1 is the one Hub allowed here.
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    with StandInHubRepos() as server:
        yield server


@pytest.fixture(scope="session")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    """Two models evaluated by the real engine (prepare, import, judge, score) into run folders."""
    return built_once(tmp_path_factory, "hub-sync-evaluated-2-models", lambda root: build_evaluated_data(
        root, DEFAULT_PROFILES[:2], configs={"Hindi": 3, "Tamil": 2}
    ))


@pytest.fixture
def data_dir(tmp_path: Path, evaluated: EvaluatedData) -> Path:
    """A writable copy of the evaluated data folder."""
    return Path(shutil.copytree(evaluated.data_dir, tmp_path / "worker-data"))


def hub_settings(data_dir: Path, endpoint: str, *, token: str | None = TOKEN, requests: bool = True) -> Settings:
    return Settings(
        data=DataSettings(data_dir=data_dir),
        hub=HubSettings(
            hf_token=token, hf_endpoint=endpoint, results_repo=RESULTS_REPO,
            requests_repo=REQUESTS_REPO if requests else None,
        ),
    )


def dead_endpoint() -> str:
    """A 127.0.0.1 URL where nothing listens: the Hub being down."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
