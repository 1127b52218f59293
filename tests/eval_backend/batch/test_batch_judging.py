"""`--judge-mode batch`: the owed judge calls go through the Batch API (OpenAI and Azure routes) and
come back as exactly the judgments and summary live judging writes, at half the price.

Everything runs against a stand-in batch server on 127.0.0.1 (tests/support/batch_server.py)
whose answers are the stand-in judge's own, so live and batch runs can be compared line by line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from eval_backend.batch.ledger import LEDGER_NAME, BatchLedger
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.records import INVALID_ANSWER, REJECTED
from eval_backend.run_folder import RunFolder
from tests.eval_backend.cli.test_judge_cmd import run_judge, write_responses
from tests.support.batch_server import AZURE_URL, OPENAI_URL, StandInBatchServer
from tests.support.chat_server import (
    FaultPlan, Reply, StandInChatServer, judge_answer, judge_key, judge_reply, parse_judge_prompt, user_text,
)

KEY = "sk-test-not-a-secret"
VOLATILE = {"created_at"}  # the time a line was written: the one field live and batch may differ in


def use_openai(monkeypatch: pytest.MonkeyPatch, server: StandInBatchServer | StandInChatServer) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
    monkeypatch.setenv("JUDGE_BATCH_POLL_S", "0.01")
    monkeypatch.setenv("JUDGE_MAX_BACKOFF_S", "0.05")


def use_azure(monkeypatch: pytest.MonkeyPatch, server: StandInBatchServer | StandInChatServer) -> None:
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", server.azure_endpoint)
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", KEY)
    monkeypatch.setenv("JUDGE_MODEL", "judge-global-batch")  # the deployment's name
    monkeypatch.setenv("JUDGE_BATCH_POLL_S", "0.01")
    monkeypatch.setenv("JUDGE_MAX_BACKOFF_S", "0.05")


def judgments(out: Path) -> list[dict]:
    lines = (out / "judgments.jsonl").read_text(encoding="utf-8").splitlines()
    return [{k: v for k, v in json.loads(line).items() if k not in VOLATILE} for line in lines]


def by_key(records: list[dict]) -> dict[tuple, dict]:
    return {(r["config"], r["index"], r["criterion_index"]): r for r in records}


def summary(out: Path) -> dict:
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    data["provenance"] = {k: v for k, v in data["provenance"].items() if k not in {"created_at", "judge_mode"}}
    return data


def hindi(items: list[Item]) -> list[Item]:
    return [item for item in items if item.config == "Hindi"]


def criterion_key(item: Item, criterion: int) -> str:
    return judge_key(str(item.checklist[criterion]["name"]), item.query)


@pytest.mark.parametrize("route", ["openai", "azure"])
def test_batch_judging_writes_the_same_judgments_and_summary_as_live(
    route, tmp_path, dataset_dir, items, monkeypatch
) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    use = use_azure if route == "azure" else use_openai
    with StandInChatServer() as live:
        use(monkeypatch, live)
        assert run_judge(dataset_dir, responses, tmp_path / "live") == 0
    with StandInBatchServer(azure=route == "azure") as server:
        use(monkeypatch, server)
        assert run_judge(dataset_dir, responses, tmp_path / "batch", "--judge-mode", "batch") == 0

    assert by_key(judgments(tmp_path / "batch")) == by_key(judgments(tmp_path / "live"))
    assert len(judgments(tmp_path / "batch")) == len(items) * 5  # each judgment written once
    assert summary(tmp_path / "batch") == summary(tmp_path / "live")
    recorded = json.loads((tmp_path / "batch" / "summary.json").read_text())["provenance"]
    assert recorded["judge_mode"] == "batch"
    # Each batch line is the live call's very body, POSTed to the route's url.
    url = AZURE_URL if route == "azure" else OPENAI_URL
    assert [server.batches[b].endpoint for b in server.created] == [url]
    assert {(line["method"], line["url"]) for line in server.lines} == {("POST", url)}
    assert sorted(json.dumps(line["body"], sort_keys=True) for line in server.lines) == sorted(
        json.dumps(request.body, sort_keys=True) for request in live.requests
    )
    if route == "azure":
        assert {line["body"]["model"] for line in server.lines} == {"judge-global-batch"}


def test_input_files_are_split_under_the_limits_on_requests_and_bytes(tmp_path, dataset_dir, items, monkeypatch) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    with StandInBatchServer(max_requests=6) as server:
        use_openai(monkeypatch, server)
        monkeypatch.setenv("JUDGE_BATCH_MAX_REQUESTS", "6")
        assert run_judge(dataset_dir, responses, tmp_path / "by-count", "--configs", "Hindi", "--judge-mode", "batch") == 0
        sizes = [len(server.input_lines(file_id)) for file_id in server.uploads]
        assert sizes == [6, 6, 6, 2]  # 20 calls (4 items x 5 criteria)

    one_line = len(server.files[server.uploads[0]].splitlines()[0]) + 1
    with StandInBatchServer(max_bytes=3 * one_line + one_line // 2) as server:
        use_openai(monkeypatch, server)
        monkeypatch.setenv("JUDGE_BATCH_MAX_REQUESTS", "1000")
        monkeypatch.setenv("JUDGE_BATCH_MAX_MB", str((3 * one_line + one_line // 2) / 1e6))
        assert run_judge(dataset_dir, responses, tmp_path / "by-bytes", "--configs", "Hindi", "--judge-mode", "batch") == 0
        assert all(len(server.files[f]) <= 3 * one_line + one_line // 2 for f in server.uploads)
        assert sum(len(server.input_lines(f)) for f in server.uploads) == 20
    assert len(judgments(tmp_path / "by-bytes")) == 20


@pytest.mark.parametrize("route", ["openai", "azure"])
def test_invalid_answers_and_failed_requests_go_to_a_follow_up_batch_within_three_attempts(
    route, tmp_path, dataset_dir, items, monkeypatch
) -> None:
    first, second = hindi(items)[:2]
    faults = FaultPlan()
    faults.script(criterion_key(first, 0), "non_json")  # valid on the second attempt
    faults.script(criterion_key(first, 1), "http_500")  # a failed request, then valid
    faults.script(criterion_key(second, 2), "score_11", "non_json", "score_float")  # never valid
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    out = tmp_path / "run"
    with StandInBatchServer(faults=faults, azure=route == "azure") as server:
        (use_azure if route == "azure" else use_openai)(monkeypatch, server)
        # One judgment fails for good: the run is incomplete, and says so with exit status 1, as live.
        assert run_judge(dataset_dir, responses, out, "--configs", "Hindi", "--judge-mode", "batch") == 1
    # Round 1 sends all 20; round 2 the three that failed; round 3 the one still invalid.
    assert [len(server.input_lines(f)) for f in server.uploads] == [20, 3, 1]
    lines = by_key(judgments(out))
    assert len(judgments(out)) == 20
    assert lines[("Hindi", first.index, 0)]["attempts"] == 2 and lines[("Hindi", first.index, 0)]["score"] is not None
    assert lines[("Hindi", first.index, 0)]["usage"]["calls"] == 2  # both answers paid for, both counted
    assert lines[("Hindi", first.index, 1)]["attempts"] == 2 and lines[("Hindi", first.index, 1)]["score"] is not None
    given_up = lines[("Hindi", second.index, 2)]
    assert given_up["score"] is None and given_up["attempts"] == 3 and given_up["error_kind"] == INVALID_ANSWER
    assert given_up["error"].startswith("invalid judge answer on attempt 3") and "gave up after 3 attempts" in given_up["error"]
    assert given_up["raw_text"] == judge_answer(7.5)  # the last answer (score_float) is kept
    assert given_up["usage"]["calls"] == 3


def test_follow_ups_go_to_the_live_judge_when_asked(tmp_path, dataset_dir, items, monkeypatch) -> None:
    first = hindi(items)[0]
    faults = FaultPlan().script(criterion_key(first, 0), "non_json")
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    with StandInBatchServer(faults=faults) as server:
        use_openai(monkeypatch, server)
        monkeypatch.setenv("JUDGE_BATCH_RETRY", "live")
        assert run_judge(dataset_dir, responses, tmp_path / "run", "--configs", "Hindi", "--judge-mode", "batch") == 0
    assert len(server.uploads) == 1 and len(server.live_calls) == 1  # no follow-up batch: one live call
    line = by_key(judgments(tmp_path / "run"))[("Hindi", first.index, 0)]
    assert line["attempts"] == 2 and line["score"] is not None and line["usage"]["calls"] == 2


@pytest.mark.parametrize("outcome", ["expired", "cancelled"])
def test_an_expired_or_cancelled_batch_is_resubmitted_for_what_it_did_not_finish(
    outcome, tmp_path, dataset_dir, items, monkeypatch
) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    with StandInBatchServer(outcomes=[outcome]) as server:
        use_openai(monkeypatch, server)
        assert run_judge(dataset_dir, responses, tmp_path / "run", "--configs", "Hindi", "--judge-mode", "batch") == 0
    first, second = (server.input_lines(f) for f in server.uploads)
    assert [line["custom_id"] for line in second] == [line["custom_id"] for line in first[10:]]  # the unfinished half
    lines = judgments(tmp_path / "run")
    assert len(lines) == 20 and all(line["score"] is not None and line["attempts"] == 1 for line in lines)


def test_a_failed_batch_is_sent_again_and_counts_one_attempt(tmp_path, dataset_dir, items, monkeypatch) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    with StandInBatchServer(outcomes=["failed"]) as server:
        use_openai(monkeypatch, server)
        assert run_judge(dataset_dir, responses, tmp_path / "run", "--configs", "Hindi", "--judge-mode", "batch") == 0
    assert [server.batches[b].status for b in server.created] == ["failed", "completed"]
    lines = judgments(tmp_path / "run")
    assert len(lines) == 20 and all(line["score"] is not None and line["attempts"] == 2 for line in lines)


def test_a_request_the_endpoint_refuses_is_final_at_once_as_live(tmp_path, dataset_dir, items, monkeypatch) -> None:
    target = hindi(items)[0]

    def reply(body: dict) -> Reply:
        prompt = parse_judge_prompt(user_text(body))
        if prompt.query == target.query and prompt.criterion["name"] == target.checklist[3]["name"]:
            return Reply(content="content filtered", status=400)
        return judge_reply()(body)

    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    with StandInBatchServer(reply) as server:
        use_openai(monkeypatch, server)
        assert run_judge(dataset_dir, responses, tmp_path / "run", "--configs", "Hindi", "--judge-mode", "batch") == 1
    assert len(server.uploads) == 1
    line = by_key(judgments(tmp_path / "run"))[("Hindi", target.index, 3)]
    assert line["score"] is None and line["error_kind"] == REJECTED and "content filtered" in line["error"]


@pytest.mark.parametrize("route", ["openai", "azure"])
def test_a_resume_after_kill_9_while_polling_pays_for_nothing_twice(route, tmp_path, dataset_dir, items, monkeypatch) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    out = tmp_path / "run"
    with StandInBatchServer(azure=route == "azure") as server:
        (use_azure if route == "azure" else use_openai)(monkeypatch, server)
        monkeypatch.setenv("JUDGE_BATCH_MAX_REQUESTS", "12")  # several batches in flight
        server.hold()
        command = [sys.executable, "-m", "eval_backend", "judge", "--dataset", str(dataset_dir), "--responses",
                   str(responses), "--out-dir", str(out), "--judge-mode", "batch"]
        process = subprocess.Popen(command, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 60
            while server.polls < 10 and time.monotonic() < deadline:  # submitted, and polling
                assert process.poll() is None, process.stderr.read().decode()
                time.sleep(0.05)
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
        created = list(server.created)
        assert len(created) == -(-len(items) * 5 // 12)
        state = BatchLedger(RunFolder(out)).read()
        assert {entry.batch_id for entry in state.in_flight()} == set(created)
        assert not (out / "judgments.jsonl").exists() or not judgments(out)

        server.release()
        assert run_judge(dataset_dir, responses, out, "--judge-mode", "batch") == 0
        assert server.created == created  # no new batch: the resume polled the ones paid for
    assert len(judgments(out)) == len(items) * 5
    assert not BatchLedger(RunFolder(out)).read().in_flight()
    assert (out / LEDGER_NAME).exists()


def test_a_batch_created_but_not_recorded_is_found_on_the_provider_not_created_again(
    tmp_path, dataset_dir, items, monkeypatch
) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    out = tmp_path / "run"
    with StandInBatchServer() as server:
        use_openai(monkeypatch, server)
        assert run_judge(dataset_dir, responses, out, "--configs", "Hindi", "--judge-mode", "batch") == 0
        # As if killed between creating the batch and recording it: keep only the upload in the ledger.
        ledger = out / LEDGER_NAME
        events = [json.loads(line) for line in ledger.read_text().splitlines()]
        ledger.write_text(json.dumps(events[0]) + "\n")
        (out / "judgments.jsonl").unlink()
        assert run_judge(dataset_dir, responses, out, "--configs", "Hindi", "--judge-mode", "batch") == 0
        assert len(server.created) == 1
    assert len(judgments(out)) == 20


def test_the_judge_mode_setting_picks_batch_mode_for_the_worker_and_the_cli(
    tmp_path, dataset_dir, items, monkeypatch, capsys
) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    with StandInBatchServer() as server:
        use_openai(monkeypatch, server)
        monkeypatch.setenv("JUDGE_MODE", "batch")  # what a worker is deployed with
        assert run_judge(dataset_dir, responses, tmp_path / "run", "--configs", "Hindi") == 0
        assert len(server.created) == 1
        assert run_judge(dataset_dir, responses, tmp_path / "live", "--configs", "Hindi", "--judge-mode", "live") == 0
        assert len(server.created) == 1 and len(server.live_calls) == 20  # the flag wins: live calls
        capsys.readouterr()
        monkeypatch.setenv("JUDGE_MODE", "sometimes")
        assert run_judge(dataset_dir, responses, tmp_path / "bad", "--configs", "Hindi") == 2
        assert "JUDGE_MODE" in capsys.readouterr().err


def test_a_collection_cut_short_is_done_again_without_writing_a_judgment_twice(
    tmp_path, dataset_dir, items, monkeypatch
) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    out = tmp_path / "run"
    with StandInBatchServer() as server:
        use_openai(monkeypatch, server)
        assert run_judge(dataset_dir, responses, out, "--configs", "Hindi", "--judge-mode", "batch") == 0
        # As if killed after writing the judgments but before recording the batch as collected.
        ledger = out / LEDGER_NAME
        events = [json.loads(line) for line in ledger.read_text().splitlines()]
        assert [event["event"] for event in events] == ["uploaded", "created", "collected"]
        ledger.write_text("".join(json.dumps(event) + "\n" for event in events[:2]))
        written = (out / "judgments.jsonl").read_text()
        assert run_judge(dataset_dir, responses, out, "--configs", "Hindi", "--judge-mode", "batch") == 0
        assert len(server.created) == 1
    assert (out / "judgments.jsonl").read_text() == written
    assert not BatchLedger(RunFolder(out)).read().in_flight()


def test_an_endpoint_without_a_batch_api_is_a_clear_error_and_nothing_is_recorded(
    tmp_path, dataset_dir, items, monkeypatch, capsys
) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    out = tmp_path / "run"
    with StandInChatServer() as server:  # chat completions only, as a vLLM server
        use_openai(monkeypatch, server)
        port = server.port
        assert run_judge(dataset_dir, responses, out, "--configs", "Hindi", "--judge-mode", "batch") == 2
    err = capsys.readouterr().err
    assert f"127.0.0.1:{port} failed to upload a batch input file" in err and "404" in err
    assert not BatchLedger(RunFolder(out)).read().files and (out / "responses.jsonl").exists()


def test_the_key_never_reaches_the_run_folder(tmp_path, dataset_dir, items, monkeypatch) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    with StandInBatchServer(azure=True) as server:
        use_azure(monkeypatch, server)
        assert run_judge(dataset_dir, responses, tmp_path / "run", "--configs", "Hindi", "--judge-mode", "batch") == 0
    for path in (tmp_path / "run").iterdir():
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path.name


def test_a_resume_with_another_judge_collects_the_old_batch_then_judges_with_the_new_one(
    tmp_path, dataset_dir, items, monkeypatch
) -> None:
    """The old judge's batch is paid for, so it is collected (kept under its judge); the new judge still
    owes every call, and the summary is the new judge's, complete."""
    responses = write_responses(tmp_path / "responses.jsonl", hindi(items))
    out = tmp_path / "run"
    calls = len(hindi(items)) * 5
    with StandInBatchServer() as server:
        use_openai(monkeypatch, server)
        server.hold()
        command = [sys.executable, "-m", "eval_backend", "judge", "--dataset", str(dataset_dir), "--responses",
                   str(responses), "--out-dir", str(out), "--configs", "Hindi", "--judge-mode", "batch"]
        process = subprocess.Popen(command, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 60
            while server.polls < 3 and time.monotonic() < deadline:  # the old judge's batch is submitted and pending
                assert process.poll() is None, process.stderr.read().decode()
                time.sleep(0.05)
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
        server.release()
        monkeypatch.setenv("JUDGE_MODEL", "new-judge")
        assert run_judge(dataset_dir, responses, out, "--configs", "Hindi", "--judge-mode", "batch") == 0
        assert len(server.created) == 2  # the old batch collected, one new batch for the new judge
    by_judge = {model: [r for r in judgments(out) if r["judge_model"] == model] for model in ("stand-in-judge", "new-judge")}
    assert len(by_judge["stand-in-judge"]) == len(by_judge["new-judge"]) == calls
    written = json.loads((out / "summary.json").read_text())
    assert written["provenance"]["judge_model"] == "new-judge" and written["complete"], written["coverage"]
