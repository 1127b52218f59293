"""A batch result settles its judgment under the live judge's rules: three attempts, 400s final at once."""

from __future__ import annotations

from eval_backend.batch.ledger import Carry
from eval_backend.batch.outcomes import settle
from eval_backend.batch.results import line_result
from eval_backend.benchmarks.writing_bench.verdict import parse_verdict
from eval_backend.judge_client import JudgeOutcome
from eval_backend.records import INVALID_ANSWER, REJECTED, TRANSPORT_ERROR, Usage


def output(content: str) -> dict:
    body = {"choices": [{"message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}}
    return {"custom_id": "c", "response": {"status_code": 200, "body": body}, "error": None}


def failed(status: int) -> dict:
    return {"custom_id": "c", "response": {"status_code": status, "body": {"error": {"message": "boom"}}}, "error": None}


def test_a_valid_answer_is_final_with_every_attempt_and_token_counted() -> None:
    carried = Carry(1, Usage(50, 5, 55, 1), "nope", "invalid judge answer on attempt 1: not JSON")
    outcome = settle(line_result("c", output('{"score": 8, "reason": "good"}')), carried, 3, parse_verdict)
    assert isinstance(outcome, JudgeOutcome) and outcome.verdict.score == 8
    assert outcome.attempts == 2 and outcome.usage == Usage(150, 15, 165, 2)


def test_an_invalid_answer_is_carried_until_the_last_attempt_then_final() -> None:
    carry = settle(line_result("c", output("I like it")), Carry(), 3, parse_verdict)
    assert isinstance(carry, Carry) and carry.attempts == 1 and carry.raw_text == "I like it"
    final = settle(line_result("c", output('{"score": 11, "reason": "x"}')), Carry(2, Usage(calls=2)), 3, parse_verdict)
    assert isinstance(final, JudgeOutcome) and final.verdict is None and final.error_kind == INVALID_ANSWER
    assert final.attempts == 3 and final.usage.calls == 3 and "gave up after 3 attempts" in final.error


def test_a_failed_request_uses_an_attempt_and_a_refused_one_is_final_at_once() -> None:
    carry = settle(line_result("c", failed(500)), Carry(), 3, parse_verdict)
    assert isinstance(carry, Carry) and carry.attempts == 1 and "HTTP 500" in carry.error
    last = settle(line_result("c", failed(500)), Carry(2), 3, parse_verdict)
    assert isinstance(last, JudgeOutcome) and last.error_kind == TRANSPORT_ERROR and last.attempts == 3
    refused = settle(line_result("c", failed(400)), Carry(), 3, parse_verdict)
    assert isinstance(refused, JudgeOutcome) and refused.error_kind == REJECTED and refused.attempts == 1


def test_a_request_that_never_ran_uses_nothing() -> None:
    expired = {"custom_id": "c", "response": None, "error": {"code": "batch_expired", "message": "expired"}}
    carried = Carry(1, Usage(calls=1), "x", "e")
    assert settle(line_result("c", expired), carried, 3, parse_verdict) is carried
