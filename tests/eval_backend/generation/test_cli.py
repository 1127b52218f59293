"""`python -m eval_backend generate` and `run` end to end: a tiny local model, a local dataset, a stand-in judge."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.cli import main
from eval_backend.run_folder import RunFolder
from eval_backend.scorer_runs import read_verdicts
from tests.support.chat_server import StandInChatServer

SMOKE = ["--configs", "Hindi,Tamil", "--limit", "2", "--max-tokens", "8", "--backend", "transformers"]


def test_run_generates_judges_and_scores_then_a_second_run_does_nothing(
    tiny_model: Path, dataset_dir: Path, judge_env: StandInChatServer, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    argv = ["run", "--model", str(tiny_model), "--dataset", str(dataset_dir), "--out-dir", str(out), *SMOKE]
    assert main(argv) == 0

    folder = RunFolder(out)
    responses = folder.read_responses()
    assert set(responses) == {(c, i) for c in ("Hindi", "Tamil") for i in range(2)}
    assert all(r.error is None and r.output_tokens for r in responses.values())
    judgments = read_verdicts(BENCHMARKS[DEFAULT_BENCHMARK], folder)
    assert len(judgments) == 4 * 5 and all(j.score is not None for j in judgments)
    assert len(judge_env.requests) == 20
    summary = folder.read_summary()
    assert summary["counts"]["scored_items"] == 4
    request = folder.read_request()
    assert request["model"] == str(tiny_model) and request["generation"]["max_tokens"] == 8
    assert (out / "details.parquet").exists()

    responses_bytes = folder.responses_path.read_bytes()
    judgments_bytes = folder.judgments_path.read_bytes()
    assert main(argv) == 0
    assert folder.responses_path.read_bytes() == responses_bytes  # nothing generated
    assert folder.judgments_path.read_bytes() == judgments_bytes
    assert len(judge_env.requests) == 20  # nothing judged
    assert folder.read_summary()["overall"] == summary["overall"]


def test_run_without_out_dir_writes_the_model_folder_in_the_benchmark_tree_under_data_dir(
    tiny_model: Path, dataset_dir: Path, judge_env: StandInChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    argv = [
        "run",
        "--model",
        str(tiny_model),
        "--dataset",
        str(dataset_dir),
        *SMOKE,
        "--configs",
        "Tamil",
        "--limit",
        "1",
    ]
    assert main(argv) == 0
    folder = RunFolder.for_model(tmp_path / "data" / "runs" / "indic_writing_bench", str(tiny_model), "main")
    assert json.loads(folder.summary_path.read_text())["counts"]["scored_items"] == 1


def test_generate_writes_responses_and_reports_throughput(
    tiny_model: Path, dataset_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    argv = ["generate", "--model", str(tiny_model), "--dataset", str(dataset_dir), "--out-dir", str(out), *SMOKE]
    assert main(argv) == 0
    assert len(RunFolder(out).read_responses()) == 4
    assert "items/s" in capsys.readouterr().err
    assert not RunFolder(out).judgments_path.exists()


def test_a_model_without_a_chat_template_is_refused_with_a_clear_message(
    templateless_model: Path, dataset_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "generate",
        "--model",
        str(templateless_model),
        "--dataset",
        str(dataset_dir),
        "--out-dir",
        str(tmp_path / "r"),
        *SMOKE,
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "error: model" in err and "has no chat template" in err


def test_the_vllm_backend_without_vllm_says_how_to_install_it(
    tiny_model: Path,
    dataset_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "vllm", None)  # as on a machine without the GPU requirements
    argv = [
        "generate",
        "--model",
        str(tiny_model),
        "--dataset",
        str(dataset_dir),
        "--out-dir",
        str(tmp_path / "r"),
        *SMOKE,
        "--backend",
        "vllm",
    ]
    assert main(argv) == 2
    assert "requirements-gpu.txt" in capsys.readouterr().err


def test_generate_against_an_unreachable_endpoint_stops_in_one_line_naming_it_and_the_items_left(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Connections refused in a row stop the run (no minutes of silent retries, no traceback); nothing is lost."""
    with socket.socket() as probe:  # a port nothing listens on: every connection is refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("GENERATION_MAX_CONNECTION_FAILURES", "3")
    out = tmp_path / "run"
    argv = ["generate", "--model", "org/model-under-test", "--backend", "openai", "--base-url",
            f"http://127.0.0.1:{port}/v1", "--dataset", str(dataset_dir), "--out-dir", str(out),
            "--configs", "Hindi,Tamil", "--limit", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"127.0.0.1:{port} could not be reached 3 times in a row" in err, err
    assert "4 of 4 items left pending" in err and "Traceback" not in err
    assert not RunFolder(out).read_responses()  # nothing recorded as answered: every item is owed on resume
