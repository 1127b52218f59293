"""`--benchmark` on the CLI: the QA benchmark through run, score, judge and estimate; the default unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_backend.cli import main
from tests.support.chat_server import StandInChatServer
from tests.support.qa_dataset import write_qa_dataset
from tests.support.qa_judge import qa_judge_reply
from tests.support.qa_runs import QA_PROFILES, QA_JUDGE_MODEL, qa_model_reply

MODEL = QA_PROFILES[0].model_id  # answers every question right


@pytest.fixture
def qa_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """DATA_DIR, QA_DATASET and the judge set as a user would, with stand-in servers behind them."""
    dataset = write_qa_dataset(tmp_path / "qa")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("QA_DATASET", str(dataset))
    monkeypatch.setenv("JUDGE_MODEL", QA_JUDGE_MODEL)
    monkeypatch.setenv("OPENAI_API_KEY", "stand-in")
    monkeypatch.setenv("JUDGE_TRANSPORT_RETRIES", "0")
    return tmp_path


def test_run_writes_the_qa_run_in_its_tree_and_score_recomputes_it(qa_env: Path, monkeypatch, capsys) -> None:
    with StandInChatServer(qa_model_reply(QA_PROFILES)) as model, StandInChatServer(qa_judge_reply()) as judge:
        monkeypatch.setenv("OPENAI_BASE_URL", judge.base_url)
        argv = ["run", "--benchmark", "indic_qa", "--model", MODEL, "--backend", "openai", "--base-url", model.base_url]
        assert main(argv) == 0
    folder = qa_env / "data" / "runs" / "indic_qa" / "acme__strong-7b" / "main"
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["benchmark"] == "indic_qa" and summary["metrics"]["judge"] == 100.0
    assert "judge accuracy 100.0 %" in capsys.readouterr().err

    (folder / "summary.json").unlink()
    assert main(["score", "--benchmark", "indic_qa", "--out-dir", str(folder)]) == 0
    assert json.loads((folder / "summary.json").read_text())["metrics"] == summary["metrics"]
    assert "exact substring 100.0 %" in capsys.readouterr().err


def test_judge_takes_a_file_of_qa_responses(qa_env: Path, monkeypatch, capsys) -> None:
    responses = qa_env / "responses.jsonl"
    lines = [{"config": "tamil", "index": 0, "response": "சென்னை"}, {"config": "tamil", "index": 1, "response": ""}]
    responses.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    with StandInChatServer(qa_judge_reply()) as judge:
        monkeypatch.setenv("OPENAI_BASE_URL", judge.base_url)
        out = qa_env / "judged"
        argv = ["judge", "--benchmark", "indic_qa", "--configs", "tamil", "--responses", str(responses),
                "--out-dir", str(out)]
        assert main(argv) == 0
        assert len(judge.requests) == 1  # the blank answer needs no call
    metrics = json.loads((out / "summary.json").read_text())["metrics"]
    assert (metrics["exact"], metrics["judge"], metrics["blank_responses"]) == (50.0, 50.0, 1)


def test_estimate_counts_one_judge_call_per_question(qa_env: Path, capsys) -> None:
    assert main(["estimate", "--benchmark", "indic_qa"]) == 0
    assert "9 judge calls" in capsys.readouterr().out


def test_without_its_dataset_the_qa_benchmark_says_what_to_set(qa_env: Path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("QA_DATASET")
    assert main(["estimate", "--benchmark", "indic_qa"]) == 2
    assert "set QA_DATASET" in capsys.readouterr().err


def test_an_unknown_benchmark_is_refused_by_name(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["estimate", "--benchmark", "nope"])
    assert exited.value.code == 2 and "invalid choice: 'nope'" in capsys.readouterr().err
