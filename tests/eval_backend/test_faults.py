"""Faults of the judge: text no UTF-8 file can hold, a judge that trickles its answer, a judge that is down.

A fault never loses work already paid for, and never turns into hours of retrying.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import pandas as pd
import pytest

from eval_backend.benchmarks.writing_bench.judge import judge_messages
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.benchmarks.writing_bench.verdict import parse_verdict
from eval_backend.jsonl import JsonlAppender, read_jsonl
from eval_backend.judge_client import JudgeClient, JudgeUnreachableError
from eval_backend.records import INVALID_ANSWER, TRANSPORT_ERROR
from eval_backend.run_folder import RunFolder
from eval_backend.scorer_runs import read_verdicts
from tests.eval_backend.cli.test_judge_cmd import run_judge, write_responses
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import Reply, StandInChatServer, judge_answer, parse_judge_prompt, user_text

# Every kind of lone surrogate: high, low, at the ends, doubled the wrong way round.
LONE_SURROGATES = ["\ud800", "\udfff", "\udbff\udbff", "\udc00\ud800", "a\ud83d", "\ude00b"]


@pytest.mark.parametrize("surrogate", LONE_SURROGATES)
def test_any_lone_surrogate_is_stored_as_valid_utf_8_and_read_back_the_same(tmp_path: Path, surrogate: str) -> None:
    record = {"reason": f"ok {surrogate} ok", surrogate: [surrogate], "hindi": "ठीक है"}
    with JsonlAppender(tmp_path / "f.jsonl") as appender:
        appender.append(record)
        appender.append({"after": 1})
    raw = (tmp_path / "f.jsonl").read_bytes()
    raw.decode("utf-8")  # strict: the file is valid UTF-8
    assert "ठीक है".encode() in raw  # other text is written as is, not escaped
    assert [data for _, data in read_jsonl(tmp_path / "f.jsonl")] == [record, {"after": 1}]


def completion_body(content: str) -> bytes:
    """A chat completion as a server would send it, with `content` JSON-escaped (lone surrogates included)."""
    body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
    return json.dumps(body).encode("ascii")


@pytest.mark.parametrize("surrogate", LONE_SURROGATES[:3])
def test_a_lone_surrogate_from_the_judge_or_the_model_never_stops_the_run(
    tmp_path, dataset_dir, items, monkeypatch, surrogate
) -> None:
    hindi = [item for item in items if item.config == "Hindi"]
    position = {json.dumps(entry, ensure_ascii=False): n for item in hindi for n, entry in enumerate(item.checklist)}

    def reply(body: dict) -> Reply:
        criterion = position[json.dumps(parse_judge_prompt(user_text(body)).criterion, ensure_ascii=False)]
        if criterion == 0:  # a valid verdict whose reason carries the surrogate
            return Reply(raw_body=completion_body(judge_answer(7, f"good {surrogate} work")))
        if criterion == 1:  # never a verdict: the surrogate ends up in the failed judgment's raw text
            return Reply(raw_body=completion_body(f"no verdict {surrogate}"))
        return Reply(content=judge_answer(5, "plain"))

    # The model's own response carries one too (escaped in the file, as json.dumps writes it).
    responses = tmp_path / "responses.jsonl"
    lines = [{"config": i.config, "index": i.index, "response": f"उत्तर {surrogate} {i.id}"} for i in hindi]
    responses.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    out = tmp_path / "run"
    with StandInChatServer(reply) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
        assert run_judge(dataset_dir, responses, out, "--concurrency", "1") == 1  # failed judgments: incomplete
        sent = server.stats.requests
        assert run_judge(dataset_dir, responses, out) == 1  # a resume has nothing left to send
        assert server.stats.requests == sent

    for name in ("responses.jsonl", "judgments.jsonl", "summary.json"):
        (out / name).read_bytes().decode("utf-8")
    folder = RunFolder(out)
    assert {r.response for r in folder.read_responses().values()} == {f"उत्तर {surrogate} {i.id}" for i in hindi}
    judgments = read_verdicts(INDIC_WRITING_BENCH, folder)
    assert len(judgments) == len(hindi) * 5
    assert [j.reason for j in judgments if j.criterion_index == 0] == [f"good {surrogate} work"] * len(hindi)
    assert [j.raw_text for j in judgments if j.criterion_index == 1] == [f"no verdict {surrogate}"] * len(hindi)
    details = pd.read_parquet(out / "details.parquet")  # the download: U+FFFD where the surrogate was
    hindi_rows = details[details["config"] == "Hindi"]
    replacement = "\ufffd" * len(surrogate)
    assert list(hindi_rows["reason_1"]) == [f"good {replacement} work"] * len(hindi)


class RawJudgeServer:
    """A judge on a plain socket, for what an HTTP server library will not do: trickle or hang up.

    `mode` "trickle": headers at once, then the body one byte every `gap_s` (each byte resets a
    per-read timeout, so only an overall deadline ends the call); "answer": the whole answer;
    "hang-up": the connection is closed before any response, as a crashed judge's would be.
    """

    def __init__(self, body: bytes, mode: str = "answer", gap_s: float = 0.05) -> None:
        self.body, self.mode, self.gap_s = body, mode, gap_s
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self._listener.settimeout(0.1)
        while not self._stop.is_set():
            try:
                connection, _ = self._listener.accept()
            except OSError:
                continue
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        with connection:
            if self.mode == "hang-up":
                return
            request = b""
            while b"\r\n\r\n" not in request:
                request += connection.recv(65536)
            head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(self.body)}\r\n"
                    "Connection: close\r\n\r\n").encode()
            try:
                if self.mode == "answer":
                    connection.sendall(head + self.body)
                    return
                connection.sendall(head)
                for byte in self.body:
                    if self._stop.wait(self.gap_s):
                        return
                    connection.sendall(bytes([byte]))
            except OSError:  # the client gave up: that is the point
                return

    def close(self) -> None:
        self._stop.set()
        self._listener.close()


@pytest.fixture
def raw_judge() -> Iterator[RawJudgeServer]:
    server = RawJudgeServer(completion_body(judge_answer(7, "slow but valid")))
    yield server
    server.close()


def judge_once(settings, messages):
    async def go():
        client = JudgeClient(settings)
        try:
            return await client.judge(messages, parse_verdict)
        finally:
            await client.close()

    return asyncio.run(go())


def test_a_judge_that_trickles_its_answer_is_cut_off_at_the_overall_deadline(raw_judge, items: list[Item]) -> None:
    # The valid answer would take about 10 s to arrive, a byte each 0.05 s, under a 0.3 s read timeout.
    raw_judge.mode = "trickle"
    settings = fast_judge_settings(raw_judge, timeout_s=0.3, transport_retries=1)
    started = time.monotonic()
    outcome = judge_once(settings, judge_messages(items[0], 0, "text"))
    assert outcome.verdict is None and outcome.error_kind == TRANSPORT_ERROR
    assert "no complete answer within 0.3s (JUDGE_TIMEOUT_S)" in outcome.error
    assert time.monotonic() - started < 5  # two attempts of 0.3 s, not the 10 s the answer takes


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens: every connection is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_judge_that_refuses_connections_stops_the_run_naming_its_host(
    tmp_path, dataset_dir, items, monkeypatch, capsys
) -> None:
    port = closed_port()
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://operator:Pa55word@127.0.0.1:{port}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-0123456789abcdef")
    monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
    monkeypatch.setenv("JUDGE_MAX_BACKOFF_S", "0.01")
    monkeypatch.setenv("JUDGE_MAX_CONNECTION_FAILURES", "4")
    out = tmp_path / "run"
    assert run_judge(dataset_dir, write_responses(tmp_path / "r.jsonl", items), out, "--concurrency", "2") == 2
    err = capsys.readouterr().err
    assert re.search(rf"the judge endpoint 127\.0\.0\.1:{port} could not be reached 4 times in a row", err)
    assert "Pa55word" not in err and "operator" not in err and "0123456789" not in err
    assert not (out / "judgments.jsonl").exists() or (out / "judgments.jsonl").read_text() == ""


def test_connection_failures_between_answers_do_not_stop_the_run(raw_judge, items: list[Item]) -> None:
    """Only failures in a row count: a judge that answers now and then is flaky, not down."""
    messages = judge_messages(items[0], 0, "x")

    async def go() -> list:
        client = JudgeClient(fast_judge_settings(raw_judge, max_connection_failures=2, transport_retries=0))
        outcomes = []
        try:
            for mode in ["hang-up", "answer"] * 3 + ["hang-up"]:
                raw_judge.mode = mode
                outcomes.append(await client.judge(messages, parse_verdict))
            with pytest.raises(JudgeUnreachableError, match=f"127.0.0.1:{raw_judge.port} could not be reached 2 times"):
                await client.judge(messages, parse_verdict)
        finally:
            await client.close()
        return outcomes

    outcomes = asyncio.run(go())
    assert [outcome.error_kind for outcome in outcomes] == [TRANSPORT_ERROR, None] * 3 + [TRANSPORT_ERROR]


HOSTILE_ANSWERS = {
    "score of 5000 digits": '{"score": ' + "9" * 5000 + ', "reason": "r"}',
    "score of 4000 digits": '{"score": ' + "9" * 4000 + ', "reason": "r"}',
    "nested 100000 deep": '{"score": 7, "reason": "r", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
}


@pytest.mark.parametrize("answer", HOSTILE_ANSWERS.values(), ids=HOSTILE_ANSWERS.keys())
@pytest.mark.parametrize("where", ["answer text", "whole body"])
def test_a_hostile_judge_answer_is_an_invalid_answer_not_a_crash(items: list[Item], answer: str, where: str) -> None:
    reply = Reply(content=answer) if where == "answer text" else Reply(raw_body=answer.encode())
    with StandInChatServer(lambda body: reply) as server:
        outcome = judge_once(fast_judge_settings(server), judge_messages(items[0], 0, "x"))
    assert outcome.verdict is None and outcome.error_kind == INVALID_ANSWER
    assert len(outcome.error) < 300  # the message says what is wrong without repeating the payload
