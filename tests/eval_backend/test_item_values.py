"""The compact per-item values file: written at scoring, taken on first read for older runs, kept while current."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.feather as feather
import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.details import read_details, write_details
from eval_backend.answer_style import measured_answers, answer_measures
from eval_backend.item_values import ITEM_VALUES_FILE, MEASURE_PREFIX, item_values, values_of_details
from eval_backend.run_folder import RunFolder
from tests.support.saraiki_runs import build_saraiki_runs

FROZEN = Path(__file__).parents[1] / "support" / "frozen_runs"
WRITING_STATISTICS = BENCHMARKS["indic_writing_bench"].item_statistics()


def _frozen_copy(tmp_path: Path, name: str = "acme__reasoner-3b") -> RunFolder:
    """A WritingBench run folder scored by main before the compact file existed (tests/support/frozen_runs)."""
    [revision] = (FROZEN / "indic_writing_bench" / name).iterdir()
    return RunFolder(Path(shutil.copytree(revision, tmp_path / name / revision.name)))


def _values_straight_from_details(folder: RunFolder) -> pd.DataFrame:
    details = read_details(folder.details_path)
    return pd.concat([details[["config", "index", "variant", "domain"]], WRITING_STATISTICS.values(details)], axis=1)


def test_scoring_writes_the_values_beside_the_summary(tmp_path: Path) -> None:
    data = build_saraiki_runs(tmp_path)  # Shahmukhi text, every task's figure
    statistics = BENCHMARKS["saraiki"].item_statistics()
    for folder in data.folders.values():
        written = (folder.path / ITEM_VALUES_FILE).stat().st_mtime_ns  # scoring wrote it
        kept = item_values(folder, statistics)
        assert (folder.path / ITEM_VALUES_FILE).stat().st_mtime_ns == written  # current: read, not taken again
        pd.testing.assert_frame_equal(kept, values_of_details(folder, statistics))
        assert set(kept.columns) == {"config", "index", *statistics.subsets, *(f.name for f in statistics.figures)}
        assert (folder.path / ITEM_VALUES_FILE).stat().st_size < folder.details_path.stat().st_size


def test_a_run_scored_before_gets_the_file_on_its_first_read_and_reads_it_after(tmp_path: Path) -> None:
    folder = _frozen_copy(tmp_path)
    assert not (folder.path / ITEM_VALUES_FILE).exists()
    first = item_values(folder, WRITING_STATISTICS)
    expected = _values_straight_from_details(folder)
    assert first[["config", "index"]].values.tolist() == expected[["config", "index"]].values.tolist()
    np.testing.assert_array_equal(first[["indic", "overall"]].to_numpy(), expected[["indic", "overall"]].to_numpy())
    kept = folder.path / ITEM_VALUES_FILE
    assert kept.is_file()
    # The kept file, changed where details.parquet was not, is what the next read gives: it is read, not details.
    table = feather.read_table(kept)
    changed = first.assign(overall=first["overall"].where(first.index != 0, 2.5))
    feather.write_feather(pa.Table.from_pandas(changed, preserve_index=False).replace_schema_metadata(
        table.schema.metadata), kept)
    assert item_values(folder, WRITING_STATISTICS).loc[0, "overall"] == 2.5


def test_the_file_is_the_same_bytes_wherever_it_is_taken_so_a_copy_or_a_hub_pull_keeps_it(tmp_path: Path) -> None:
    folder = _frozen_copy(tmp_path)
    item_values(folder, WRITING_STATISTICS)
    kept = folder.path / ITEM_VALUES_FILE
    first = kept.read_bytes()
    copied = RunFolder(Path(shutil.copytree(folder.path, tmp_path / "copy" / "main")))
    kept.unlink()
    folder.details_path.touch()  # newer than any kept file: taken again
    item_values(folder, WRITING_STATISTICS)
    assert kept.read_bytes() == first
    stamp = (copied.path / ITEM_VALUES_FILE).stat().st_mtime_ns
    item_values(copied, WRITING_STATISTICS)
    assert (copied.path / ITEM_VALUES_FILE).stat().st_mtime_ns == stamp  # current in the copy: read, not rewritten


def test_details_rewritten_since_make_the_kept_values_stale(tmp_path: Path) -> None:
    folder = _frozen_copy(tmp_path)
    item_values(folder, WRITING_STATISTICS)
    details = read_details(folder.details_path)
    scored = details.index[details["item_score"].notna()][0]
    write_details(details.assign(item_score=details["item_score"].where(details.index != scored, 1.0)),
                  folder.details_path)
    again = item_values(folder, WRITING_STATISTICS)
    assert again.loc[scored, "overall"] == 1.0
    assert feather.read_table(folder.path / ITEM_VALUES_FILE).column("overall")[int(scored)].as_py() == 1.0


def test_a_folder_where_the_file_cannot_be_written_still_reads(tmp_path: Path) -> None:
    folder = _frozen_copy(tmp_path)
    if os.geteuid() == 0:  # root writes in any folder: a folder in the file's place stops the write instead
        (folder.path / ITEM_VALUES_FILE).mkdir()
        (folder.path / ITEM_VALUES_FILE / "keep").write_text("x")
    else:
        folder.path.chmod(0o500)
    try:
        values = item_values(folder, WRITING_STATISTICS)
    finally:
        folder.path.chmod(0o700)
    expected = _values_straight_from_details(folder)
    np.testing.assert_array_equal(values["overall"].to_numpy(), expected["overall"].to_numpy())
    assert not (folder.path / ITEM_VALUES_FILE).is_file()
    assert [path.name for path in folder.path.iterdir() if path.name.startswith(".")] == []  # no temp file left


@pytest.mark.parametrize("name", sorted(path.name for path in (FROZEN / "indic_writing_bench").iterdir()))
def test_every_frozen_run_passes_the_checks(tmp_path: Path, name: str) -> None:
    """Partial runs, failed judgments, a 100-character id cut off in thinking: real folders are never refused."""
    folder = _frozen_copy(tmp_path, name)
    values = item_values(folder, WRITING_STATISTICS)
    assert len(values) == len(read_details(folder.details_path))


def test_scoring_keeps_the_answer_measures_beside_the_values_and_a_read_takes_them_from_there(tmp_path: Path) -> None:
    data = build_saraiki_runs(tmp_path)
    benchmark = BENCHMARKS["saraiki"]
    statistics = benchmark.item_statistics()
    for folder in data.folders.values():
        kept = folder.path / ITEM_VALUES_FILE
        written = kept.stat().st_mtime_ns
        measures = answer_measures(folder, benchmark)
        assert kept.stat().st_mtime_ns == written  # kept at scoring: read, not measured again
        pd.testing.assert_frame_equal(measures, measured_answers(folder, benchmark), check_dtype=False)
        assert set(item_values(folder, statistics).columns) == {  # the figures' readers see no measure
            "config", "index", *statistics.subsets, *(f.name for f in statistics.figures)}


def test_a_run_scored_before_gets_its_answer_measures_kept_on_first_read(tmp_path: Path) -> None:
    folder = _frozen_copy(tmp_path)
    benchmark = BENCHMARKS["indic_writing_bench"]
    first = answer_measures(folder, benchmark)
    kept = folder.path / ITEM_VALUES_FILE
    table = feather.read_table(kept)
    assert f"{MEASURE_PREFIX}characters" in table.column_names and f"{MEASURE_PREFIX}log_length" in table.column_names
    # The kept file, changed where details.parquet was not, is what the next read gives: it is read, not measured.
    changed = table.set_column(table.column_names.index(f"{MEASURE_PREFIX}characters"), f"{MEASURE_PREFIX}characters",
                               pa.array([12345.0] * table.num_rows))
    feather.write_feather(changed, kept)
    assert (answer_measures(folder, benchmark)["characters"] == 12345.0).all()
    pd.testing.assert_frame_equal(first, measured_answers(folder, benchmark), check_dtype=False)
    later = kept.stat().st_mtime_ns + 10**9
    os.utime(folder.details_path, ns=(later, later))  # details written since the kept file: measured again
    assert answer_measures(folder, benchmark)["characters"].tolist() == first["characters"].tolist()
