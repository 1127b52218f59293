"""`score` on a judged run folder: what it refuses (exit 2, the summary left as it was) and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_backend.cli import main
from tests.eval_backend.cli.test_judge_cmd import run_judge, write_responses


@pytest.fixture
def judged_folder(tmp_path, dataset_dir, items, judge_env) -> Path:
    out = tmp_path / "run"
    assert run_judge(dataset_dir, write_responses(tmp_path / "responses.jsonl", items), out) == 0
    return out


def test_a_judge_that_judged_nothing_in_the_folder_is_refused_naming_both_judges(judged_folder, capsys) -> None:
    """Scoring by a judge the folder never used would rewrite a complete run as "n/a over 0/11"."""
    summary = (judged_folder / "summary.json").read_bytes()
    assert json.loads(summary)["complete"]
    capsys.readouterr()
    assert main(["score", "--out-dir", str(judged_folder), "--judge-model", "another-judge"]) == 2
    err = capsys.readouterr().err
    assert "judge 'another-judge' judged nothing" in err and "'stand-in-judge'" in err, err
    assert "Traceback" not in err
    assert (judged_folder / "summary.json").read_bytes() == summary


def test_the_judge_that_did_judge_the_folder_is_accepted_by_name(judged_folder) -> None:
    assert main(["score", "--out-dir", str(judged_folder), "--judge-model", "stand-in-judge"]) == 0
    assert json.loads((judged_folder / "summary.json").read_text())["complete"]


@pytest.mark.parametrize("name", ["judgments.jsonl", "responses.jsonl", "request.json"])
def test_a_folder_where_a_run_file_should_be_exits_2_naming_its_path(judged_folder, capsys, name) -> None:
    path = judged_folder / name
    path.unlink()
    path.mkdir()
    summary = (judged_folder / "summary.json").read_bytes()
    capsys.readouterr()
    assert main(["score", "--out-dir", str(judged_folder)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: cannot be read" in err and "Traceback" not in err, err
    assert (judged_folder / "summary.json").read_bytes() == summary
