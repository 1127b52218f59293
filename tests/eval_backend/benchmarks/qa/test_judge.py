"""The LLM judge of equivalence: its prompt, strict verdicts, and calls to a stand-in judge over HTTP."""

from __future__ import annotations

import asyncio

import pytest

from eval_backend.benchmarks.qa import EquivalenceVerdict, QaJudgment, QaRow
from eval_backend.benchmarks.qa.judge import (
    JUDGE_TEMPERATURE,
    judge_messages,
    judge_rows,
    parse_equivalence_verdict,
)
from eval_backend.judge_client import JudgeClient
from eval_backend.records import INVALID_ANSWER, REJECTED
from eval_backend.settings import JudgeSettings
from eval_backend.verdict import VerdictError
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import FaultPlan, Reply, StandInChatServer, user_text
from tests.support.qa_judge import TEMPERATURE_REFUSAL, parse_qa_judge_prompt, qa_judge_reply, qa_verdict

DELHI = QaRow("What is the capital of India?", "Delhi", "Geography", "Delhi is not the answer; it's Mumbai")
RIGHT = QaRow("What is the capital of India?", "Delhi", "Geography", "The capital is Delhi.")


def judge_all(settings: JudgeSettings, rows: list[QaRow], temperature: float | None = JUDGE_TEMPERATURE):
    async def go() -> tuple[list[QaJudgment], JudgeClient]:
        client = JudgeClient(settings, temperature=temperature)
        try:
            return await judge_rows(rows, client), client
        finally:
            await client.close()

    return asyncio.run(go())


def test_the_prompt_carries_question_golden_and_response_as_given() -> None:
    row = QaRow("  Which river?\n", "गंगा ", "Geography", "उत्तर: गंगा।\n```code```")
    system, user = judge_messages(row)
    assert system["role"] == "system" and "equivalent" in system["content"]
    assert user["role"] == "user"
    prompt = parse_qa_judge_prompt(user["content"])
    assert prompt is not None
    assert (prompt.question, prompt.answer, prompt.response) == (row.question, row.answer, row.response)
    assert '{"correct": true or false' in user["content"]
    assert "mentions the golden answer without asserting it" in user["content"]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ('{"correct": false, "reason": "It rejects Delhi."}', EquivalenceVerdict(False, "It rejects Delhi.")),
        ('```json\n{"correct": true, "reason": "Same city."}\n```', EquivalenceVerdict(True, "Same city.")),
        ('  {"reason": "", "correct": true}  ', EquivalenceVerdict(True, "")),
    ],
)
def test_valid_verdicts_parse(text: str, verdict: EquivalenceVerdict) -> None:
    assert parse_equivalence_verdict(text) == verdict


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "empty answer"),
        ("   ", "empty answer"),
        ("Correct.", "not JSON"),
        ('[{"correct": true}]', "expected a JSON object"),
        ('{"correct": "true", "reason": "x"}', "'correct' must be true or false"),
        ('{"correct": 1, "reason": "x"}', "'correct' must be true or false"),
        ('{"correct": null, "reason": "x"}', "'correct' must be true or false"),
        ('{"reason": "x"}', "'correct' must be true or false"),
        ('{"correct": true}', "'reason' is missing"),
        ('{"correct": true, "reason": 3}', "'reason' is missing or not a string"),
        ('The verdict: {"correct": true, "reason": "x"}', "not JSON"),
    ],
)
def test_anything_else_is_refused_with_a_reason(text: str | None, message: str) -> None:
    with pytest.raises(VerdictError, match=message):
        parse_equivalence_verdict(text)


def test_the_delhi_mention_is_judged_wrong_and_the_assertion_right() -> None:
    with StandInChatServer(qa_judge_reply()) as server:
        judgments, _ = judge_all(fast_judge_settings(server), [DELHI, RIGHT])
        requests = server.requests
    assert [judgment.correct for judgment in judgments] == [False, True]
    assert judgments[0].reason == "Does not state 'Delhi'."
    assert judgments[0].attempts == 1 and judgments[0].usage.calls == 1
    sent = {parse_qa_judge_prompt(user_text(request.body)).response for request in requests}  # concurrent: any order
    assert sent == {DELHI.response, RIGHT.response}


def test_calls_go_at_temperature_zero_with_max_completion_tokens() -> None:
    with StandInChatServer(qa_judge_reply()) as server:
        judge_all(fast_judge_settings(server, max_completion_tokens=321), [RIGHT])
        (request,) = server.requests
    assert request.body["temperature"] == 0.0
    assert request.body["max_completion_tokens"] == 321
    assert request.body["messages"] == judge_messages(RIGHT)


def test_a_judge_that_refuses_temperature_zero_is_asked_at_its_default_and_this_is_recorded() -> None:
    async def go(settings: JudgeSettings) -> tuple[list[QaJudgment], JudgeClient]:
        client = JudgeClient(settings, temperature=JUDGE_TEMPERATURE)
        try:
            return [*await judge_rows([DELHI], client), *await judge_rows([RIGHT], client)], client
        finally:
            await client.close()

    with StandInChatServer(qa_judge_reply(refuse_temperature=True)) as server:
        judgments, client = asyncio.run(go(fast_judge_settings(server)))
        requests = server.requests
    assert [judgment.correct for judgment in judgments] == [False, True]
    assert judgments[0].attempts == 1  # the refusal did not use up an attempt
    assert client.temperature_refused is not None and TEMPERATURE_REFUSAL in client.temperature_refused
    # Refused once, sent again without, and never sent with it again.
    assert [request.body.get("temperature") for request in requests] == [0.0, None, None]


def test_an_invalid_answer_is_asked_again_then_accepted() -> None:
    plan = FaultPlan(first_n=2, first_n_kind="non_json")
    with StandInChatServer(qa_judge_reply(), faults=plan) as server:
        (judgment,), _ = judge_all(fast_judge_settings(server), [DELHI])
    assert judgment.correct is False and judgment.attempts == 3 and judgment.usage.calls == 3


def test_a_judge_that_never_answers_validly_fails_the_row_without_scoring_it() -> None:
    with StandInChatServer(lambda body: Reply(content=qa_verdict("true"))) as server:
        (judgment,), _ = judge_all(fast_judge_settings(server), [RIGHT])
    assert judgment.failed and judgment.correct is None
    assert judgment.error_kind == INVALID_ANSWER and judgment.attempts == 3
    assert "'correct' must be true or false" in judgment.reason


def test_server_errors_are_retried_apart_from_the_attempts() -> None:
    plan = FaultPlan(first_n=2, first_n_kind="http_500")
    with StandInChatServer(qa_judge_reply(), faults=plan) as server:
        (judgment,), client = judge_all(fast_judge_settings(server), [RIGHT])
    assert judgment.correct is True and judgment.attempts == 1
    assert client.transport_retries == 2


def test_a_refused_request_fails_that_row_only_and_is_not_taken_for_a_temperature_refusal() -> None:
    def reply(body: dict) -> Reply:
        if "Mumbai" in user_text(body):
            return Reply(content="content filtered", status=400)
        return qa_judge_reply()(body)

    with StandInChatServer(reply) as server:
        judgments, client = judge_all(fast_judge_settings(server), [DELHI, RIGHT])
        requests = server.requests
    assert judgments[0].failed and judgments[0].error_kind == REJECTED
    assert judgments[1].correct is True
    assert client.temperature_refused is None
    assert [request.body["temperature"] for request in requests] == [0.0, 0.0]  # nothing sent again


def test_blank_responses_and_empty_golden_answers_are_ruled_without_a_call() -> None:
    blank = QaRow("q", "Delhi", "Geography", " \n")
    empty = QaRow("q", "", "Geography", "Delhi")
    with StandInChatServer(qa_judge_reply()) as server:
        judgments, _ = judge_all(fast_judge_settings(server), [blank, empty, RIGHT])
        assert len(server.requests) == 1
    assert [(j.correct, j.reason) for j in judgments[:2]] == [(False, "blank response"), (True, "empty golden answer")]
    assert judgments[2].correct is True
