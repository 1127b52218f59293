"""One bad run folder never takes the board down: what the board reads of a folder is checked where it is read.

Issue 40's cases: a request.json without `dataset_resolved_at` (every folder before 2026-11-30), or
with it null or a number; a folder holding only a summary.json of `{}`; a details.parquet missing a
key or score column, with an item twice, empty, garbage, or with a score of 1e308 or inf. A folder
whose file is malformed is listed as a problem naming the file and the field and is in no ranking,
matrix or comparison; every other run's table, rank ranges and matrix come out as before.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.details import read_details, write_details
from eval_backend.item_values import ITEM_VALUES_FILE
from eval_backend.run_folder import RunFolder
from leaderboard.joint_ranks import JOINT_RULE, OVERLAP_RULE
from leaderboard.pairwise_matrix import matrix_view
from leaderboard.results import ResultsStore, UnknownRunError
from leaderboard.row_flags import OLD_DATASET
from leaderboard.run_pair import compare_pair
from leaderboard.scored_rankings import RANKED
from leaderboard.scored_tables import ranking_frame
from tests.support.qa_runs import build_qa_runs
from tests.support.readable_runs import LONG_IDS
from tests.support.saraiki_runs import build_saraiki_runs

BROKEN = "acme__strong-7b/main"
"""The best ranked run of the evaluated board: the one whose folder each case breaks."""
WRITING_BENCH = BENCHMARKS["indic_writing_bench"]
OTHERS_RANKED = {"acme__reasoner-3b/main", "evil-org___script_alert_1____script_/main"}


def _write_request(runs_dir: Path, run_id: str, change: Callable[[dict], dict]) -> None:
    path = RunFolder(runs_dir / run_id).request_path
    path.write_text(json.dumps(change(json.loads(path.read_text(encoding="utf-8")))), encoding="utf-8")


def _without(name: str) -> Callable[[dict], dict]:
    return lambda record: {key: value for key, value in record.items() if key != name}


def _ranked_rules(runs_dir: Path) -> dict[str, str]:
    table = ranking_frame(ResultsStore(runs_dir).snapshot().runs, WRITING_BENCH)
    ranked = table[table["standing"] == RANKED]
    return dict(zip(ranked["run_id"], ranked["rank_rule"]))


# -- request.json and summary.json ----------------------------------------------------------------


@pytest.mark.parametrize("resolved_at", ["absent", None])
def test_requests_without_a_resolution_date_read_as_runs_before_2026_11_30(evaluated_copy: Path,
                                                                          resolved_at: object) -> None:
    for run_id in (BROKEN, "bharat__partial-1b/main"):  # the others keep theirs: a board of old and new folders
        _write_request(evaluated_copy, run_id, _without("dataset_resolved_at") if resolved_at == "absent"
                       else lambda record: {**record, "dataset_resolved_at": resolved_at})
    snapshot = ResultsStore(evaluated_copy).snapshot()
    assert snapshot.problems == () and len(snapshot.runs) == 5
    table = ranking_frame(snapshot.runs, WRITING_BENCH)
    assert len(table) == 5 and not table["flags"].str.contains(OLD_DATASET.code).any()  # no run reads as outdated
    assert set(_ranked_rules(evaluated_copy).values()) == {JOINT_RULE}


def test_a_resolution_date_that_is_a_number_is_a_problem_naming_the_field(evaluated_copy: Path) -> None:
    _write_request(evaluated_copy, BROKEN, lambda record: {**record, "dataset_resolved_at": 20261130})
    _assert_a_problem(evaluated_copy, BROKEN, "request.json", "'dataset_resolved_at'")


def test_a_folder_holding_only_an_empty_summary_is_a_problem(evaluated_copy: Path) -> None:
    run_id = f"{LONG_IDS[0].replace('/', '__')}/main"
    (evaluated_copy / run_id).mkdir(parents=True)
    (evaluated_copy / run_id / "summary.json").write_text("{}", encoding="utf-8")
    snapshot = ResultsStore(evaluated_copy).snapshot()
    [problem] = snapshot.problems
    assert problem.startswith(run_id) and "summary.json" in problem and "'benchmark'" in problem
    assert len(ranking_frame(snapshot.runs, WRITING_BENCH)) == 5


# -- details.parquet ------------------------------------------------------------------------------


def _drop(column: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda details: details.drop(columns=column)


def _set_score(value: float) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda details: details.assign(item_score=details["item_score"].where(details.index != 3, value))


def _repeat_first_item(details: pd.DataFrame) -> pd.DataFrame:
    return pd.concat([details, details.iloc[[0]]], ignore_index=True)


DETAILS_CASES: dict[str, tuple[Callable[[pd.DataFrame], pd.DataFrame], str]] = {
    # case: (what is done to the table, what the problem names beside details.parquet)
    "no index": (_drop("index"), "'index'"),
    "no config": (_drop("config"), "'config'"),
    "no item_score": (_drop("item_score"), "'item_score'"),
    "an item twice": (_repeat_first_item, "appears 2 times"),
    "no rows": (lambda details: details.iloc[0:0], "holds no items"),
    "a score of 1e308": (_set_score(1e308), "'indic'"),
    "a score of inf": (_set_score(float("inf")), "'indic'"),
    "a score of -inf": (_set_score(float("-inf")), "'indic'"),
    "a score of 11": (_set_score(11.0), "within [1, 10]"),
    "index as text": (lambda details: details.assign(index=details["index"].astype(str)), "'index'"),
}


@pytest.mark.parametrize("case", list(DETAILS_CASES))
def test_a_malformed_details_table_is_a_problem_and_every_other_run_keeps_its_joint_ranks(
    evaluated_copy: Path, case: str
) -> None:
    change, named = DETAILS_CASES[case]
    path = RunFolder(evaluated_copy / BROKEN).details_path
    write_details(change(read_details(path)), path)
    _assert_a_problem(evaluated_copy, BROKEN, "details.parquet", named)


@pytest.mark.parametrize("raw", [b"", b"PAR1 not a parquet table PAR1", b"\x00" * 4096])
def test_an_empty_or_garbage_details_file_is_a_problem(evaluated_copy: Path, raw: bytes) -> None:
    RunFolder(evaluated_copy / BROKEN).details_path.write_bytes(raw)
    _assert_a_problem(evaluated_copy, BROKEN, "details.parquet", "not a readable parquet table")


def _assert_a_problem(runs_dir: Path, run_id: str, file: str, named: str) -> None:
    store = ResultsStore(runs_dir)
    snapshot = store.snapshot()
    [problem] = snapshot.problems
    assert problem.startswith(run_id) and file in problem and named in problem, problem
    assert run_id not in {run.run_id for run in snapshot.runs} and len(snapshot.runs) == 4
    with pytest.raises(UnknownRunError, match=file):
        store.run(run_id)
    # The rest of the board is as it would be without the folder: the others keep the joint bootstrap ...
    assert _ranked_rules(runs_dir) == dict.fromkeys(OTHERS_RANKED, JOINT_RULE)
    # ... the matrix compares them, and Compare of the two works while the broken one is unknown to it.
    view = matrix_view(store, "indic_writing_bench", "indic", 15)
    assert view is not None and len(view.labels) == 2
    compared = compare_pair({"indic_writing_bench": store}, *sorted(OTHERS_RANKED))
    assert len(compared.compared) == 1 and compared.skipped == ()
    assert compare_pair({"indic_writing_bench": store}, run_id, sorted(OTHERS_RANKED)[0]).compared == ()


def test_an_unscored_item_in_a_ranked_run_leaves_only_that_run_out_of_the_joint_bootstrap(
    evaluated_copy: Path
) -> None:
    path = RunFolder(evaluated_copy / BROKEN).details_path
    write_details(_set_score(float("nan"))(read_details(path)), path)  # a complete summary, one item without a score
    store = ResultsStore(evaluated_copy)
    assert store.snapshot().problems == ()
    assert _ranked_rules(evaluated_copy) == {BROKEN: OVERLAP_RULE, **dict.fromkeys(OTHERS_RANKED, JOINT_RULE)}
    view = matrix_view(store, "indic_writing_bench", "indic", 15)
    assert view is not None and len(view.labels) == 2


# -- QA: its rankings and matrix ------------------------------------------------------------------


@pytest.fixture(scope="module")
def qa_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_qa_runs(tmp_path_factory.mktemp("qa")).runs_dir


QA_CASES: dict[str, tuple[Callable[[pd.DataFrame], pd.DataFrame], str]] = {
    "no index": (_drop("index"), "'index'"),
    "no config": (_drop("config"), "'config'"),
    "an item twice": (_repeat_first_item, "appears 2 times"),
}


@pytest.mark.parametrize("case", list(QA_CASES))
def test_a_malformed_qa_details_table_is_a_problem_and_qa_still_ranks(qa_runs: Path, tmp_path: Path,
                                                                      case: str) -> None:
    change, named = QA_CASES[case]
    runs_dir = Path(shutil.copytree(qa_runs, tmp_path / "runs"))
    folders = sorted(path.parent for path in runs_dir.glob("*/*/summary.json"))
    broken = RunFolder(folders[0])
    write_details(change(read_details(broken.details_path)), broken.details_path)
    store = ResultsStore(runs_dir)
    snapshot = store.snapshot()
    [problem] = snapshot.problems
    assert "details.parquet" in problem and named in problem, problem
    assert len(ranking_frame(snapshot.runs, INDIC_QA)) == len(folders) - 1
    assert matrix_view(store, INDIC_QA.name, "judge", 15) is not None


# -- the compact file of per-item values ----------------------------------------------------------


def test_a_damaged_compact_file_is_taken_again_from_details(evaluated_copy: Path) -> None:
    kept = evaluated_copy / BROKEN / ITEM_VALUES_FILE
    kept.write_bytes(b"ARROW1 damaged")
    assert ResultsStore(evaluated_copy).snapshot().problems == ()
    assert _ranked_rules(evaluated_copy) == dict.fromkeys([BROKEN, *OTHERS_RANKED], JOINT_RULE)
    assert kept.read_bytes()[:6] == b"ARROW1" and kept.stat().st_size > 1000  # rewritten whole



# -- Saraiki: Shahmukhi answers, a figure per task ------------------------------------------------


@pytest.mark.parametrize(("change", "named"), [
    (_drop("task"), "'task'"),
    (lambda details: details.assign(config=""), "'config'"),
], ids=["no task", "empty config"])
def test_a_malformed_saraiki_details_table_is_a_problem_and_saraiki_still_ranks(
    tmp_path: Path, change: Callable[[pd.DataFrame], pd.DataFrame], named: str
) -> None:
    data = build_saraiki_runs(tmp_path / "saraiki")
    broken, *others = data.folders.values()
    write_details(change(read_details(broken.details_path)), broken.details_path)
    snapshot = ResultsStore(data.runs_dir).snapshot()
    [problem] = snapshot.problems
    assert str(broken.details_path) in problem and named in problem, problem
    assert len(ranking_frame(snapshot.runs, SARAIKI)) == len(others)
