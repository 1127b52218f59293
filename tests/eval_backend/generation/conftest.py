"""Fixtures for generation tests: tiny chat models on disk and a run folder spec to generate into."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.pipeline import RunSpec
from eval_backend.run_folder import RunFolder
from tests.support.built_once import built_once
from tests.support.tiny_model import build_tiny_chat_model

BENCHMARK = BENCHMARKS[DEFAULT_BENCHMARK]
SHORT_CONTEXT = 64
"""Shorter than any dataset query's prompt, longer than a one-line question's."""


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, "tiny-model", build_tiny_chat_model)


@pytest.fixture(scope="session")
def short_context_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, f"tiny-model-context-{SHORT_CONTEXT}",
                      lambda root: build_tiny_chat_model(root, max_position_embeddings=SHORT_CONTEXT))


@pytest.fixture(scope="session")
def templateless_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, "tiny-model-templateless",
                      lambda root: build_tiny_chat_model(root, chat_template=None))


@pytest.fixture
def run_spec(tmp_path: Path, dataset_dir: Path) -> RunSpec:
    return RunSpec(BENCHMARK, DatasetSpec(str(dataset_dir)), RunFolder(tmp_path / "run"))
