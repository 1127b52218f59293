"""Fixtures for engine tests: a small dataset in Hub layout and a stand-in judge on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.dataset_loader import DatasetSpec, discover_configs, load_items
from eval_backend.settings import JudgeSettings
from tests.support.chat_server import StandInChatServer
from tests.support.hub_dataset import DatasetShape, write_writing_bench_dataset

BENCHMARK = BENCHMARKS["indic_writing_bench"]
SMALL_SHAPE = DatasetShape(configs={"Hindi": 4, "Tamil": 3, "english_original": 2})


@pytest.fixture(scope="session")
def dataset_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_writing_bench_dataset(tmp_path_factory.mktemp("dataset"), SMALL_SHAPE)


@pytest.fixture(scope="session")
def items(dataset_dir: Path) -> list[Item]:
    spec = DatasetSpec(str(dataset_dir))
    return load_items(BENCHMARK, spec, discover_configs(spec))


@pytest.fixture
def judge_server() -> Iterator[StandInChatServer]:
    with StandInChatServer() as server:
        yield server


@pytest.fixture
def judge_env(judge_server: StandInChatServer, monkeypatch: pytest.MonkeyPatch) -> StandInChatServer:
    """Point the engine's settings at the stand-in judge, as a user would with env variables."""
    monkeypatch.setenv("OPENAI_BASE_URL", judge_server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
    monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
    return judge_server


def fast_judge_settings(server: StandInChatServer, **overrides: object) -> JudgeSettings:
    """Judge settings for the stand-in with short backoffs, so retry tests take milliseconds."""
    values = {
        "base_url": server.base_url,
        "api_key": "sk-test-not-a-secret",
        "model": "stand-in-judge",
        "max_backoff_s": 0.05,
        **overrides,
    }
    return JudgeSettings(**values)
