"""The published dataset is gated: a token without granted access gets told what to do."""

from __future__ import annotations

from pathlib import Path

import datasets.config
import pytest
from huggingface_hub import constants as hub_constants

from eval_backend.benchmarks.saraiki.tasks import DATASET_ID
from eval_backend.dataset_loader import DatasetLoadError, DatasetSpec, discover_configs
from tests.support.hub_repo_server import StandInHubRepos
from tests.support.hub_server import HubRepo


def test_a_gated_dataset_says_to_accept_its_conditions(
    saraiki_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    files = {path.relative_to(saraiki_dir).as_posix(): path.read_bytes() for path in saraiki_dir.rglob("*") if path.is_file()}
    with StandInHubRepos() as hub:
        repo = hub.repos[("dataset", DATASET_ID)] = HubRepo(DATASET_ID, "dataset", gated=True)
        hub._add_commit(repo, files)
        # The Hub client and `datasets` read the endpoint and offline mode once, at import (the
        # suite runs offline); these are where those values live.
        monkeypatch.setattr(hub_constants, "ENDPOINT", hub.url)
        monkeypatch.setattr(hub_constants, "HUGGINGFACE_CO_URL_TEMPLATE", hub.url + "/{repo_id}/resolve/{revision}/{filename}")
        monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", False)
        monkeypatch.setattr(datasets.config, "HF_ENDPOINT", hub.url)
        monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)
        monkeypatch.setenv("HF_HUB_OFFLINE", "0")
        monkeypatch.setenv("HF_DATASETS_OFFLINE", "0")
        monkeypatch.setenv("HF_TOKEN", "hf_not_granted")
        with pytest.raises(DatasetLoadError) as error:
            discover_configs(DatasetSpec(DATASET_ID))
    message = str(error.value)
    assert f"https://huggingface.co/datasets/{DATASET_ID}" in message and "accept its conditions" in message
    assert "HF_TOKEN" in message and "hf_not_granted" not in message
