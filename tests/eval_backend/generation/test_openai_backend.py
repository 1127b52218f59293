"""The OpenAI-compatible backend against a stand-in chat server on 127.0.0.1, which decides the text."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterator

import pytest

from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.generation.base import GenerationConfigError
from eval_backend.generation.generating import GenerationProgress
from eval_backend.generation.options import GenerationOptions
from eval_backend.pipeline import RunSpec, generate_phase
from tests.eval_backend.generation.conftest import BENCHMARK
from tests.support.chat_server import Reply, StandInChatServer, chat_reply, user_text


@pytest.fixture
def serve() -> Iterator[Callable[..., StandInChatServer]]:
    servers: list[StandInChatServer] = []

    def start(reply: Any) -> StandInChatServer:
        servers.append(StandInChatServer(reply).start())
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def _options(server: StandInChatServer, **overrides: Any) -> GenerationOptions:
    values = {"model": "org/model-under-test", "backend": "openai", "base_url": server.base_url, **overrides}
    return GenerationOptions(**values)


def test_each_item_is_one_user_message_with_the_benchmark_sampling(
    serve: Callable[..., StandInChatServer], run_spec: RunSpec, items: list[Item]
) -> None:
    server = serve(chat_reply(lambda messages: "A finished answer."))
    generate_phase(run_spec, items[:3], _options(server, max_tokens=300, seed=5))

    bodies = {user_text(request.body): request.body for request in server.requests}
    assert set(bodies) == {item.query for item in items[:3]}  # each query verbatim, once
    body = bodies[items[0].query]
    assert body["messages"] == [{"role": "user", "content": items[0].query}]
    assert body["model"] == "org/model-under-test"
    assert (body["temperature"], body["top_p"], body["top_k"], body["max_tokens"], body["seed"]) == (
        0.7,
        0.8,
        20,
        300,
        5,
    )

    record = run_spec.folder.read_responses()[items[0].key]
    assert (record.response, record.finish_reason, record.error) == ("A finished answer.", "stop", None)
    assert record.output_tokens == len("A finished answer.") // 4  # the stand-in counts 4 characters a token
    assert record.generation["backend"] == "openai" and "base_url" not in record.generation


def test_reasoning_is_kept_raw_and_only_the_answer_is_judged(
    serve: Callable[..., StandInChatServer], run_spec: RunSpec, items: list[Item]
) -> None:
    server = serve(chat_reply(lambda messages: "<think>\nLet me plan.\n</think>\n\nThe article."))
    generate_phase(run_spec, items[:1], _options(server))

    record = run_spec.folder.read_responses()[items[0].key]
    assert record.response == "<think>\nLet me plan.\n</think>\n\nThe article."
    assert not record.unclosed_thinking
    assert BENCHMARK.judged_text(record.response) == "The article."


def test_thinking_cut_off_by_the_token_budget_is_flagged(
    serve: Callable[..., StandInChatServer], run_spec: RunSpec, items: list[Item]
) -> None:
    server = serve(chat_reply(lambda messages: "<think>\n" + "Still considering the options. " * 50))
    generate_phase(run_spec, items[:1], _options(server, max_tokens=40))

    record = run_spec.folder.read_responses()[items[0].key]
    assert record.finish_reason == "length"
    assert record.unclosed_thinking
    assert record.response.startswith("<think>") and "</think>" not in record.response


def test_a_reasoning_model_whose_template_opens_thinking_is_flagged_without_a_close(
    serve: Callable[..., StandInChatServer], run_spec: RunSpec, items: list[Item]
) -> None:
    answers = {items[0].query: "planning only, never closed", items[1].query: "planning</think>\n\nThe answer."}
    server = serve(chat_reply(lambda messages: answers[messages[-1]["content"]]))
    generate_phase(run_spec, items[:2], _options(server, reasoning=True))

    responses = run_spec.folder.read_responses()
    assert responses[items[0].key].unclosed_thinking
    assert not responses[items[1].key].unclosed_thinking


def test_a_request_the_endpoint_rejects_is_an_error_for_that_item(
    serve: Callable[..., StandInChatServer], run_spec: RunSpec, items: list[Item]
) -> None:
    too_long = items[1].query

    def reply(body: dict[str, Any]) -> Reply:
        if user_text(body) == too_long:
            return Reply(content="This model's maximum context length is 4096 tokens", status=400)
        return Reply(content="An answer.")

    server = serve(reply)
    progress = generate_phase(run_spec, items[:3], _options(server))

    responses = run_spec.folder.read_responses()
    assert progress.errors == 1
    assert responses[items[1].key].response is None
    assert "maximum context length" in responses[items[1].key].error
    assert responses[items[0].key].response == "An answer."


def prompt_tokens(item: Item) -> int:
    return len(item.query) // 4  # as the stand-in counts


def test_max_tokens_is_capped_to_the_context_the_server_reports_and_a_prompt_that_cannot_fit_is_not_sent(
    run_spec: RunSpec, items: list[Item]
) -> None:
    long = dataclasses.replace(items[2], query=items[2].query * 3)
    chosen = [items[0], items[1], long]
    context = max(prompt_tokens(items[0]), prompt_tokens(items[1])) + 20  # room for both, none for the long one
    with StandInChatServer(chat_reply(), max_model_len=context) as server:
        progress = generate_phase(run_spec, chosen, _options(server))
        sent = {user_text(request.body): request.body["max_tokens"] for request in server.requests}
    assert sent == {item.query: context - prompt_tokens(item) for item in chosen[:2]}  # no 400, no waste
    assert progress.errors == 1
    unfit = run_spec.folder.read_responses()[chosen[2].key]
    assert unfit.response is None and unfit.error_kind == "model"
    assert unfit.error == f"prompt of {prompt_tokens(chosen[2])} tokens does not fit the context of {context}"
    fitted = run_spec.folder.read_responses()[chosen[0].key]
    assert fitted.generation["max_tokens"] == context - prompt_tokens(chosen[0])


def test_max_model_len_lowers_the_context_the_server_reports(run_spec: RunSpec, items: list[Item]) -> None:
    item = items[0]
    with StandInChatServer(chat_reply(), max_model_len=100_000) as server:
        generate_phase(run_spec, [item], _options(server, max_model_len=prompt_tokens(item) + 7))
        assert server.requests[0].body["max_tokens"] == 7


def test_an_endpoint_that_refuses_us_stops_the_run(
    serve: Callable[..., StandInChatServer], run_spec: RunSpec, items: list[Item]
) -> None:
    server = serve(lambda body: Reply(content="invalid api key", status=401))
    with pytest.raises(GenerationConfigError, match="refused"):
        generate_phase(run_spec, items[:2], _options(server))
    assert run_spec.folder.read_responses() == {}


def test_resume_after_an_interruption_sends_each_item_once(
    serve: Callable[..., StandInChatServer], run_spec: RunSpec, items: list[Item]
) -> None:
    server = serve(chat_reply())
    chosen = items[:6]

    def interrupt(progress: GenerationProgress) -> None:
        if progress.done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate_phase(run_spec, chosen, _options(server, concurrency=1), interrupt)
    assert len(server.requests) == 2

    generate_phase(run_spec, chosen, _options(server, concurrency=3))
    sent = [user_text(request.body) for request in server.requests]
    assert sorted(sent) == sorted(item.query for item in chosen)
    assert set(run_spec.folder.read_responses()) == {item.key for item in chosen}

    generate_phase(run_spec, chosen, _options(server))
    assert len(server.requests) == len(chosen)


def test_the_openai_backend_needs_an_endpoint(run_spec: RunSpec, items: list[Item]) -> None:
    with pytest.raises(GenerationConfigError, match="GENERATION_BASE_URL"):
        generate_phase(run_spec, items[:1], GenerationOptions(model="m", backend="openai"))
