"""The Saraiki plug-in end to end: dataset folder -> stand-in model over HTTP -> run folder.

The model is a stand-in OpenAI-compatible server. Its replies are scored by the engine, and the
same replies are scored again here by the seed script's own scoring code (copied below), so the
summary must hold exactly the script's numbers, unrounded. Every prompt the server received is
compared byte for byte with the script's prompt, and so is each task's token limit.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.saraiki.plugin import saraiki_benchmark
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.options import GenerationOptions
from eval_backend.pipeline import RunSpec, run_pipeline
from eval_backend.run_folder import RunFolder
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import Reply, StandInChatServer, user_text
from tests.support.saraiki_runs import saraiki_model_reply

from .conftest import RowsReader
from .test_prompts import reference_math_prompt, reference_mcq_prompt

# --- the seed script's scoring, verbatim ------------------------------------------------------
LETTERS = "ABCDEFGHIJ"
DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")


def script_mcq_correct(row, reply):
    found = re.search(r"\b([A-J])\b", reply)
    return bool(found) and found.group(1) == LETTERS[row["answer_index"]]


def script_math_correct(row, reply):
    reply = reply.translate(DIGITS).replace(",", "")
    numbers = re.findall(r"-?\d+(?:\.\d+)?", reply)
    return bool(numbers) and float(numbers[-1]) == float(row["answer_number"])




@pytest.fixture
def run_folder(saraiki_dir: Path, tmp_path: Path):
    def run(
        chat: bool, server: StandInChatServer, judge: StandInChatServer | None = None, refusal_judge: bool = False,
        **spec: Any,
    ) -> tuple[RunFolder, dict]:
        benchmark = saraiki_benchmark(chat=chat, refusal_judge=refusal_judge)
        folder = RunFolder(tmp_path / ("chat" if chat else "raw"))
        options = GenerationOptions.for_benchmark(benchmark, "org/model", backend="openai", base_url=server.base_url)
        run_spec = RunSpec(benchmark, DatasetSpec(str(saraiki_dir)), folder, **spec)
        settings = fast_judge_settings(judge or server)
        summary = run_pipeline(run_spec, {"model": "org/model", "revision": "main"}, options, settings)
        return folder, summary  # type: ignore[return-value]

    return run


def _expected_prompts(read_rows: RowsReader) -> dict[str, tuple[str, int]]:
    """Every prompt the script sends, with its max_new_tokens."""
    expected = {}
    for config, shots, limit in (
        ("knowledge", 5, 8), ("knowledge_hard", 5, 8), ("commonsense", 5, 8), ("reading_comprehension", 5, 8),
    ):
        dev = read_rows(config, "dev")[:shots]
        expected |= {reference_mcq_prompt(row, dev): (config, limit) for row in read_rows(config, "test")}
    dev = read_rows("math", "dev")[:8]
    expected |= {reference_math_prompt(row, dev): ("math", 256) for row in read_rows("math", "test")}
    expected |= {row["prompt"]: ("instruction_following", 1024) for row in read_rows("instruction_following", "test")}
    for row in read_rows("truthfulness_safety", "test"):
        if row["item_type"] == "truthful_mc":
            expected[reference_mcq_prompt(row, [])] = ("truthfulness", 8)
        else:
            expected[row["question"]] = ("safety", 512)
    return expected


def test_a_raw_run_sends_the_scripts_prompts_and_reports_its_numbers(run_folder, read_rows: RowsReader) -> None:
    with StandInChatServer(saraiki_model_reply) as server:
        folder, summary = run_folder(False, server)
        requests = server.requests
    expected = _expected_prompts(read_rows)
    sent = {request.body["prompt"]: request for request in requests}
    assert set(sent) == set(expected)  # byte for byte, every item, nothing else
    for text, request in sent.items():
        assert request.path == "/v1/completions"
        assert request.body["max_tokens"] == expected[text][1], expected[text]
        assert request.body["temperature"] == 0 and "stop" not in request.body
    replies = {text: saraiki_model_reply(request.body).content for text, request in sent.items()}

    tasks = summary["tasks"]
    for config in ("knowledge", "knowledge_hard", "commonsense", "reading_comprehension"):
        dev = read_rows(config, "dev")[:5]
        rows = read_rows(config, "test")
        correct = sum(script_mcq_correct(row, replies[reference_mcq_prompt(row, dev)]) for row in rows)
        assert tasks[config] == {"accuracy": 100 * correct / len(rows), "shots": 5, "n": len(rows), "missing": 0}
    dev, rows = read_rows("math", "dev")[:8], read_rows("math", "test")
    correct = sum(script_math_correct(row, replies[reference_math_prompt(row, dev)]) for row in rows)
    assert 0 < correct < len(rows)
    assert tasks["math"] == {"accuracy": 100 * correct / len(rows), "shots": 8, "n": len(rows), "missing": 0}
    mc = [row for row in read_rows("truthfulness_safety", "test") if row["item_type"] == "truthful_mc"]
    correct = sum(script_mcq_correct(row, replies[reference_mcq_prompt(row, [])]) for row in mc)
    assert tasks["truthfulness"]["accuracy"] == 100 * correct / len(mc) and tasks["truthfulness"]["shots"] == 0
    assert tasks["safety"] == {
        "refusal_rate": 100.0, "over_refusal_rate": 50.0, "n_refuse": 2, "n_comply": 2,
        "unclassified": 0, "missing": 0, "classifier": "keywords", "incomplete": None,
    }
    following = tasks["instruction_following"]
    assert following["n"] == 8 and following["errors"] == {}
    assert summary["chat"] is False and summary["metrics"]["math"] == tasks["math"]["accuracy"]
    assert json.loads((folder.path / "summary.json").read_text(encoding="utf-8"))["tasks"] == tasks


def test_a_chat_run_sends_one_user_message_holding_the_prompt(run_folder, read_rows: RowsReader) -> None:
    with StandInChatServer(saraiki_model_reply) as server:
        _, summary = run_folder(True, server, configs=["math"])
        requests = server.requests
    dev = read_rows("math", "dev")[:8]
    expected = {reference_math_prompt(row, dev) for row in read_rows("math", "test")}
    assert {request.path for request in requests} == {"/v1/chat/completions"}
    assert [len(request.messages) for request in requests] == [1] * len(expected)
    assert {request.messages[0]["content"] for request in requests} == expected
    assert set(summary["tasks"]) == {"math"} and summary["chat"] is True


def test_the_benchmark_is_registered_with_its_dataset_and_dev_shots() -> None:
    saraiki = BENCHMARKS["saraiki"]
    assert saraiki.default_dataset == "themohal/saraiki-llm-bench"
    assert (saraiki.split, saraiki.shots_split) == ("test", "dev")
    assert dict(saraiki.shot_counts) == {
        "knowledge": 5, "knowledge_hard": 5, "commonsense": 5, "reading_comprehension": 5, "math": 8,
    }


_REQUEST = re.compile(r"<request>\n(?P<request>.*)\n</request>.*<answer>\n(?P<answer>.*)\n</answer>", re.DOTALL)


def stand_in_refusal_judge(body: dict[str, Any]) -> Reply:
    """A toy judge: a flat "I can't" is a refusal, "I can't tell" a partial one; about school it
    answers a label that does not exist (an invalid answer on every attempt)."""
    found = _REQUEST.search(user_text(body))
    if found is None:
        return Reply(content="not a refusal prompt", status=400)
    if "سکول" in found["request"]:
        label = "maybe"
    elif "نئیں کر سڳدا" in found["answer"]:
        label = "refusal"
    elif "نئیں ݙس سڳدا" in found["answer"]:
        label = "partial_refusal"
    else:
        label = "compliance"
    return Reply(content="```json\n" + json.dumps({"label": label, "reason": "stand-in"}) + "\n```")


def test_with_the_refusal_judge_safety_replies_are_judged_over_http(run_folder) -> None:
    with StandInChatServer(saraiki_model_reply) as model, StandInChatServer(stand_in_refusal_judge) as judge:
        folder, summary = run_folder(False, model, judge, refusal_judge=True, configs=["truthfulness_safety"])
        calls = judge.requests
    assert len(calls) == 2 + 1 + 3  # two harmful, one benign, and three attempts on the invalid answers
    assert all(call.body["temperature"] == 0.0 for call in calls)
    assert summary["tasks"]["safety"] == {
        "refusal_rate": 100.0, "over_refusal_rate": 100.0,  # the partial refusal counts as a refusal
        "n_refuse": 2, "n_comply": 1, "unclassified": 1, "missing": 0, "classifier": "judge",
        "incomplete": "1 of 4 safety replies unclassified, so the rates leave them out (first: invalid_answer: "
        + summary["tasks"]["safety"]["incomplete"].split("invalid_answer: ", 1)[-1],
    }
    assert "'label' must be refusal" in summary["tasks"]["safety"]["incomplete"]
    assert summary["counts"]["failed_judgments"] == 1
    scores = [json.loads(line) for line in (folder.path / "scores.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(record["values"]["label"] for record in scores if record["values"]) == [
        "partial_refusal", "refusal", "refusal",
    ]
    # Each judged row names its method in the details, as the keyword rules' rows do.
    details = pd.read_parquet(folder.path / "details.parquet")
    judged = details[details["refusal_label"].notna()]
    assert len(judged) == 3 and set(judged["refusal_method"]) == {"judge"}


def test_a_queued_submission_has_its_refusals_classified_by_the_judge() -> None:
    # The worker always has a judge configured (it judges Indic WritingBench).
    for chat in (True, False):
        queued = BENCHMARKS["saraiki"].in_mode(chat)
        assert queued.record_to_item.keywords == {"chat": chat, "refusal_judge": True}
