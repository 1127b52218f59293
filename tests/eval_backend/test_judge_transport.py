"""The judge's HTTP transport against the stand-in server: what goes on the wire, and what a fault raises."""

from __future__ import annotations

import asyncio
import json
import socket
import tracemalloc

import aiohttp
import openai
import pytest

from eval_backend.judge_client import build_openai_client
from eval_backend.judge_transport import JudgeTransport, encode_body, run_event_loop
from eval_backend.settings import JudgeSettings
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import FaultPlan, StandInChatServer, chat_reply

CHAT = "/chat/completions"
INDIC = "यह एक निबंध है। मौसम अच्छा है।"


def post(settings: JudgeSettings, body: dict, path: str = CHAT) -> bytes:
    """One POST of `body` through a transport built as the judge client builds it."""

    async def go() -> bytes:
        transport = JudgeTransport(build_openai_client(settings), path, settings.timeout_s)
        try:
            return await transport.post(encode_body(body))
        finally:
            await transport.close()

    return run_event_loop(go())


def chat_body(text: str = INDIC) -> dict:
    return {"model": "stand-in-judge", "messages": [{"role": "user", "content": text}]}


def test_the_body_is_raw_utf8_json_and_reads_back_equal() -> None:
    body = chat_body()
    encoded = encode_body(body)
    assert INDIC.encode("utf-8") in encoded  # not \\u-escaped: an Indic prompt would be twice the bytes
    assert json.loads(encoded) == body
    with StandInChatServer(chat_reply()) as server:
        answer = json.loads(post(fast_judge_settings(server), body))
        (request,) = server.requests
    assert request.body == body
    assert int(request.headers["content-length"]) == len(encoded)
    assert answer["object"] == "chat.completion"


def test_a_body_holds_no_more_memory_than_its_bytes() -> None:
    # orjson's own result keeps the buffer it grew while encoding (~1 MB for this body); a call holds
    # its body while in flight, so 100 calls held ~100 MB. What encode_body returns is of its own size.
    body = chat_body(INDIC * 2_000)
    encode_body(body)  # orjson's one-time set-up is not the body's
    tracemalloc.start()
    try:
        encoded = encode_body(body)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(encoded) > 100_000
    assert held < len(encoded) + 1_000


def test_a_lone_surrogate_is_sent_as_its_json_escape() -> None:
    body = chat_body("before \ud800 after")
    encoded = encode_body(body)
    encoded.decode("utf-8")  # valid UTF-8, which the surrogate itself has no form in
    assert b"\\ud800" in encoded and json.loads(encoded) == body


def test_the_key_is_sent_and_the_sdk_telemetry_headers_are_not() -> None:
    with StandInChatServer(chat_reply()) as server:
        post(fast_judge_settings(server), chat_body())
        (request,) = server.requests
    assert request.headers["authorization"] == "Bearer sk-test-not-a-secret"
    assert request.headers["content-type"] == "application/json"
    assert not [name for name in request.headers if name.startswith("x-stainless")]


def test_an_azure_deployment_name_with_a_slash_stays_one_path_segment() -> None:
    with StandInChatServer(chat_reply()) as server:
        settings = JudgeSettings(azure_endpoint=server.azure_endpoint, azure_api_key="azure-key", model="team/gpt-5.4")
        post(settings, chat_body(), "/deployments/team%2Fgpt-5.4/chat/completions")
        (request,) = server.requests
    assert request.path == "/openai/deployments/team%2Fgpt-5.4/chat/completions"
    assert request.query == "api-version=2024-12-01-preview"
    assert request.headers["api-key"] == "azure-key"


def test_an_error_status_raises_the_sdk_exception_with_the_answer_headers_and_body() -> None:
    with StandInChatServer(faults=FaultPlan(first_n=1, first_n_kind="http_429", retry_after="7")) as server:
        with pytest.raises(openai.RateLimitError) as raised:
            post(fast_judge_settings(server), chat_body())
    assert raised.value.status_code == 429
    assert raised.value.response.headers["retry-after"] == "7"  # read by the retry policy
    assert isinstance(raised.value.body, dict) and "rate limit" in raised.value.body["message"]


def test_a_refused_connection_raises_a_connection_error_not_a_timeout() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = JudgeSettings(base_url=f"http://127.0.0.1:{port}/v1", api_key="sk-x", model="m")
    with pytest.raises(openai.APIConnectionError) as raised:
        post(settings, chat_body())
    assert not isinstance(raised.value, openai.APITimeoutError)
    assert isinstance(raised.value.__cause__, aiohttp.ClientConnectorError)


def test_the_proxy_named_in_the_environment_carries_the_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_PROXY", "no_proxy", "http_proxy"):
        monkeypatch.delenv(name, raising=False)
    with StandInChatServer(chat_reply()) as proxy:  # answers the proxy's absolute-form request line like any other
        monkeypatch.setenv("HTTP_PROXY", proxy.azure_endpoint)
        settings = JudgeSettings(base_url="http://judge.invalid/v1", api_key="sk-x", model="m")
        post(settings, chat_body())
        (request,) = proxy.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["host"] == "judge.invalid"


def test_the_event_loop_is_uvloop_where_it_is_installed() -> None:
    pytest.importorskip("uvloop")

    async def loop_module() -> str:
        return type(asyncio.get_running_loop()).__module__

    assert run_event_loop(loop_module()).startswith("uvloop")
