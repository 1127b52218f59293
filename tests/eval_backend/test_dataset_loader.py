"""Items load with `datasets` from a folder in the Hub layout, and bad data is named."""

from __future__ import annotations

import re
from pathlib import Path

import datasets.config
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from huggingface_hub import constants as hub_constants

from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.qa.plugin import INDIC_QA
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
from tests.support.hub_repo_server import StandInHubRepos, publish_dataset_folder
from tests.support.hub_server import HubResponse, StandInHub
from tests.support.qa_dataset import QA_ROWS, write_qa_dataset


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


# A CSV config is read as text, as `qa-score` reads a responses CSV: NA-like golden answers and
# number-only columns are the text written, in a local folder, a Hub repo, or beside parquet.
QA_AS_WRITTEN = {
    "hindi": (
        ("भारत की राजधानी का कोड क्या है? (उत्तर न हो तो NA)", "NA", "Polity"),
        ("किस वर्ष भारत स्वतंत्र हुआ?", "1947", "History"),
        ("जुलाई कौन सा महीना है?", "07", "Calendar"),
        ("कौन सा मान लौटाया गया?", "None", "Computing "),
        ("ख़ाली उत्तर?", "", ""),
    ),
    "tamil": (
        ("மதிப்பு என்ன?", "nan", "Science"),
        ("பதில் கிடைக்கவில்லை என்றால்?", "N/A", "Meta"),
        ("எந்த மதிப்பு?", "null", "Computing"),
        ("வெப்பநிலை?", "-0.50", "Science"),
    ),
}


def qa_items(folder: Path) -> list[tuple[str, int, str, str, str]]:
    items = load_items(INDIC_QA, DatasetSpec(str(folder)), resolve_configs(DatasetSpec(str(folder)), None))
    return [(item.config, item.index, item.question, item.answer, item.domain) for item in items]


def expected_qa_items() -> list[tuple[str, int, str, str, str]]:
    return [(config, index, question, answer, domain or "unspecified")
            for config, rows in QA_AS_WRITTEN.items() for index, (question, answer, domain) in enumerate(rows)]


def test_a_csv_config_is_read_as_the_text_written_like_its_parquet_copy(tmp_path: Path) -> None:
    csv_items = qa_items(write_qa_dataset(tmp_path / "csv", QA_AS_WRITTEN, fmt="csv"))
    assert csv_items == expected_qa_items()
    assert qa_items(write_qa_dataset(tmp_path / "parquet", QA_AS_WRITTEN)) == csv_items


def test_a_dataset_mixing_csv_and_parquet_configs_loads_both(tmp_path: Path) -> None:
    for name, formats in (("mostly-parquet", {"hindi": "csv", "tamil": "parquet"}),
                          ("mostly-csv", {"hindi": "parquet", "tamil": "csv"})):
        assert qa_items(write_qa_dataset(tmp_path / name, QA_AS_WRITTEN, fmt=formats)) == expected_qa_items()


def test_parquet_numbers_are_their_text_and_a_nan_is_refused(tmp_path: Path) -> None:
    folder = write_qa_dataset(tmp_path / "qa", {"english": QA_ROWS["english"][:1]})
    table = pa.table({"question": ["Year?", "Ratio?", "Missing?"], "answer": pa.array([1947, 7, None], pa.int64()),
                      "Domain": ["History", "Science", "Meta"]})
    pq.write_table(table, folder / "english" / "train.parquet")
    assert [item[3] for item in qa_items(folder)] == ["1947", "7", ""]
    floats = table.set_column(1, "answer", pa.array([7.5, float("nan"), 1.0], pa.float64()))
    pq.write_table(floats, folder / "english" / "train.parquet")
    with pytest.raises(ItemValidationError, match=r"config 'english', row 1: field 'answer' is the number nan"):
        qa_items(folder)


def test_a_csv_row_with_missing_cells_is_refused_naming_file_and_row(tmp_path: Path) -> None:
    folder = write_qa_dataset(tmp_path / "qa", QA_AS_WRITTEN, fmt="csv")
    path = folder / "tamil" / "train.csv"
    path.write_text(path.read_text(encoding="utf-8") + "ஒரு கேள்வி?,சென்னை\n", encoding="utf-8")
    with pytest.raises(DatasetLoadError, match=r"tamil/train.csv: data rows 5 have fewer cells than the header"):
        qa_items(folder)


def test_a_hub_repo_s_csv_config_is_read_as_text_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_qa_dataset(tmp_path / "qa", QA_AS_WRITTEN, fmt={"hindi": "csv", "tamil": "parquet"})
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "cache")
    with StandInHubRepos() as hub:
        publish_dataset_folder(hub, monkeypatch, "sarvam/indic-qa-test", folder)
        spec = DatasetSpec("sarvam/indic-qa-test", resolve_revision(DatasetSpec("sarvam/indic-qa-test")))
        items = load_items(INDIC_QA, spec, resolve_configs(spec, None))
    assert [(i.config, i.index, i.question, i.answer, i.domain) for i in items] == expected_qa_items()
