"""`compare RUN_A RUN_B`: the table, `--json` with the same figures, and bad input as exit status 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from eval_backend.cli import main
from tests.support.run_folders import DEFAULT_PROFILES, EvaluatedData, build_evaluated_data


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    return build_evaluated_data(tmp_path_factory.mktemp("compare-cli"), DEFAULT_PROFILES[:2])


def _folders(evaluated: EvaluatedData) -> list[str]:
    return [str(evaluated.folders[profile.model_id].path) for profile in DEFAULT_PROFILES[:2]]


def test_the_table_and_the_json_carry_the_same_figures(evaluated: EvaluatedData, capsys) -> None:
    assert main(["compare", *_folders(evaluated), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["a"], report["b"]) == ("acme/strong-7b", "acme/reasoner-3b")
    headline = next(row for row in report["comparisons"] if row["figure"] == "indic" and row["scope"] == "all")
    strong, reasoner = (evaluated.summary(profile.model_id) for profile in DEFAULT_PROFILES[:2])
    expected = strong["config_groups"]["indic"] - reasoner["config_groups"]["indic"]
    assert headline["difference"] == pytest.approx(expected)
    assert headline["ci_low"] <= headline["difference"] <= headline["ci_high"]
    assert headline["wins"] + headline["ties"] + headline["losses"] == headline["n_items"]

    assert main(["compare", *_folders(evaluated)]) == 0
    table = capsys.readouterr().out
    row = next(line for line in table.splitlines() if line.startswith("Indic average") and " all " in line)
    assert f"{headline['difference']:+.3f}" in row
    assert f"[{headline['ci_low']:+.3f}, {headline['ci_high']:+.3f}]" in row
    assert f"{headline['wins']}/{headline['ties']}/{headline['losses']}" in row


def test_configs_and_subsets_restrict_the_items(evaluated: EvaluatedData, capsys) -> None:
    argv = ["compare", *_folders(evaluated), "--configs", "Hindi,Tamil", "--where", "variant=native", "--json"]
    assert main(argv) == 0
    scopes = {row["scope"] for row in json.loads(capsys.readouterr().out)["comparisons"]}
    assert scopes == {"all", "Hindi", "Tamil"}


def test_runs_on_different_dataset_revisions_are_bad_input(evaluated: EvaluatedData, tmp_path: Path, capsys) -> None:
    a, b = _folders(evaluated)
    copy = tmp_path / "b"
    shutil.copytree(b, copy)
    request = json.loads((copy / "request.json").read_text())
    (copy / "request.json").write_text(json.dumps({**request, "dataset_revision": "sha256:older"}))
    assert main(["compare", a, str(copy)]) == 2
    assert "dataset revision" in capsys.readouterr().err


def test_a_malformed_subset_is_refused_by_the_parser(evaluated: EvaluatedData, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", *_folders(evaluated), "--where", "variant"])
    assert exit_info.value.code == 2
    assert "expected COLUMN=V1,V2" in capsys.readouterr().err
