"""One tree of run folders per benchmark, and the one-command move from the one-benchmark layout."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eval_backend.cli import main
from eval_backend.run_folder import RunFolder
from eval_backend.run_layout import benchmark_of_folder, iter_all_run_folders, migrate_legacy_runs
from leaderboard.results import ResultsStore
from tests.support.run_folders import EvaluatedData, build_evaluated_data


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    return build_evaluated_data(tmp_path_factory.mktemp("evaluated"), configs={"Hindi": 2, "Tamil": 2})


@pytest.fixture
def legacy_runs(evaluated: EvaluatedData, tmp_path: Path) -> Path:
    """A data folder as the one-benchmark version wrote it: `runs/<org>__<name>/<revision>/`."""
    runs = tmp_path / "data" / "runs"
    shutil.copytree(evaluated.runs_dir, runs)
    return runs


def test_legacy_folders_move_into_the_writing_bench_tree_and_load_as_before(evaluated, legacy_runs) -> None:
    before = {run.run_id: run.summary for run in ResultsStore(legacy_runs).snapshot().runs}
    report = migrate_legacy_runs(legacy_runs)

    assert sorted(report.moved) == sorted(before) and report.conflicts == []
    assert sorted(path.name for path in legacy_runs.iterdir()) == ["indic_writing_bench"]
    after = {run.run_id: run.summary for run in ResultsStore(legacy_runs / "indic_writing_bench").snapshot().runs}
    assert after == before  # same run ids, same summaries, nothing rewritten
    assert migrate_legacy_runs(legacy_runs).moved == []  # idempotent
    found = list(iter_all_run_folders(legacy_runs))
    assert {name for name, _ in found} == {"indic_writing_bench"} and len(found) == len(before)
    assert all(benchmark_of_folder(legacy_runs, folder) == "indic_writing_bench" for _, folder in found)


def test_a_run_already_in_the_new_tree_is_never_overwritten(legacy_runs) -> None:
    run = sorted(path for path in legacy_runs.glob("*/*") if path.is_dir())[0]
    target = legacy_runs / "indic_writing_bench" / run.parent.name / run.name
    target.mkdir(parents=True)
    (target / "summary.json").write_text("{}")

    report = migrate_legacy_runs(legacy_runs)
    assert report.conflicts == [f"{run.parent.name}/{run.name}"]
    assert (target / "summary.json").read_text() == "{}" and (run / "summary.json").is_file()


def test_the_migrate_runs_command_moves_them_and_says_how_many(legacy_runs, monkeypatch, capsys) -> None:
    monkeypatch.setenv("DATA_DIR", str(legacy_runs.parent))
    count = len(list(legacy_runs.glob("*/*/summary.json")))
    assert main(["migrate-runs"]) == 0
    assert f"moved {count} run folders" in capsys.readouterr().err
    assert len(list((legacy_runs / "indic_writing_bench").glob("*/*/summary.json"))) == count


def test_a_model_folder_is_never_taken_for_a_benchmark(tmp_path) -> None:
    folder = RunFolder.for_model(tmp_path / "indic_qa", "org/model", "main")
    assert folder.path.parent.name == "org__model"  # a model's folder name always holds `__`
    assert benchmark_of_folder(tmp_path, folder) == "indic_qa"
    assert benchmark_of_folder(tmp_path, RunFolder(tmp_path / "elsewhere" / "a__b" / "main")) is None
