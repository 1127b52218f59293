"""`compare RUN_A RUN_B`: the table, `--json` with the same figures, and bad input as exit status 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
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


def _damaged_copy(folder: str, root: Path, change) -> str:
    """A copy of run folder `folder` whose details.parquet is `change(details)`."""
    copy = root / Path(folder).parent.name
    shutil.copytree(folder, copy)
    details = pd.read_parquet(copy / "details.parquet")
    change(details).to_parquet(copy / "details.parquet")
    return str(copy)


@pytest.mark.parametrize(("change", "named"), [
    (lambda details: details.assign(index=details["index"].astype(str)),
     "column 'index' must hold whole numbers"),
    (lambda details: details.assign(config=range(len(details))), "column 'config' must hold non-empty text"),
    (lambda details: details.drop(columns=["item_score"]), "no column 'item_score'"),
    (lambda details: pd.concat([details, details.iloc[[0, 7]]]), "item ('Hindi', 0) appears 2 times (and 1 more item(s) repeat)"),
    (lambda details: details.assign(item_score=[float("inf")] + [5.0] * (len(details) - 1)),
     "figure 'indic' must be within [1, 10]"),
])
def test_a_malformed_details_parquet_is_bad_input_naming_the_file_and_fault(
    evaluated: EvaluatedData, tmp_path: Path, capsys, change, named
) -> None:
    a, b = _folders(evaluated)
    damaged = _damaged_copy(a, tmp_path, change)
    assert main(["compare", damaged, b]) == 2
    error = capsys.readouterr().err
    assert f"{damaged}/details.parquet" in error and named in error
    assert "Traceback" not in error


def test_garbage_bytes_for_details_parquet_are_bad_input(evaluated: EvaluatedData, tmp_path: Path, capsys) -> None:
    a, b = _folders(evaluated)
    copy = tmp_path / "b"
    shutil.copytree(b, copy)
    (copy / "details.parquet").write_bytes(b"PAR1 not really \x00\xff" * 40)
    assert main(["compare", a, str(copy)]) == 2
    assert f"{copy}/details.parquet: not a readable parquet table" in capsys.readouterr().err


@pytest.mark.parametrize("keep_lines", [None, 5])
def test_a_missing_or_truncated_items_jsonl_is_refused(
    evaluated: EvaluatedData, tmp_path: Path, capsys, keep_lines
) -> None:
    # Today's main merged the unlisted items into one cluster per config (p = 1, intervals of width 0).
    a, b = _folders(evaluated)
    copy = tmp_path / "a"
    shutil.copytree(a, copy)
    items = copy / "items.jsonl"
    if keep_lines is None:
        items.unlink()
    else:
        items.write_text("".join(items.read_text().splitlines(keepends=True)[:keep_lines]))
    assert main(["compare", str(copy), b]) == 2
    error = capsys.readouterr().err
    assert str(items) in error
    assert ("missing" in error) if keep_lines is None else ("19 scored item(s) are not listed" in error)


def test_a_negative_seed_is_refused_by_the_parser(evaluated: EvaluatedData, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", *_folders(evaluated), "--seed", "-1"])
    assert exit_info.value.code == 2
    assert "argument --seed: must be at least 0, got -1" in capsys.readouterr().err


def test_one_shared_item_has_no_interval_p_value_or_verdict_and_the_json_stays_strict(
    evaluated: EvaluatedData, tmp_path: Path, capsys
) -> None:
    a, b = _folders(evaluated)
    one_item = _damaged_copy(a, tmp_path, lambda details: details.iloc[:1])
    assert main(["compare", one_item, b, "--json"]) == 0
    text = capsys.readouterr().out
    report = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in --json"))
    rows = report["comparisons"]
    assert [(row["scope"], row["n_items"], row["n_clusters"]) for row in rows] == [("all", 1, 1)] * 2
    for row in rows:
        assert row["difference"] is not None
        assert (row["ci_low"], row["ci_high"], row["p_value"], row["adjusted_p_value"]) == (None,) * 4
        assert row["verdict"] == "no verdict" and "1 cluster" in row["no_verdict_reason"]

    assert main(["compare", one_item, b]) == 0
    table = capsys.readouterr().out
    assert f"Indic average: A − B = {rows[0]['difference']:+.3f}: no verdict (rests on 1 cluster" in table
    assert "better" not in table


def test_every_verdict_follows_the_stated_rule(evaluated: EvaluatedData, capsys) -> None:
    assert main(["compare", *_folders(evaluated), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "Holm" in report["verdict_rule"]
    tested = [row for row in report["comparisons"] if row["p_value"] is not None]
    assert {row["family_size"] for row in tested} == {len(tested)}
    for row in report["comparisons"]:
        excludes_zero = row["ci_low"] > 0 or row["ci_high"] < 0
        significant = row["adjusted_p_value"] <= 0.05 and excludes_zero
        assert row["verdict"] == ("A better" if significant else "no significant difference")
    # The Indic languages' rows are listed once (under the Indic average), not again under the overall figure.
    scopes = [row["scope"] for row in report["comparisons"]]
    assert len(scopes) == len(set(scopes)) + 1  # "all" once per figure
