"""The board's table pushed to the results repo as config `board`, beside the runs' configs, loaded as a user would."""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd
import pytest
import yaml
from datasets import get_dataset_config_names, load_dataset

from eval_backend.hub_sync import config_name, push_run
from eval_backend.hub_sync.board_push import push_board
from eval_backend.hub_sync.dataset_card import BOARD_PATH
from eval_backend.hub_sync.layout import repo_run
from eval_backend.run_folder import RunFolder
from tests.eval_backend.hub_sync.conftest import RESULTS_REPO, TOKEN, dead_endpoint, hub_settings
from tests.eval_backend.hub_sync.test_results_push import runs
from tests.support.hub_repo_server import StandInHubRepos, point_clients_at
from tests.support.readable_runs import LONG_IDS

HAND_WRITTEN = {"config_name": "notes", "data_files": [{"split": "train", "path": "notes/notes.csv"}]}


def board_parquet(folder: Path, headline: float = 8.6) -> Path:
    """A board table as the app writes it: a 100-character id, a partial run, a Devanagari and a Shahmukhi cell."""
    frame = pd.DataFrame({
        "benchmark": ["indic_writing_bench", "indic_writing_bench", "saraiki"],
        "model": [LONG_IDS[0], "bharat/partial-1b", LONG_IDS[1]],
        "headline": [headline, 4.45, 50.0],
        "rank_best": pd.array([1, None, 1], dtype="Int64"),
        "standing_note": ["", "partial: 2 of 4 configs", ""],
        "note": ["हिंदी में उत्तर", "", "ملتان ہک پراݨا شہر ہے"],
    })
    path = folder / f"board-{headline}.parquet"
    frame.to_parquet(path, index=False)
    return path


def card_configs(hub: StandInHubRepos) -> list[dict]:
    card = hub.dataset_files(RESULTS_REPO)["README.md"].decode()
    return yaml.safe_load(card.split("---")[1])["configs"]


def test_the_board_loads_with_datasets_beside_every_run_config(hub, data_dir, tmp_path, monkeypatch) -> None:
    settings = hub_settings(data_dir, hub.url)
    for path in runs(data_dir).values():
        assert push_run(RunFolder(path), settings)
    table = board_parquet(tmp_path)

    assert push_board(table, settings)

    point_clients_at(hub, monkeypatch)
    names = set(get_dataset_config_names(RESULTS_REPO))
    assert names == {"board", *(config_name(repo_run(run)) for run in runs(data_dir))}
    loaded = load_dataset(RESULTS_REPO, "board", split="train", cache_dir=str(tmp_path / "cache")).to_pandas()
    pd.testing.assert_frame_equal(loaded, pd.read_parquet(table), check_dtype=False)
    assert loaded["model"][0] == LONG_IDS[0] and len(LONG_IDS[0]) == 100


def test_an_unchanged_board_is_not_committed_again_and_a_new_one_replaces_it(hub, data_dir, tmp_path) -> None:
    settings = hub_settings(data_dir, hub.url)
    assert push_board(board_parquet(tmp_path), settings)
    commits = hub.commit_count(RESULTS_REPO)

    assert push_board(board_parquet(tmp_path), settings)  # a restarted app finds its board there
    assert hub.commit_count(RESULTS_REPO) == commits

    newer = board_parquet(tmp_path, headline=9.1)
    assert push_board(newer, settings)
    assert hub.commit_count(RESULTS_REPO) == commits + 1
    assert hub.dataset_files(RESULTS_REPO)[BOARD_PATH] == newer.read_bytes()
    assert [entry["config_name"] for entry in card_configs(hub)] == ["board"]


def test_the_card_keeps_every_other_config_and_a_run_push_keeps_the_board(hub, data_dir, tmp_path) -> None:
    settings = hub_settings(data_dir, hub.url)
    first, second = sorted(runs(data_dir).values())
    assert push_run(RunFolder(first), settings)
    card = hub.dataset_files(RESULTS_REPO)["README.md"].decode()
    edited = card.replace("configs:\n", "configs:\n" + yaml.safe_dump([HAND_WRITTEN], sort_keys=False), 1)
    hub._add_commit(hub.repos[("dataset", RESULTS_REPO)], {"README.md": edited.encode()})

    assert push_board(board_parquet(tmp_path), settings)
    names = [entry["config_name"] for entry in card_configs(hub)]
    assert names[0] == "board" and HAND_WRITTEN in card_configs(hub) and len(names) == 3
    assert "# Indic WritingBench results" in hub.dataset_files(RESULTS_REPO)["README.md"].decode()

    assert push_run(RunFolder(second), settings)  # the card a run's push writes lists the board too
    assert {"board", config_name(repo_run(f"indic_writing_bench/{second.parent.name}/{second.name}"))} <= {
        entry["config_name"] for entry in card_configs(hub)}


@pytest.mark.parametrize("down", ["refused", "unreachable"])
def test_a_hub_that_fails_is_logged_and_reported_not_raised(hub, data_dir, tmp_path, caplog, down) -> None:
    caplog.set_level(logging.DEBUG)
    if down == "refused":
        hub.fail(r"/commit/", status=500, times=5)
    endpoint = hub.url if down == "refused" else dead_endpoint()

    assert not push_board(board_parquet(tmp_path), hub_settings(data_dir, endpoint))
    assert "could not push the board to board/results" in caplog.text
    assert TOKEN not in caplog.text
    assert ("dataset", RESULTS_REPO) not in hub.repos or BOARD_PATH not in hub.dataset_files(RESULTS_REPO)


def test_nothing_is_pushed_without_a_token(hub, data_dir, tmp_path) -> None:
    assert not push_board(board_parquet(tmp_path), hub_settings(data_dir, hub.url, token=None))
    assert hub.recorded == []
