"""Items load with `datasets` from a folder in the Hub layout, and bad data is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval_backend.benchmarks import ItemValidationError
from eval_backend.dataset_loader import DatasetLoadError, DatasetSpec, discover_configs, load_items, resolve_configs
from tests.eval_backend.conftest import BENCHMARK, SMALL_SHAPE
from tests.support.hub_dataset import make_rows, write_readme, write_rows


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
