"""The judge client against a stand-in OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import sys
import threading
import time

import pytest

from eval_backend.benchmarks.writing_bench.judge import judge_messages
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.benchmarks.writing_bench.verdict import parse_verdict
from eval_backend.judge_client import JudgeClient, JudgeConfigError, build_openai_client
from eval_backend.records import INVALID_ANSWER, TRANSPORT_ERROR, sha256_text
from eval_backend.settings import JudgeSettings
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import FaultPlan, Reply, StandInChatServer, default_score, judge_reply, request_key


def judge_once(settings: JudgeSettings, messages: list[dict[str, str]]):
    async def go():
        client = JudgeClient(settings)
        try:
            return await client.judge(messages, parse_verdict), client
        finally:
            await client.close()

    return asyncio.run(go())


def test_the_request_carries_max_completion_tokens_and_no_sampling_parameters(items: list[Item]) -> None:
    messages = judge_messages(items[0], 0, "An answer.")
    with StandInChatServer() as server:
        outcome, _ = judge_once(fast_judge_settings(server, max_completion_tokens=1234), messages)
        (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.body["messages"] == messages
    assert request.body["model"] == "stand-in-judge"
    assert request.body["max_completion_tokens"] == 1234
    assert not {"temperature", "top_p", "top_k", "max_tokens"} & set(request.body)
    assert outcome.verdict.score == default_score(items[0].checklist[0], "An answer.")
    assert outcome.attempts == 1 and outcome.usage.calls == 1 and outcome.usage.total_tokens > 0


def test_the_prompt_hash_comes_back_and_the_prompt_keeps_no_utf8_copy_while_in_flight(items: list[Item]) -> None:
    # orjson caches a UTF-8 copy inside each non-ASCII text it encodes (CPython's PyUnicode_AsUTF8);
    # the caller holds its prompt for the whole call, so the client encodes a throwaway copy of it
    # and hashes that copy's UTF-8, which the judgment records.
    messages = judge_messages(items[0], 0, "यह एक निबंध है। " * 500)
    prompt = messages[-1]["content"]
    size = sys.getsizeof(prompt)
    with StandInChatServer() as server:
        outcome, _ = judge_once(fast_judge_settings(server), messages)
        (request,) = server.requests
    assert request.body["messages"] == messages
    assert outcome.verdict is not None
    assert outcome.prompt_sha256 == sha256_text(prompt)
    assert sys.getsizeof(prompt) == size  # a cached UTF-8 copy would add ~1.5 bytes a character


def test_azure_calls_go_to_the_deployment_url_with_the_api_version(items: list[Item]) -> None:
    with StandInChatServer() as server:
        settings = JudgeSettings(
            azure_endpoint=server.azure_endpoint, azure_api_key="azure-key", model="gpt-5.4", max_backoff_s=0.05
        )
        outcome, _ = judge_once(settings, judge_messages(items[0], 1, "x"))
        (request,) = server.requests
    assert request.path == "/openai/deployments/gpt-5.4/chat/completions"
    assert "api-version=2024-12-01-preview" in request.query
    assert request.headers["api-key"] == "azure-key"
    assert outcome.verdict is not None


@pytest.mark.parametrize("fault", ["non_json", "score_11", "score_string", "score_float", "score_bool", "missing_reason", "truncated"])
def test_an_invalid_answer_is_asked_again_and_then_accepted(items: list[Item], fault: str) -> None:
    messages = judge_messages(items[0], 0, "text")
    plan = FaultPlan()
    with StandInChatServer(faults=plan) as server:
        plan.script(request_key({"messages": messages}), fault)
        outcome, _ = judge_once(fast_judge_settings(server), messages)
        assert server.stats.requests == 2
    assert outcome.verdict is not None and outcome.attempts == 2 and outcome.usage.calls == 2


def test_three_invalid_answers_make_a_failed_judgment_with_the_raw_text(items: list[Item]) -> None:
    messages = judge_messages(items[0], 0, "text")
    plan = FaultPlan()
    with StandInChatServer(faults=plan) as server:
        plan.script(request_key({"messages": messages}), "non_json", "score_11", "non_json")
        outcome, _ = judge_once(fast_judge_settings(server), messages)
        assert server.stats.requests == 3
    assert outcome.verdict is None and outcome.attempts == 3
    assert outcome.error_kind == INVALID_ANSWER
    assert "gave up after 3 attempts" in outcome.error
    assert outcome.raw_text == "I think it is good"


@pytest.mark.parametrize("body", [b"<html>gateway</html>", b'{"choices": []}', b"[1, 2]"])
def test_a_body_that_is_not_a_chat_completion_counts_as_an_invalid_answer(items: list[Item], body: bytes) -> None:
    with StandInChatServer(lambda request: Reply(raw_body=body)) as server:
        outcome, _ = judge_once(fast_judge_settings(server), judge_messages(items[0], 0, "x"))
        assert server.stats.requests == 3
    assert outcome.verdict is None and outcome.error_kind == INVALID_ANSWER


def test_rate_limits_and_server_errors_are_retried_without_using_up_attempts(items: list[Item]) -> None:
    messages = judge_messages(items[0], 0, "text")
    plan = FaultPlan(retry_after="0")
    with StandInChatServer(faults=plan) as server:
        plan.script(request_key({"messages": messages}), "http_429", "http_500", "http_429", "non_json", "non_json")
        outcome, client = judge_once(fast_judge_settings(server), messages)
        assert server.stats.requests == 6
    assert outcome.verdict is not None and outcome.attempts == 3
    assert client.transport_retries == 3
    assert client.limiter.throttles == 2


def test_retry_after_is_honoured(items: list[Item]) -> None:
    messages = judge_messages(items[0], 0, "text")
    plan = FaultPlan(retry_after="0.3")
    with StandInChatServer(faults=plan) as server:
        plan.script(request_key({"messages": messages}), "http_429")
        judge_once(fast_judge_settings(server, max_backoff_s=5), messages)
        first, second = server.requests
    assert second.time - first.time >= 0.3


def test_transport_retries_are_bounded_and_end_in_a_transport_failure(items: list[Item]) -> None:
    messages = judge_messages(items[0], 0, "text")
    with StandInChatServer(lambda body: Reply(content="down", status=503)) as server:
        outcome, _ = judge_once(fast_judge_settings(server, transport_retries=2), messages)
        assert server.stats.requests == 3
    assert outcome.verdict is None and outcome.error_kind == TRANSPORT_ERROR


@pytest.mark.parametrize("status", [401, 403, 404])
def test_an_endpoint_that_refuses_us_stops_the_run(items: list[Item], status: int) -> None:
    with StandInChatServer(lambda body: Reply(content="no", status=status)) as server:
        with pytest.raises(JudgeConfigError, match="refused"):
            judge_once(fast_judge_settings(server), judge_messages(items[0], 0, "x"))
        assert server.stats.requests == 1


def test_an_exhausted_quota_is_not_retried(items: list[Item]) -> None:
    quota = Reply(
        status=429,
        raw_body=b'{"error": {"message": "quota", "type": "insufficient_quota", "code": "insufficient_quota"}}',
    )
    with StandInChatServer(lambda body: quota) as server:
        with pytest.raises(JudgeConfigError):
            judge_once(fast_judge_settings(server), judge_messages(items[0], 0, "x"))
        assert server.stats.requests == 1


def test_no_endpoint_configured_is_a_clear_error() -> None:
    with pytest.raises(JudgeConfigError, match="AZURE_OPENAI_ENDPOINT .* OPENAI_API_KEY"):
        build_openai_client(JudgeSettings())


def test_the_key_never_appears_in_the_settings_repr() -> None:
    settings = JudgeSettings(api_key="sk-very-secret", azure_api_key="az-very-secret")
    assert "very-secret" not in repr(settings) and "very-secret" not in str(settings.model_dump())


def test_concurrency_is_bounded(items: list[Item]) -> None:
    in_flight, peak = 0, 0
    lock = threading.Lock()
    scorer = judge_reply()

    def slow(body):
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.05)
        with lock:
            in_flight -= 1
        return scorer(body)

    async def go(settings):
        client = JudgeClient(settings)
        try:
            calls = (client.judge(judge_messages(items[0], 0, f"t{n}"), parse_verdict) for n in range(12))
            await asyncio.gather(*calls)
        finally:
            await client.close()

    with StandInChatServer(slow) as server:
        asyncio.run(go(fast_judge_settings(server, concurrency=3)))
    assert 1 <= peak <= 3
