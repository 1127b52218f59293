"""Bad input to the board: run ids that try to leave the runs folder, malformed run folders, and
spreadsheet formulas in downloads. None of them may read a foreign file or break the board."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any, Callable

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.details import read_details
from eval_backend.run_folder import RunFolder
from leaderboard.exports import export_judgments, export_view_csv
from leaderboard.results import ResultsStore, UnknownRunError, runs_frame
from leaderboard.scored_tables import ranking_frame
from tests.support.qa_runs import build_qa_runs
from tests.support.run_folders import EvaluatedData
from tests.support.saraiki_runs import build_saraiki_runs

RUN_ID = "acme__strong-7b/main"
ESCAPING_IDS = [  # the engine's own resolver is tested with the same ids in tests/eval_backend/test_run_folder.py
    "/advescape-test", "//advescape-test", "///advescape-test", "/tmp/x", "../acme__strong-7b/main",
    "acme__strong-7b/..", "./main", "acme__strong-7b/./", "a\\..\\..\\etc/x", "acme__strong-7b/main\x00",
    "acme__strong-7b/main/", "acme__strong-7b", "", None, ["acme__strong-7b", "main"],
]


# -- run ids from a client ------------------------------------------------------------------


@pytest.mark.parametrize("run_id", ESCAPING_IDS)
def test_the_store_refuses_every_such_run_id(evaluated_copy: Path, run_id: Any) -> None:
    store = ResultsStore(evaluated_copy)
    for read in (store.run, store.details, store.details_version):
        with pytest.raises(UnknownRunError):
            read(run_id)


def test_a_symlink_leading_out_of_the_runs_folder_is_not_followed(evaluated_copy: Path, tmp_path: Path) -> None:
    bait = tmp_path / "outside" / "main"
    bait.parent.mkdir()
    (evaluated_copy / "acme__strong-7b" / "main").rename(bait)
    (evaluated_copy / "escape__org").mkdir()
    (evaluated_copy / "escape__org" / "main").symlink_to(bait, target_is_directory=True)
    with pytest.raises(UnknownRunError):
        ResultsStore(evaluated_copy).details("escape__org/main")


def test_a_run_id_of_a_real_folder_still_resolves(evaluated_copy: Path) -> None:
    assert ResultsStore(evaluated_copy).run(RUN_ID).model == "acme/strong-7b"


# -- malformed run folders -------------------------------------------------------------------


def _summary_with(**fields: Any) -> Callable[[dict[str, Any]], Any]:
    return lambda summary: {**summary, **fields}


MALFORMED: dict[str, tuple[str, Any, str]] = {
    # case: (file, new content (a value, or a function of the current one), what the problem names)
    "summary is an array": ("summary.json", [], "JSON object"),
    "summary is a string": ("summary.json", "high", "JSON object"),
    "overall is text": ("summary.json", _summary_with(overall="high"), "'overall'"),
    "overall is a boolean": ("summary.json", _summary_with(overall=True), "'overall'"),
    "counts is an array": ("summary.json", _summary_with(counts=[1, 2]), "'counts'"),
    "a count is text": ("summary.json", _summary_with(counts={"items": "many"}), "'counts'"),
    "interval is one number": ("summary.json", _summary_with(overall_ci=7), "'overall_ci'"),
    "a language score is text": ("summary.json", _summary_with(configs={"Hindi": "good"}), "'configs'"),
    "a language interval is text": ("summary.json", _summary_with(config_ci={"Hindi": "wide"}), "'config_ci'"),
    "groups are an array": ("summary.json", _summary_with(config_groups=[1]), "'config_groups'"),
    "provenance is an array": ("summary.json", _summary_with(provenance=[]), "'provenance'"),
    "judge is an object": ("summary.json", _summary_with(provenance={"judge_model": {}}), "provenance.judge_model"),
    "request is an array": ("request.json", [1], "JSON object"),
    "request model is a number": ("request.json", {"model": 5}, "'model'"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_run_folder_is_a_problem_and_the_board_still_shows(evaluated_copy: Path, case: str) -> None:
    name, content, named = MALFORMED[case]
    path = evaluated_copy / "acme__strong-7b" / "main" / name
    if callable(content):
        content = content(json.loads(path.read_text(encoding="utf-8")))
    path.write_text(json.dumps(content), encoding="utf-8")
    _assert_skipped_as_a_problem(evaluated_copy, named)


@pytest.mark.parametrize("raw", [b'{"overall": \xff\xfe}', "{}".encode("utf-16"), b"[" * 100_000 + b"]" * 100_000,
                                 b'{"overall": NaN}'])
def test_undecodable_or_absurd_json_is_a_problem_too(evaluated_copy: Path, raw: bytes) -> None:
    (evaluated_copy / "acme__strong-7b" / "main" / "summary.json").write_bytes(raw)
    _assert_skipped_as_a_problem(evaluated_copy, "summary.json")


def _assert_skipped_as_a_problem(runs_dir: Path, named: str) -> None:
    store = ResultsStore(runs_dir)
    snapshot = store.snapshot()
    assert RUN_ID not in {run.run_id for run in snapshot.runs}
    assert len(snapshot.runs) == 4
    assert len(snapshot.problems) == 1
    assert snapshot.problems[0].startswith(RUN_ID) and named in snapshot.problems[0]
    # Everything a viewer's page builds from the snapshot still works for the other runs.
    assert len(ranking_frame(snapshot.runs, BENCHMARKS["indic_writing_bench"])) == 4
    assert len(runs_frame(snapshot.runs)) == 4
    with pytest.raises(UnknownRunError, match=named.strip("'")):
        store.run(RUN_ID)


@pytest.mark.parametrize("size", [-7, 0, "NaN", "inf", "seven"])
def test_a_size_that_is_not_a_positive_number_is_unknown(evaluated_copy: Path, size: Any) -> None:
    path = RunFolder(evaluated_copy / "acme__strong-7b" / "main").request_path
    path.write_text(json.dumps({**json.loads(path.read_text()), "params_b": size}))
    frame = runs_frame(ResultsStore(evaluated_copy).snapshot().runs).set_index("model")
    assert pd.isna(frame.loc["acme/strong-7b", "params_b"])


# -- spreadsheet formulas in CSV downloads ----------------------------------------------------

FORMULAS = ["=HYPERLINK(\"http://evil\",\"x\")", "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]


def test_judgment_csv_cells_never_start_a_formula(evaluated: EvaluatedData, tmp_path: Path) -> None:
    details = read_details(evaluated.folders["acme/strong-7b"].details_path)
    hostile = details.copy()
    for row, text in enumerate(FORMULAS):
        hostile.loc[row, "response"] = text
    hostile.loc[0, "reason_1"] = "=cmd|' /C calc'!A0"
    hostile.loc[1, "prompt"] = "@import"
    path = export_judgments(hostile, "csv", tmp_path, RUN_ID, "v1")
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # a spreadsheet reads the Indic text as UTF-8
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    header, cells = rows[0], [cell for row in rows[1:] for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    exported = pd.read_csv(path, encoding="utf-8-sig", keep_default_na=False)
    assert exported.loc[: len(FORMULAS) - 1, "response"].tolist() == [f"'{text}" for text in FORMULAS]
    assert exported.loc[0, "reason_1"] == "'=cmd|' /C calc'!A0" and exported.loc[1, "prompt"] == "'@import"
    untouched = slice(len(FORMULAS), None)
    assert exported.loc[untouched, "response"].tolist() == details.loc[untouched, "response"].tolist()
    assert header == list(details.columns)
    assert hostile.loc[0, "response"] == FORMULAS[0]  # the caller's (cached) frame is left as it was


def test_the_board_csv_keeps_numbers_and_neutralises_text(tmp_path: Path) -> None:
    view = pd.DataFrame({"model": ["=evil/model", "हिन्दी/मॉडल"], "romanized_drop": [-3.5, 1.25]})
    path = export_view_csv(view, tmp_path, "v1", "board.csv")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    exported = pd.read_csv(path, encoding="utf-8-sig")
    assert exported["model"].tolist() == ["'=evil/model", "हिन्दी/मॉडल"]
    assert exported["romanized_drop"].tolist() == [-3.5, 1.25]  # a negative number is a number, not a formula


# -- malformed QA and Saraiki run folders (issue 27) ---------------------------------------------

SCORED_MALFORMED: dict[str, tuple[str, dict[str, Any], str]] = {
    # case: (benchmark, fields replaced in summary.json, what the problem names)
    "QA metrics is an array": ("qa", {"metrics": [50.0]}, "'metrics'"),
    "QA metrics is a string": ("qa", {"metrics": "good"}, "'metrics'"),
    "QA by_domain is a number": ("qa", {"by_domain": 3}, "'by_domain'"),
    "QA language metrics is an array": ("qa", {"by_language": {"hindi": {"metrics": [1]}}},
                                        "'by_language.hindi.metrics'"),
    "QA coverage is text": ("qa", {"coverage": "all"}, "'coverage'"),
    "QA interval is one number": ("qa", {"intervals": {"judge": 7}}, "'intervals'"),
    "Saraiki metrics is an array": ("saraiki", {"metrics": []}, "'metrics'"),
    "Saraiki tasks is a string": ("saraiki", {"tasks": "all"}, "'tasks'"),
    "Saraiki a task is a number": ("saraiki", {"tasks": {"safety": 1}}, "'tasks'"),
    "Saraiki complete is text": ("saraiki", {"complete": "yes"}, "'complete'"),
}


@pytest.fixture(scope="module")
def scored_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("scored")
    return {"qa": build_qa_runs(root / "qa").runs_dir, "saraiki": build_saraiki_runs(root / "saraiki").runs_dir}


@pytest.mark.parametrize("case", list(SCORED_MALFORMED))
def test_a_malformed_qa_or_saraiki_folder_is_a_problem_and_their_board_still_shows(
    scored_runs: dict[str, Path], tmp_path: Path, case: str
) -> None:
    benchmark, fields, named = SCORED_MALFORMED[case]
    runs_dir = Path(shutil.copytree(scored_runs[benchmark], tmp_path / "runs"))
    path = next(runs_dir.glob("acme__*/main/summary.json"))
    path.write_text(json.dumps({**json.loads(path.read_text(encoding="utf-8")), **fields}), encoding="utf-8")
    snapshot = ResultsStore(runs_dir).snapshot()
    [problem] = snapshot.problems
    assert str(path) in problem and named in problem
    ranking = ranking_frame(snapshot.runs, INDIC_QA if benchmark == "qa" else SARAIKI)  # the rest renders
    assert len(ranking) == len(list(runs_dir.glob("*/main"))) - 1
