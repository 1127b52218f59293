"""Run folders pushed to the results repo in one commit, pulled into another data folder, retried on failure."""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd
from huggingface_hub import snapshot_download

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.consistency import (
    CONSISTENCY_FILE,
    REJUDGMENTS_FILE,
    ConsistencyReport,
    ScoredPair,
    read_reports,
    write_report,
)
from eval_backend.hub_sync import config_name, pull_results, push_run, sync_once
from eval_backend.hub_sync._ledger import Ledger
from eval_backend.hub_sync.layout import repo_run
from eval_backend.item_values import ITEM_VALUES_FILE, item_values
from eval_backend.run_folder import RunFolder, iter_run_folders
from tests.eval_backend.hub_sync.conftest import RESULTS_REPO, TOKEN, dead_endpoint, hub_settings

RUN_FILES = {"request.json", "items.jsonl", "responses.jsonl", "judgments.jsonl", "summary.json", "details.parquet",
             "item_values.arrow"}


def folder_bytes(path: Path) -> dict[str, bytes]:
    return {file.name: file.read_bytes() for file in sorted(path.iterdir()) if file.is_file()}


def runs(data_dir: Path) -> dict[str, Path]:
    """Local run names (`indic_writing_bench/<org>__<name>/<revision>`) and their folders."""
    tree = data_dir / "runs" / DEFAULT_BENCHMARK
    return {f"{DEFAULT_BENCHMARK}/{f.path.parent.name}/{f.path.name}": f.path for f in iter_run_folders(tree)}


def test_a_finished_run_is_pushed_in_one_commit_and_pulled_into_a_fresh_data_folder(hub, data_dir, tmp_path) -> None:
    settings = hub_settings(data_dir, hub.url)
    local = runs(data_dir)
    assert len(local) == 2

    for number, (run, path) in enumerate(sorted(local.items()), start=1):
        assert push_run(RunFolder(path), settings)
        assert hub.commit_count(RESULTS_REPO) == 1 + number  # the repo's first commit, then one per run
        remote = hub.dataset_files(RESULTS_REPO)
        assert {name: remote[f"runs/{repo_run(run)}/{name}"] for name in RUN_FILES} == folder_bytes(path)

    fresh = tmp_path / "fresh-data"
    report = pull_results(hub_settings(fresh, hub.url))
    assert sorted(report.pulled) == sorted(local) and report.kept_local == []
    assert {run: folder_bytes(path) for run, path in runs(fresh).items()} == {
        run: folder_bytes(path) for run, path in local.items()
    }
    assert pull_results(hub_settings(fresh, hub.url)).pulled == []  # nothing new: nothing fetched


def test_a_push_that_fails_is_kept_in_the_outbox_and_sync_pushes_it_later(hub, data_dir, caplog) -> None:
    run, path = sorted(runs(data_dir).items())[0]
    before = folder_bytes(path)

    hub.fail(r"/commit/", status=500)
    assert not push_run(RunFolder(path), hub_settings(data_dir, hub.url))
    assert not push_run(RunFolder(path), hub_settings(data_dir, dead_endpoint()))  # the Hub is down

    pending = Ledger(data_dir).pending(run)
    assert pending is not None and pending.failed_attempts == 2 and "ConnectError" in (pending.last_error or "")
    assert folder_bytes(path) == before
    assert not any(name.startswith(f"runs/{repo_run(run)}/") for name in hub.dataset_files(RESULTS_REPO))
    assert "will retry" in caplog.text

    report = sync_once(hub_settings(data_dir, hub.url))
    assert report.pushed == [run] and report.still_pending == [] and report.errors == []
    assert Ledger(data_dir).pending(run) is None
    remote = hub.dataset_files(RESULTS_REPO)
    assert {name: remote[f"runs/{repo_run(run)}/{name}"] for name in RUN_FILES} == before == folder_bytes(path)


def test_pull_leaves_a_local_folder_with_unpushed_work_alone(hub, data_dir, tmp_path) -> None:
    run, path = sorted(runs(data_dir).items())[0]
    assert push_run(RunFolder(path), hub_settings(data_dir, hub.url))
    other = Path(tmp_path / "other-worker")
    (other / "runs" / run).mkdir(parents=True)
    (other / "runs" / run / "responses.jsonl").write_text('{"config": "Hindi", "index": 0}\n')  # a run going on

    report = pull_results(hub_settings(other, hub.url))
    assert report.kept_local == [run] and report.pulled == []
    assert folder_bytes(other / "runs" / run) == {"responses.jsonl": b'{"config": "Hindi", "index": 0}\n'}


def test_pushed_details_load_with_datasets_one_config_per_model_revision(hub, data_dir, tmp_path) -> None:
    settings = hub_settings(data_dir, hub.url)
    local = runs(data_dir)
    for path in local.values():
        push_run(RunFolder(path), settings)
    copy = snapshot_download(RESULTS_REPO, repo_type="dataset", local_dir=tmp_path / "copy", endpoint=hub.url, token=TOKEN)

    from datasets import load_dataset

    for run, path in local.items():
        loaded = load_dataset(copy, config_name(repo_run(run)), split="train").to_pandas()
        expected = pd.read_parquet(path / "details.parquet")
        assert list(loaded.columns) == list(expected.columns)
        pd.testing.assert_frame_equal(loaded, expected, check_dtype=False)
    card = (Path(copy) / "README.md").read_text()
    assert all(config_name(repo_run(run)) in card for run in local)


def test_nothing_touches_the_network_without_a_token(hub, data_dir) -> None:
    settings = hub_settings(data_dir, hub.url, token=None)
    path = next(iter(runs(data_dir).values()))
    assert not push_run(RunFolder(path), settings)
    assert sync_once(settings).pushed == []
    assert hub.recorded == [] and not (data_dir / "hub_sync").exists()


def test_the_token_is_in_no_pushed_file_local_file_or_log(hub, data_dir, tmp_path, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    settings = hub_settings(data_dir, hub.url)
    hub.fail(r"/commit/", status=500)
    for path in runs(data_dir).values():
        push_run(RunFolder(path), settings)
    sync_once(settings)
    pull_results(hub_settings(tmp_path / "fresh", hub.url))

    assert {request.token for request in hub.recorded} == {TOKEN}  # it was used…
    secret = TOKEN.encode()
    assert all(secret not in body for body in hub.bodies)  # …but never sent as content
    assert all(secret not in content for content in hub.dataset_files(RESULTS_REPO).values())
    local_files = [f for root in (data_dir, tmp_path / "fresh") for f in root.rglob("*") if f.is_file()]
    assert all(secret not in f.read_bytes() for f in local_files)
    assert "pushed" in caplog.text and TOKEN not in caplog.text


def test_a_run_s_consistency_report_is_mirrored_with_it(hub, data_dir, tmp_path) -> None:
    run, path = sorted(runs(data_dir).items())[0]
    pairs = (ScoredPair("Hindi", 0, 0, 7, 6),)
    write_report(RunFolder(path), ConsistencyReport("judge-b", "stand-in-judge", 0, 1, 1, 0, pairs))
    (path / REJUDGMENTS_FILE).write_text("", encoding="utf-8")
    assert push_run(RunFolder(path), hub_settings(data_dir, hub.url))
    remote = hub.dataset_files(RESULTS_REPO)
    assert remote[f"runs/{repo_run(run)}/{CONSISTENCY_FILE}"] == (path / CONSISTENCY_FILE).read_bytes()
    fresh = tmp_path / "fresh-data"
    pull_results(hub_settings(fresh, hub.url))
    assert read_reports(RunFolder(runs(fresh)[run]))["judge-b"].pairs == pairs


def test_the_compact_item_values_a_reader_keeps_are_never_local_work(hub, data_dir, tmp_path) -> None:
    """A run pushed before the compact file existed: the board, reading the pulled folder, writes it there. That
    derived file must not make the folder "local work" that a newer push of the run can no longer replace."""
    run, path = sorted(runs(data_dir).items())[0]
    (path / ITEM_VALUES_FILE).unlink()  # as an engine before the file pushed it
    settings = hub_settings(data_dir, hub.url)
    assert push_run(RunFolder(path), settings)
    fresh = tmp_path / "fresh-data"
    pull_results(hub_settings(fresh, hub.url))
    pulled = RunFolder(runs(fresh)[run])
    item_values(pulled, BENCHMARKS[DEFAULT_BENCHMARK].item_statistics())  # the board's first read keeps the file
    assert (pulled.path / ITEM_VALUES_FILE).is_file()
    summary = RunFolder(path).read_summary()
    RunFolder(path).write_summary({**summary, "overall": summary["overall"] - 0.5})  # scored again elsewhere
    assert push_run(RunFolder(path), settings)

    report = pull_results(hub_settings(fresh, hub.url))
    assert report.pulled == [run] and report.kept_local == []
    assert RunFolder(runs(fresh)[run]).read_summary()["overall"] == summary["overall"] - 0.5
