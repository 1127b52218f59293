"""`hub pull` takes only what a run folder has (#40): the declared files, within their sizes, each checked before
it replaces anything. Whatever else the shared results repo holds (a writer's `.lock`, a `summary.json.tmp`, a
20 MB `big.bin`) is left out, a damaged declared file (or a details table without the columns its benchmark's
figures are read from) keeps the whole run out (the local copy untouched), and
every refused file is reported by run, name and reason, also by the CLI. Against the stand-in Hub."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.cli import main
from eval_backend.hub_client import hub_api
from eval_backend.hub_sync import pull_results, push_run
from eval_backend.hub_sync._hub import commit_files
from eval_backend.hub_sync.layout import repo_run
from eval_backend.run_files import RUN_FILES, file_problem, run_file
from eval_backend.run_folder import RunFolder
from tests.eval_backend.hub_sync.conftest import RESULTS_REPO, TOKEN, hub_settings
from tests.eval_backend.hub_sync.test_results_push import folder_bytes, runs
from tests.support.qa_runs import QA_PROFILES, build_qa_runs

JUNK = {".lock": b"pid 4242 on worker-7\n", "summary.json.tmp": b'{"overall": 6.', "big.bin": b"\0" * (20 * 1024 * 1024)}


def put(hub, files: dict[str, bytes]) -> None:  # noqa: ANN001 - the stand-in Hub fixture
    """Commit `files` (repo path -> bytes) to the results repo as any writer with the token could."""
    commit_files(hub_api(hub_settings(Path("."), hub.url).hub), RESULTS_REPO, files, "a writer's commit")


def parquet_bytes(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


@pytest.fixture
def pushed(hub, data_dir: Path) -> dict[str, Path]:  # noqa: ANN001
    """Both evaluated runs pushed to the results repo; local run name -> folder."""
    local = runs(data_dir)
    for path in local.values():
        assert push_run(RunFolder(path), hub_settings(data_dir, hub.url))
    return local


def test_files_no_run_folder_has_are_left_out_and_reported(hub, pushed, tmp_path) -> None:  # noqa: ANN001
    run, path = sorted(pushed.items())[0]
    put(hub, {f"runs/{repo_run(run)}/{name}": content for name, content in JUNK.items()})
    fresh = tmp_path / "fresh"
    report = pull_results(hub_settings(fresh, hub.url))
    assert sorted(report.pulled) == sorted(pushed)
    assert folder_bytes(runs(fresh)[run]) == folder_bytes(path)  # the run's own files, nothing else
    refused = {(entry.run, entry.name): entry.reason for entry in report.refused}
    assert set(refused) == {(run, name) for name in JUNK}
    assert all("not a run-folder file" in reason for reason in refused.values())
    downloads = [request.path for request in hub.recorded if "/resolve/" in request.path]
    assert not any(name in downloaded for name in JUNK for downloaded in downloads)  # refused unread
    assert pull_results(hub_settings(fresh, hub.url)).pulled == []  # nothing new: settled, not pulled again


DAMAGE = {
    "details.parquet": (b"PAR1\x15\x04garbage", "not a readable parquet file"),
    "summary.json": (b'{"overall": 6.5, ', "not valid JSON"),
    "request.json": (b"[1, 2]", "not an object"),
    "responses.jsonl": (b'{"config": "Hindi", "index": 0}\n["a list"]\n', "line 2 is a JSON list"),
    "judgments.jsonl": (b'{"config": "Hindi", "score": 7}\n', "line 1 lacks index"),
    "items.jsonl": (b'{"config": "Hindi", "index": 0}\n{"config": "Tamil", "ind', "last line is cut off"),
}


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_a_damaged_file_keeps_its_run_out_and_the_local_copy_untouched(hub, pushed, tmp_path, name) -> None:  # noqa: ANN001
    fresh = tmp_path / "fresh"
    assert len(pull_results(hub_settings(fresh, hub.url)).pulled) == 2
    run = sorted(pushed)[0]
    before = folder_bytes(runs(fresh)[run])
    content, reason = DAMAGE[name]
    put(hub, {f"runs/{repo_run(run)}/{name}": content})
    report = pull_results(hub_settings(fresh, hub.url))
    assert report.pulled == []
    assert [(entry.run, entry.name) for entry in report.refused] == [(run, name)]
    assert reason in report.refused[0].reason, report.refused[0].reason
    assert folder_bytes(runs(fresh)[run]) == before
    assert not list(runs(fresh)[run].parent.glob(".*pull-*"))  # no staging folder left behind


def test_a_table_without_an_item_score_and_an_oversized_file_are_refused(hub, pushed, tmp_path) -> None:  # noqa: ANN001
    first, second = sorted(pushed)
    table = pd.read_parquet(pushed[first] / "details.parquet").drop(columns=["item_score"])
    oversized = b"{" + b" " * run_file("request.json").max_bytes + b"}"  # type: ignore[union-attr]
    put(hub, {f"runs/{repo_run(first)}/details.parquet": parquet_bytes(table),
              f"runs/{repo_run(second)}/request.json": oversized})
    fresh = tmp_path / "fresh"
    report = pull_results(hub_settings(fresh, hub.url))
    assert report.pulled == [] and not runs(fresh)
    reasons = {(entry.run, entry.name): entry.reason for entry in report.refused}
    assert "lacks the column item_score" in reasons[(first, "details.parquet")]
    assert "over the 1,048,576" in reasons[(second, "request.json")]
    downloads = [request.path for request in hub.recorded if "/resolve/" in request.path]
    assert not any(downloaded.endswith(f"{repo_run(second)}/request.json") for downloaded in downloads)


def test_the_cli_names_each_refused_file_and_why(hub, pushed, tmp_path, monkeypatch, capsys) -> None:  # noqa: ANN001
    run = sorted(pushed)[0]
    put(hub, {f"runs/{repo_run(run)}/big.bin": JUNK["big.bin"],
              f"runs/{repo_run(run)}/details.parquet": DAMAGE["details.parquet"][0]})
    for name, value in (("HF_TOKEN", TOKEN), ("HF_ENDPOINT", hub.url), ("RESULTS_REPO", RESULTS_REPO),
                        ("DATA_DIR", str(tmp_path / "fresh"))):
        monkeypatch.setenv(name, value)
    assert main(["hub", "pull"]) == 0
    err = capsys.readouterr().err
    assert "pulled 1 run folders" in err
    assert f"refused {run}/big.bin: not a run-folder file" in err
    assert f"refused {run}/details.parquet: not a readable parquet file" in err


def test_every_file_a_run_writes_is_declared_and_passes_its_check(pushed) -> None:  # noqa: ANN001
    for run, path in pushed.items():
        for file in sorted(path.iterdir()):
            if file.is_file() and not file.name.startswith("."):
                assert file_problem(file.name, file, BENCHMARKS[run.partition("/")[0]]) is None, file
    assert len({declared.name for declared in RUN_FILES}) == len(RUN_FILES)
    assert json.loads((next(iter(pushed.values())) / "summary.json").read_text())  # a real, non-empty run


def test_a_qa_table_without_the_columns_its_figures_are_read_from_is_refused(hub, tmp_path) -> None:  # noqa: ANN001
    """What a details table must hold is its benchmark's (declared by its item statistics), not WritingBench's."""
    qa = build_qa_runs(tmp_path / "qa", QA_PROFILES[:1])
    folder = next(iter(qa.folders.values()))
    assert push_run(folder, hub_settings(qa.data_dir, hub.url, requests=False))
    run = f"indic_qa/{folder.path.parent.name}/{folder.path.name}"
    table = pd.read_parquet(folder.details_path).drop(columns=["exact_correct"])
    put(hub, {f"runs/{repo_run(run)}/details.parquet": parquet_bytes(table)})
    report = pull_results(hub_settings(tmp_path / "fresh", hub.url, requests=False))
    assert report.pulled == []
    assert [(entry.run, entry.name) for entry in report.refused] == [(run, "details.parquet")]
    assert "lacks the column exact_correct" in report.refused[0].reason
