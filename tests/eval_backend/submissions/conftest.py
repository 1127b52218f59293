"""Fixtures for the submission tests: a queue (SQLite and PostgreSQL), a stand-in Hub, settings, a tiny model."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import huggingface_hub.constants
import pytest

from eval_backend.settings import DataSettings, HubSettings, QueueSettings, Settings
from tests.support.built_once import built_once
from tests.support.hub_server import StandInHub
from tests.support.queue_backends import queue_backend, store  # noqa: F401  (fixtures: both backends)
from tests.support.tiny_model import build_tiny_chat_model


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandInHub]:
    """A stand-in Hub; the test session's offline switch is lifted so huggingface_hub may reach it."""
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    with StandInHub() as server:
        yield server


def make_settings(data_dir: Path, hub: StandInHub | None = None, *, dataset: Path | None = None, **queue: Any) -> Settings:
    """Settings over `data_dir` (and `dataset`), reaching the stand-in Hub, with `queue` overrides.

    The judge section is read from the environment, as in production (see `judge_env`).
    """
    access = {"hf_endpoint": hub.url if hub else None, "hf_token": queue.pop("hf_token", None)}
    data = DataSettings(data_dir=data_dir, dataset=str(dataset) if dataset else None)
    return Settings(data=data, queue=QueueSettings(**queue), hub=HubSettings(**access))


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, "tiny-model", build_tiny_chat_model)
