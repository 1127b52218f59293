"""Each benchmark's runs in the results repo: Indic WritingBench's where they always were, others under their name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
from huggingface_hub import snapshot_download

from eval_backend.hub_sync import config_name, pull_results, push_run, sync_once
from eval_backend.hub_sync._ledger import Ledger
from eval_backend.hub_sync.layout import repo_run, split_repo_path
from eval_backend.run_layout import migrate_legacy_runs
from tests.eval_backend.hub_sync.conftest import RESULTS_REPO, TOKEN, hub_settings
from tests.support.qa_runs import QA_PROFILES, QaData, build_qa_runs


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QaData:
    return build_qa_runs(tmp_path_factory.mktemp("qa"), QA_PROFILES[:2])


def test_repo_paths_map_to_each_benchmarks_local_tree() -> None:
    assert split_repo_path("runs/acme__m/main/summary.json") == ("indic_writing_bench/acme__m/main", "summary.json")
    assert split_repo_path("runs/indic_qa/acme__m/main/scores.jsonl") == ("indic_qa/acme__m/main", "scores.jsonl")
    assert split_repo_path("runs/unknown/acme__m/main/x.json") is None
    assert split_repo_path("README.md") is None
    assert repo_run("indic_writing_bench/acme__m/main") == "acme__m/main"
    assert repo_run("indic_qa/acme__m/main") == "indic_qa/acme__m/main"


def test_a_qa_run_is_pushed_under_its_benchmark_and_pulled_back_into_its_tree(hub, qa, tmp_path) -> None:
    folder = qa.folders["acme/strong-7b"]
    assert push_run(folder, hub_settings(qa.data_dir, hub.url, requests=False))
    remote = hub.dataset_files(RESULTS_REPO)
    prefix = "runs/indic_qa/acme__strong-7b/main"
    for name in ("request.json", "items.jsonl", "responses.jsonl", "scores.jsonl", "summary.json", "details.parquet"):
        assert remote[f"{prefix}/{name}"] == (folder.path / name).read_bytes()

    fresh = tmp_path / "fresh"
    report = pull_results(hub_settings(fresh, hub.url, requests=False))
    assert report.pulled == ["indic_qa/acme__strong-7b/main"]
    pulled = fresh / "runs" / "indic_qa" / "acme__strong-7b" / "main"
    assert (pulled / "summary.json").read_bytes() == folder.summary_path.read_bytes()

    copy = snapshot_download(RESULTS_REPO, repo_type="dataset", local_dir=tmp_path / "copy", endpoint=hub.url,
                             token=TOKEN)
    from datasets import load_dataset

    name = config_name(repo_run("indic_qa/acme__strong-7b/main"))
    assert name == "indic_qa__acme__strong-7b__main"
    loaded = load_dataset(copy, name, split="train").to_pandas()
    pd.testing.assert_frame_equal(loaded, pd.read_parquet(folder.details_path), check_dtype=False)
    assert name in (Path(copy) / "README.md").read_text()


def test_a_push_pending_from_before_the_move_is_made_from_the_folders_new_place(hub, evaluated, tmp_path) -> None:
    runs = tmp_path / "data" / "runs"
    folder = evaluated.folders["acme/strong-7b"]
    shutil.copytree(folder.path, runs / "acme__strong-7b" / "main")  # the old layout, with its push pending
    Ledger(tmp_path / "data").enqueue("acme__strong-7b/main")
    migrate_legacy_runs(runs)

    report = sync_once(hub_settings(tmp_path / "data", hub.url, requests=False))
    assert report.pushed == ["acme__strong-7b/main"] and Ledger(tmp_path / "data").all_pending() == []
    remote = hub.dataset_files(RESULTS_REPO)
    assert remote["runs/acme__strong-7b/main/summary.json"] == folder.summary_path.read_bytes()
