"""Items load with `datasets` from a folder in the Hub layout, and bad data is named."""

from __future__ import annotations

import re
from pathlib import Path

from huggingface_hub import constants as hub_constants
import pytest

from eval_backend.benchmarks import ItemValidationError
from eval_backend.dataset_loader import (
    LOCAL_REVISION_PREFIX,
    DatasetLoadError,
    DatasetSpec,
    config_sizes,
    discover_configs,
    load_items,
    pinned,
    resolve_configs,
    resolve_revision,
)
from tests.eval_backend.conftest import BENCHMARK, SMALL_SHAPE
from tests.support.hub_dataset import make_rows, write_readme, write_rows
from tests.support.hub_server import HubResponse, StandInHub


def test_configs_are_discovered_from_the_readme(dataset_dir: Path) -> None:
    assert sorted(discover_configs(DatasetSpec(str(dataset_dir)))) == sorted(SMALL_SHAPE.configs)


def test_items_keep_nested_fields_and_come_sorted_by_index(dataset_dir: Path) -> None:
    items = load_items(BENCHMARK, DatasetSpec(str(dataset_dir)), ["Tamil"])
    assert [item.index for item in items] == list(range(SMALL_SHAPE.configs["Tamil"]))
    assert all(len(item.checklist) == 5 and item.config == "Tamil" for item in items)
    assert isinstance(items[0].checklist[0], dict)


def test_limit_keeps_the_first_items_of_each_config(dataset_dir: Path) -> None:
    items = load_items(BENCHMARK, DatasetSpec(str(dataset_dir)), ["Hindi", "Tamil"], limit=2)
    assert [item.key for item in items] == [("Hindi", 0), ("Hindi", 1), ("Tamil", 0), ("Tamil", 1)]


def test_an_unknown_config_is_refused_listing_the_available_ones(dataset_dir: Path) -> None:
    with pytest.raises(DatasetLoadError, match=r"no config 'Klingon'; available: .*Hindi"):
        resolve_configs(DatasetSpec(str(dataset_dir)), ["Hindi", "Klingon"])


def test_a_missing_dataset_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(DatasetLoadError, match="nowhere"):
        discover_configs(DatasetSpec(str(tmp_path / "nowhere")))


def test_a_bad_row_is_refused_naming_config_index_and_field(tmp_path: Path) -> None:
    rows = make_rows("Odia", 3)
    rows[2]["checklist"] = rows[2]["checklist"][:3]
    write_rows(tmp_path, "Odia", rows)
    write_readme(tmp_path, ["Odia"])
    with pytest.raises(ItemValidationError, match=r"config 'Odia', index 2: field 'checklist'"):
        load_items(BENCHMARK, DatasetSpec(str(tmp_path)), ["Odia"])


def test_a_duplicate_index_is_refused(tmp_path: Path) -> None:
    rows = make_rows("Odia", 2)
    rows[1]["index"] = 0
    write_rows(tmp_path, "Odia", rows)
    write_readme(tmp_path, ["Odia"])
    with pytest.raises(DatasetLoadError, match="index 0 appears more than once"):
        load_items(BENCHMARK, DatasetSpec(str(tmp_path)), ["Odia"])


def test_a_folder_rewritten_in_place_is_read_as_it_is_now(tmp_path: Path) -> None:
    for count in (3, 5):
        write_rows(tmp_path / "ds", "Odia", make_rows("Odia", count))
        write_readme(tmp_path / "ds", ["Odia"])
        assert len(load_items(BENCHMARK, DatasetSpec(str(tmp_path / "ds")), ["Odia"])) == count


def test_two_folders_with_the_same_name_are_not_confused(tmp_path: Path) -> None:
    for parent, count in (("a", 2), ("b", 4)):
        write_rows(tmp_path / parent / "ds", "Odia", make_rows("Odia", count))
        write_readme(tmp_path / parent / "ds", ["Odia"])
    assert len(load_items(BENCHMARK, DatasetSpec(str(tmp_path / "a" / "ds")), ["Odia"])) == 2
    assert len(load_items(BENCHMARK, DatasetSpec(str(tmp_path / "b" / "ds")), ["Odia"])) == 4


def test_a_local_folder_s_revision_is_the_hash_of_its_content(tmp_path: Path) -> None:
    write_rows(tmp_path, "Hindi", make_rows("Hindi", 2))
    spec = DatasetSpec(str(tmp_path))
    first = resolve_revision(spec)
    assert first.startswith(LOCAL_REVISION_PREFIX) and resolve_revision(spec) == first
    rows = make_rows("Hindi", 2)
    rows[1]["query"] += " (revised)"
    write_rows(tmp_path, "Hindi", rows)
    assert resolve_revision(spec) != first


def test_a_hub_commit_is_pinned_as_given_without_asking_the_hub() -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    assert resolve_revision(DatasetSpec("org/data", commit)) == commit
    assert pinned(DatasetSpec("org/data", commit)) == DatasetSpec("org/data", commit)


def test_config_sizes_count_every_item_of_the_dataset(dataset_dir: Path) -> None:
    assert config_sizes(BENCHMARK, DatasetSpec(str(dataset_dir)), ["Hindi", "Tamil"]) == {
        "Hindi": SMALL_SHAPE.configs["Hindi"], "Tamil": SMALL_SHAPE.configs["Tamil"],
    }


def test_a_hub_branch_resolves_to_its_commit_and_an_unknown_dataset_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    commit = "c" * 40

    def dataset_info(method: str, match: re.Match[str], token: str | None) -> HubResponse:
        if match["repo"] != "sarvam/bench" or match["rev"] != "main":
            return HubResponse.error(404, "RepoNotFound", "Repository not found")
        return HubResponse.json({"id": "sarvam/bench", "sha": commit})

    with StandInHub() as hub:
        hub.route({"GET"}, r"/api/datasets/(?P<repo>[^/]+/[^/]+)/revision/(?P<rev>[^/]+)", dataset_info)
        # The Hub client reads HF_ENDPOINT and HF_HUB_OFFLINE once, at import (the suite runs
        # offline); these are where those values live.
        monkeypatch.setattr(hub_constants, "ENDPOINT", hub.url)
        monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", False)
        assert resolve_revision(DatasetSpec("sarvam/bench", "main")) == commit
        assert pinned(DatasetSpec("sarvam/bench", "main")) == DatasetSpec("sarvam/bench", commit)
        with pytest.raises(DatasetLoadError, match="'sarvam/missing'"):
            resolve_revision(DatasetSpec("sarvam/missing"))
