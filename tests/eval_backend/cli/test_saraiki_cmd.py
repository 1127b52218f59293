"""`run --benchmark saraiki` from the command line: tasks, chat or raw, and its flags' errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_backend.cli import main
from tests.support.chat_server import StandInChatServer
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
                     "--base-url", server.base_url, "--no-chat", "--tasks", "knowledge,math,safety")
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
