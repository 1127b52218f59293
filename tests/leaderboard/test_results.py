"""Reading run folders written by the real engine: runs, counts, caching, details and queries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.details import read_details
from eval_backend.pipeline import score_folder
from eval_backend.run_folder import RunFolder
from leaderboard.results import (
    LruCache,
    QueryUnavailableError,
    ResultsStore,
    UnknownRunError,
    runs_frame,
)
from tests.support.hub_dataset import read_rows
from tests.support.run_folders import SCRIPT_MODEL_ID, EvaluatedData


def test_every_run_folder_is_read_with_its_model_id(store: ResultsStore, evaluated: EvaluatedData) -> None:
    snapshot = store.snapshot()
    assert sorted(run.model for run in snapshot.runs) == sorted(evaluated.folders)
    assert snapshot.problems == ()
    assert SCRIPT_MODEL_ID in {run.model for run in snapshot.runs}


def test_runs_frame_counts_come_from_the_summary(store: ResultsStore, evaluated: EvaluatedData) -> None:
    frame = runs_frame(store.snapshot().runs).set_index("model")
    for model in evaluated.folders:
        summary = evaluated.summary(model)
        assert frame.loc[model, "items"] == summary["counts"]["items"]
        assert frame.loc[model, "scored_items"] == summary["counts"]["scored_items"]
    assert frame.loc["bharat/partial-1b", "missing_responses"] == 3
    assert frame.loc["flaky/judge-fails-2b", "failed_items"] == 3
    assert frame.loc["flaky/judge-fails-2b", "failed_judgments"] == 3
    assert frame.loc["acme/strong-7b", "params_b"] == 7.2


def test_license_and_open_weights_come_from_request_json_and_are_unknown_without_it(evaluated_copy: Path) -> None:
    frame = runs_frame(ResultsStore(evaluated_copy).snapshot().runs).set_index("model")
    assert (frame.loc["acme/strong-7b", "license"], frame.loc["acme/strong-7b", "open_weights"]) == ("apache-2.0", True)
    assert frame.loc["acme/reasoner-3b", "open_weights"] is False
    assert (frame.loc[SCRIPT_MODEL_ID, "license"], frame.loc[SCRIPT_MODEL_ID, "open_weights"]) == ("unknown", None)
    # A hand-written request.json with facts of the wrong type: shown as unknown, never the board's error.
    folder = next(RunFolder(path.parent) for path in evaluated_copy.rglob("request.json") if "flaky" in str(path))
    folder.request_path.write_text(json.dumps({**folder.read_request(), "license": ["mit"], "open_weights": "yes"}))
    store = ResultsStore(evaluated_copy)
    frame = runs_frame(store.snapshot().runs).set_index("model")
    assert (frame.loc["flaky/judge-fails-2b", "license"], frame.loc["flaky/judge-fails-2b", "open_weights"]) == (
        "unknown", None)
    assert store.snapshot().problems == ()


def test_unchanged_runs_are_not_read_again(evaluated_copy: Path) -> None:
    store = ResultsStore(evaluated_copy)
    first = {run.run_id: run for run in store.snapshot().runs}
    second = {run.run_id: run for run in store.snapshot().runs}
    assert all(second[run_id] is first[run_id] for run_id in first)


def test_a_rescored_run_and_a_new_run_appear_without_a_new_store(evaluated_copy: Path) -> None:
    store = ResultsStore(evaluated_copy, reuse_s=0)
    before = store.snapshot()
    folder = RunFolder(evaluated_copy / "acme__strong-7b" / "main")
    summary = json.loads(folder.summary_path.read_text())
    summary["overall"] = 1.5
    folder.write_summary(summary)
    shutil.copytree(folder.path, evaluated_copy / "acme__strong-7b" / "v2")
    after = store.snapshot()
    assert after.signature != before.signature
    overall = {run.run_id: run.summary["overall"] for run in after.runs}
    assert overall["acme__strong-7b/main"] == 1.5
    assert "acme__strong-7b/v2" in overall


def test_a_burst_of_snapshots_lists_the_folders_once(evaluated_copy: Path) -> None:
    store = ResultsStore(evaluated_copy, reuse_s=60)
    first = store.snapshot()
    shutil.copytree(evaluated_copy / "acme__strong-7b" / "main", evaluated_copy / "acme__strong-7b" / "v2")
    assert store.snapshot() is first
    assert store.run("acme__strong-7b/v2").run_id == "acme__strong-7b/v2"  # a direct lookup is always current


@pytest.mark.parametrize("run_id", ["../acme__strong-7b/main", "acme__strong-7b/../main", "acme__strong-7b", "",
                                    "/etc/passwd", "acme__strong-7b/main/summary.json", "acme__strong-7b/nope"])
def test_a_run_id_that_names_no_run_folder_is_unknown(evaluated_copy: Path, run_id: str) -> None:
    with pytest.raises(UnknownRunError):
        ResultsStore(evaluated_copy).run(run_id)


def test_an_unreadable_summary_is_reported_and_the_others_still_shown(evaluated_copy: Path) -> None:
    (evaluated_copy / "acme__strong-7b" / "main" / "summary.json").write_text("{not json")
    snapshot = ResultsStore(evaluated_copy).snapshot()
    assert len(snapshot.runs) == 4
    assert len(snapshot.problems) == 1 and "acme__strong-7b/main" in snapshot.problems[0]


def test_an_empty_data_folder_has_no_runs(tmp_path: Path) -> None:
    snapshot = ResultsStore(tmp_path / "runs").snapshot()
    assert snapshot.runs == () and snapshot.problems == ()


def test_details_are_the_engine_s_details_and_follow_a_rescore(evaluated_copy: Path) -> None:
    store = ResultsStore(evaluated_copy)
    folder = RunFolder(evaluated_copy / "flaky__judge-fails-2b" / "main")
    details = store.details("flaky__judge-fails-2b/main")
    pd.testing.assert_frame_equal(details, read_details(folder.details_path))
    assert (details["status"] == "failed").sum() == 3
    folder.judgments_path.write_text("")  # every judgment gone: a re-score makes every item pending
    score_folder(BENCHMARKS[DEFAULT_BENCHMARK], folder, "stand-in-judge")
    assert set(store.details("flaky__judge-fails-2b/main")["status"]) == {"pending"}


def test_unknown_run_is_a_clear_error(store: ResultsStore) -> None:
    with pytest.raises(UnknownRunError):
        store.details("nobody__nothing/main")


def test_queries_come_from_the_run_s_dataset(store: ResultsStore, evaluated: EvaluatedData) -> None:
    queries = store.queries("acme__strong-7b/main", "Tamil")
    expected = {row["index"]: row["query"] for row in read_rows(evaluated.dataset_dir, "Tamil")}
    assert queries == expected


def test_missing_dataset_makes_the_query_unavailable(evaluated_copy: Path) -> None:
    folder = RunFolder(evaluated_copy / "acme__strong-7b" / "main")
    request = folder.read_request()
    folder.write_request({**request, "dataset": str(evaluated_copy / "no-such-dataset")})
    with pytest.raises(QueryUnavailableError, match="no-such-dataset"):
        ResultsStore(evaluated_copy).queries("acme__strong-7b/main", "Hindi")


def test_lru_cache_keeps_only_the_most_recent_entries() -> None:
    cache: LruCache[int] = LruCache(2)
    loads = []
    for key in ("a", "b", "a", "c", "b"):
        cache.get_or_load(key, lambda key=key: loads.append(key) or len(loads))
    assert loads == ["a", "b", "c", "b"]  # "a" was reused; "b" had been evicted by "c"
