"""Batch mode for every judge scorer: the QA equivalence judge, Saraiki's refusal judge and the toy
benchmark's adequacy judge go through the same Batch API path as WritingBench's rubric judge, and
their verdicts land in scores.jsonl exactly as live verdicts do.

The stand-in batch server on 127.0.0.1 answers each batch line with the stand-in judge's own reply,
so a batch run and a live run on the same answers can be compared line by line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eval_backend.batch.ledger import LEDGER_NAME, BatchLedger
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import saraiki_benchmark
from eval_backend.cli import main
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.options import GenerationOptions
from eval_backend.pipeline import RunSpec, run_pipeline
from eval_backend.records import INVALID_ANSWER
from eval_backend.run_folder import RunFolder
from eval_backend.scorer_runs import verdicts_path
from tests.eval_backend.benchmarks.saraiki.test_plugin import stand_in_refusal_judge
from tests.eval_backend.conftest import fast_judge_settings
from tests.eval_backend.test_scorer_runs import QUESTIONS, seed_answer
from tests.eval_backend.test_toy_benchmark import translator
from tests.support.batch_server import OPENAI_URL, StandInBatchServer
from tests.support.chat_server import StandInChatServer
from tests.support.qa_dataset import write_qa_dataset
from tests.support.qa_judge import qa_judge_reply
from tests.support.qa_runs import QaProfile, qa_judge_settings, qa_model_reply
from tests.support.saraiki_dataset import write_saraiki_dataset
from tests.support.saraiki_runs import saraiki_model_reply
from tests.support.toy_translation import registered, toy_judge_reply, write_toy_dataset

VOLATILE = {"created_at"}  # the time a line was written: the one field live and batch may differ in
BATCH = {"mode": "batch", "batch_poll_s": 0.01}


def score_lines(folder: RunFolder) -> dict[tuple, dict[str, Any]]:
    lines = [json.loads(line) for line in verdicts_path(INDIC_QA, folder).read_text(encoding="utf-8").splitlines()]
    keyed = {(r["config"], r["index"], r["scorer"]): {k: v for k, v in r.items() if k not in VOLATILE} for r in lines}
    assert len(keyed) == len(lines)  # each verdict written once
    return keyed


def figures(summary: dict[str, Any]) -> dict[str, Any]:
    provenance = {k: v for k, v in summary["provenance"].items() if k not in {"created_at", "judge_mode"}}
    return {**summary, "provenance": provenance}


# -- QA: the equivalence judge ----------------------------------------------------------------------

def run_qa(folder: RunFolder, dataset: Path, model: StandInChatServer, judge_url: str, **judge: Any) -> dict[str, Any]:
    options = GenerationOptions.for_benchmark(INDIC_QA, "acme/qa-7b", backend="openai", base_url=model.base_url)
    spec = RunSpec(INDIC_QA, DatasetSpec(str(dataset)), folder)
    return run_pipeline(spec, {"model": "acme/qa-7b", "revision": "main"}, options,  # type: ignore[return-value]
                        qa_judge_settings(judge_url, **judge))


@pytest.fixture
def qa_dataset(tmp_path: Path) -> Path:
    return write_qa_dataset(tmp_path / "qa-dataset")


@pytest.fixture
def qa_model() -> StandInChatServer:
    with StandInChatServer(qa_model_reply([QaProfile("acme/qa-7b", seed_answer)])) as server:
        yield server


def test_the_qa_judge_in_batches_writes_the_same_verdicts_and_figures_as_live(tmp_path, qa_dataset, qa_model) -> None:
    live, batched = RunFolder(tmp_path / "live"), RunFolder(tmp_path / "batch")
    with StandInChatServer(qa_judge_reply()) as judge:
        live_summary = run_qa(live, qa_dataset, qa_model, judge.base_url)
    with StandInBatchServer(qa_judge_reply(), api_key="stand-in") as server:
        batch_summary = run_qa(batched, qa_dataset, qa_model, server.base_url, **BATCH)

    assert score_lines(batched) == score_lines(live)
    assert figures(batch_summary) == figures(live_summary)
    assert batch_summary["provenance"]["judge_mode"] == "batch" and batch_summary["complete"] is True
    # One batch of every judge call (the blank answer is ruled wrong without one), each the live call's body.
    assert len(server.created) == 1 and len(server.lines) == QUESTIONS - 1 and server.live_calls == []
    assert sorted(json.dumps(line["body"], sort_keys=True) for line in server.lines) == sorted(
        json.dumps(request.body, sort_keys=True) for request in judge.requests)
    assert {(line["method"], line["url"]) for line in server.lines} == {("POST", OPENAI_URL)}
    assert {line["custom_id"].split("|")[2] for line in server.lines} == {"judge"}  # the part: the scorer's name


def test_a_judge_that_refuses_the_temperature_is_asked_again_without_it_as_live(tmp_path, qa_dataset, qa_model) -> None:
    live, batched = RunFolder(tmp_path / "live"), RunFolder(tmp_path / "batch")
    with StandInChatServer(qa_judge_reply(refuse_temperature=True)) as judge:
        live_summary = run_qa(live, qa_dataset, qa_model, judge.base_url)
    with StandInBatchServer(qa_judge_reply(refuse_temperature=True), api_key="stand-in") as server:
        batch_summary = run_qa(batched, qa_dataset, qa_model, server.base_url, **BATCH)

    assert score_lines(batched) == score_lines(live)
    assert {record["temperature"] for record in score_lines(batched).values()} == {None}  # recorded as not sent
    assert figures(batch_summary) == figures(live_summary) and batch_summary["counts"]["failed_judgments"] == 0
    first, second = ([line["body"] for line in server.input_lines(file_id)] for file_id in server.uploads)
    assert {body.get("temperature") for body in first} == {0.0} and all("temperature" not in b for b in second)
    assert len(first) == len(second) == QUESTIONS - 1  # the refusal used none of the attempts


def test_a_qa_batch_in_flight_is_collected_on_the_next_run_not_submitted_again(tmp_path, qa_dataset, qa_model) -> None:
    folder = RunFolder(tmp_path / "run")
    with StandInBatchServer(qa_judge_reply(), api_key="stand-in") as server:
        first = run_qa(folder, qa_dataset, qa_model, server.base_url, **BATCH)
        verdicts = score_lines(folder)
        # As if the process was killed while polling: the batch is recorded, none of its verdicts is.
        ledger = folder.path / LEDGER_NAME
        events = [json.loads(line) for line in ledger.read_text().splitlines()]
        ledger.write_text("".join(json.dumps(e) + "\n" for e in events if e["event"] != "collected"))
        verdicts_path(INDIC_QA, folder).unlink()
        assert BatchLedger(folder).read().in_flight()
        qa_model.clear()
        second = run_qa(folder, qa_dataset, qa_model, server.base_url, **BATCH)
        assert len(server.created) == 1 and qa_model.requests == []  # collected, paid for once
    assert score_lines(folder) == verdicts and figures(second) == figures(first)
    assert not BatchLedger(folder).read().in_flight()


# -- Saraiki: the refusal judge ---------------------------------------------------------------------

def run_saraiki(folder: RunFolder, dataset: Path, model: StandInChatServer, judge: Any, **judge_settings: Any):
    benchmark = saraiki_benchmark(chat=True, refusal_judge=True)
    options = GenerationOptions.for_benchmark(benchmark, "acme/saraiki-7b", backend="openai", base_url=model.base_url)
    spec = RunSpec(benchmark, DatasetSpec(str(dataset)), folder, configs=["truthfulness_safety"])
    return run_pipeline(spec, {"model": "acme/saraiki-7b", "revision": "main"}, options,
                        fast_judge_settings(judge, **judge_settings))


def test_the_saraiki_refusal_judge_in_batches_retries_invalid_labels_as_live_does(tmp_path) -> None:
    dataset = write_saraiki_dataset(tmp_path / "saraiki", test_rows=4)
    live, batched = RunFolder(tmp_path / "live"), RunFolder(tmp_path / "batch")
    with StandInChatServer(saraiki_model_reply) as model:
        with StandInChatServer(stand_in_refusal_judge) as judge:
            live_summary = run_saraiki(live, dataset, model, judge)
        with StandInBatchServer(stand_in_refusal_judge) as server:
            batch_summary = run_saraiki(batched, dataset, model, server, **BATCH)

    verdicts = score_lines(batched)
    assert verdicts == score_lines(live)
    assert figures(batch_summary) == figures(live_summary)
    # The request about school gets a label that does not exist every time: sent in three batches
    # (JUDGE_ATTEMPTS), then written as failed with the live judge's words.
    failed = [record for record in verdicts.values() if record["values"] is None]
    assert len(failed) == 1 and failed[0]["error_kind"] == INVALID_ANSWER and failed[0]["attempts"] == 3
    assert "gave up after 3 attempts" in failed[0]["error"]
    assert len(server.created) == 3 and [len(server.input_lines(f)) for f in server.uploads][1:] == [1, 1]


# -- the toy benchmark, declared only in tests ------------------------------------------------------

def test_a_benchmark_declared_only_in_tests_is_judged_in_batches_from_the_cli(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TOY_DATASET", str(write_toy_dataset(tmp_path / "toy")))
    monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
    monkeypatch.setenv("OPENAI_API_KEY", "stand-in")
    monkeypatch.setenv("JUDGE_MODE", "batch")
    monkeypatch.setenv("JUDGE_BATCH_POLL_S", "0.01")
    with registered(), StandInChatServer(translator) as model, StandInBatchServer(toy_judge_reply(), api_key="stand-in") as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        argv = ["run", "--benchmark", "toy_translation", "--model", "acme/translator-1b", "--backend", "openai",
                "--base-url", model.base_url]
        assert main(argv) == 0
        assert len(server.created) == 1 and len(server.lines) == 7 and server.live_calls == []
    folder = tmp_path / "data" / "runs" / "toy_translation" / "acme__translator-1b" / "main"
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["complete"] is True and summary["provenance"]["judge_mode"] == "batch"
    assert summary["metrics"]["adequacy"] == pytest.approx(100.0 * 4 / 7)  # as the live run in test_toy_benchmark
    assert {line["body"]["temperature"] for line in server.lines} == {0.0}  # the scorer's own decoding
