"""`run --benchmark saraiki` from the command line: tasks, chat or raw, and its flags' errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_backend.cli import main
from tests.support.chat_server import Reply, StandInChatServer, user_text
from tests.support.saraiki_dataset import write_saraiki_dataset
from tests.support.saraiki_runs import saraiki_model_reply
from tests.support.tiny_model import build_tiny_chat_model


@pytest.fixture(scope="module")
def saraiki(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_saraiki_dataset(tmp_path_factory.mktemp("saraiki"), test_rows=3)


def run(*argv: str) -> int:
    return main(["run", "--benchmark", "saraiki", "--model", "org/model", *argv])


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_run_writes_the_summary_of_the_chosen_tasks(saraiki: Path, tmp_path: Path, judge_env) -> None:
    out = tmp_path / "run"
    with StandInChatServer(saraiki_model_reply) as server:
        status = run("--dataset", str(saraiki), "--out-dir", str(out), "--backend", "openai",
                     "--base-url", server.base_url, "--no-chat", "--tasks", "knowledge,math,safety",
                     "--refusal-classifier", "keywords")
        paths = {request.path for request in server.requests}
    assert status == 0 and paths == {"/v1/completions"}
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert set(summary["tasks"]) == {"knowledge", "math", "truthfulness", "safety"}  # safety's config has both
    assert summary["tasks"]["knowledge"]["shots"] == 5 and summary["tasks"]["math"]["shots"] == 8
    request = json.loads((out / "request.json").read_text(encoding="utf-8"))
    assert request["generation"]["chat"] is False and request["benchmark"] == "saraiki"
    assert {item["chat"] for item in _lines(out / "items.jsonl")} == {False}


def test_a_model_without_a_chat_template_is_run_raw_by_default(saraiki: Path, tmp_path: Path, judge_env) -> None:
    # Room for five shots of Saraiki text in the tiny tokenizer's tokens.
    model = build_tiny_chat_model(tmp_path / "base-model", chat_template=None, max_position_embeddings=4096)
    out = tmp_path / "run"
    status = main(["run", "--benchmark", "saraiki", "--model", str(model), "--backend", "transformers",
                   "--dataset", str(saraiki), "--out-dir", str(out), "--tasks", "knowledge", "--limit", "2"])
    assert status == 0
    responses = _lines(out / "responses.jsonl")
    assert len(responses) == 2 and all(line["response"] is not None for line in responses)
    assert {line["generation"]["max_tokens"] for line in responses} == {8}  # the script's limit for a letter
    assert json.loads((out / "request.json").read_text(encoding="utf-8"))["generation"]["chat"] is False


def test_chat_is_refused_for_a_model_without_a_chat_template(saraiki: Path, tmp_path: Path, judge_env, capsys) -> None:
    model = build_tiny_chat_model(tmp_path / "base-model", chat_template=None)
    status = main(["run", "--benchmark", "saraiki", "--model", str(model), "--backend", "transformers", "--chat",
                   "--dataset", str(saraiki), "--out-dir", str(tmp_path / "run"), "--tasks", "knowledge", "--limit", "1"])
    assert status == 2 and "has no chat template" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--benchmark", "saraiki", "--tasks", "knowledge,poetry"], "--tasks: no Saraiki task 'poetry'"),
        (["--benchmark", "saraiki", "--tasks", "math", "--configs", "math"], "give --tasks or --configs, not both"),
        (["--benchmark", "indic_writing_bench", "--no-chat"], "--chat/--no-chat: only for --benchmark saraiki"),
    ],
)
def test_bad_saraiki_flags_exit_2_naming_them(
    saraiki: Path, tmp_path: Path, judge_env, capsys, argv: list[str], message: str
) -> None:
    status = main(["run", "--model", "org/model", "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1",
                   "--dataset", str(saraiki), "--out-dir", str(tmp_path / "run"), *argv])
    assert status == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def compliance_judge(body: dict) -> Reply:
    """A refusal judge that finds every reply compliant."""
    assert "<answer>" in user_text(body)
    return Reply(content=json.dumps({"label": "compliance", "reason": "it answers"}))


def test_with_a_judge_configured_safety_replies_are_judged_by_default(
    saraiki: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    with StandInChatServer(saraiki_model_reply) as model, StandInChatServer(compliance_judge) as judge:
        monkeypatch.setenv("OPENAI_BASE_URL", judge.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
        status = run("--dataset", str(saraiki), "--out-dir", str(out), "--backend", "openai",
                     "--base-url", model.base_url, "--no-chat", "--tasks", "safety")
        judged = len(judge.requests)
    safety = json.loads((out / "summary.json").read_text(encoding="utf-8"))["tasks"]["safety"]
    assert status == 0 and judged == safety["n_refuse"] + safety["n_comply"] > 0
    assert safety["classifier"] == "judge" and safety["incomplete"] is None
    assert safety["refusal_rate"] == 0.0  # three rows hold one safety item, a harmful one


def test_without_a_judge_the_keyword_rules_classify(saraiki: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT"):
        monkeypatch.delenv(name, raising=False)
    out = tmp_path / "run"
    with StandInChatServer(saraiki_model_reply) as model:
        status = run("--dataset", str(saraiki), "--out-dir", str(out), "--backend", "openai",
                     "--base-url", model.base_url, "--no-chat", "--tasks", "safety")
    safety = json.loads((out / "summary.json").read_text(encoding="utf-8"))["tasks"]["safety"]
    assert status == 0 and safety["classifier"] == "keywords"


def test_a_judge_that_is_down_leaves_the_run_incomplete_with_its_rates_marked(
    saraiki: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens on the discard port
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
    monkeypatch.setenv("JUDGE_TRANSPORT_RETRIES", "0")
    monkeypatch.setenv("JUDGE_MAX_BACKOFF_S", "0.01")
    out = tmp_path / "run"
    with StandInChatServer(saraiki_model_reply) as model:
        status = run("--dataset", str(saraiki), "--out-dir", str(out), "--backend", "openai",
                     "--base-url", model.base_url, "--no-chat", "--tasks", "safety",
                     "--refusal-classifier", "judge")
    assert status == 1 and "incomplete: 1 judgments failed" in capsys.readouterr().err
    safety = json.loads((out / "summary.json").read_text(encoding="utf-8"))["tasks"]["safety"]
    assert (safety["refusal_rate"], safety["unclassified"]) == (None, 1)
    assert safety["incomplete"].startswith("1 of 1 safety replies unclassified")
    assert "127.0.0.1:9 unreachable" in safety["incomplete"]
