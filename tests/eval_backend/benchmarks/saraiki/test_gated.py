"""The published dataset is gated: a token without granted access gets told what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval_backend.benchmarks.saraiki.tasks import DATASET_ID
from eval_backend.dataset_loader import DatasetLoadError, DatasetSpec, discover_configs
from tests.support.hub_repo_server import StandInHubRepos, publish_dataset_folder


def test_a_gated_dataset_says_to_accept_its_conditions(
    saraiki_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with StandInHubRepos() as hub:
        publish_dataset_folder(hub, monkeypatch, DATASET_ID, saraiki_dir, gated=True)
        monkeypatch.setenv("HF_TOKEN", "hf_not_granted")
        with pytest.raises(DatasetLoadError) as error:
            discover_configs(DatasetSpec(DATASET_ID))
    message = str(error.value)
    assert f"https://huggingface.co/datasets/{DATASET_ID}" in message and "accept its conditions" in message
    assert "HF_TOKEN" in message and "hf_not_granted" not in message
