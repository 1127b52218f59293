"""What one batch result means for its judgment, under the live judge's rules.

A valid verdict is final. An invalid answer or a failed request uses one of the judgment's
attempts (`JUDGE_ATTEMPTS`, 3) and is carried to a follow-up; on the last attempt it is final,
written as failed exactly as a live call writes it. A request the endpoint refused (HTTP 400,
e.g. a content filter) is final at once, as live. A request that expired or was cancelled
before it ran uses nothing and is submitted again.
"""

from __future__ import annotations

from typing import Any, Callable

from eval_backend.batch.ledger import Carry
from eval_backend.batch.results import LineResult
from eval_backend.judge_client import JudgeOutcome
from eval_backend.records import INVALID_ANSWER, REJECTED, TRANSPORT_ERROR, Usage
from eval_backend.redaction import redact
from eval_backend.verdict import VerdictError


def settle(
    result: LineResult, carry: Carry, max_attempts: int, parse: Callable[[str | None], Any]
) -> JudgeOutcome[Any] | Carry:
    """The final outcome of `result`'s judgment, or what it carries to its next attempt.

    `parse` is the judged part's strict parser, its judge scorer's `parse`."""
    if result.unfinished:
        return carry
    attempt = carry.attempts + 1
    if result.answer is not None:
        usage = carry.usage + Usage.from_api(result.answer.usage)
        text = result.answer.text
        try:
            return JudgeOutcome(parse(text), attempt, usage, text)
        except VerdictError as exc:
            return _retry_or_give_up(
                f"invalid judge answer on attempt {attempt}: {exc}", attempt, usage, text, max_attempts, INVALID_ANSWER
            )
    if result.status_code == 400:
        error = redact(f"judge refused the request: HTTP 400: {result.error}")
        return JudgeOutcome(None, attempt, carry.usage, carry.raw_text, error, REJECTED)
    error = redact(f"batch request failed (HTTP {result.status_code or 'none'}): {result.error}")
    return _retry_or_give_up(error, attempt, carry.usage, carry.raw_text, max_attempts, TRANSPORT_ERROR)


def batch_failed(custom_id: str, reason: str) -> LineResult:
    """The result of every request of a batch that failed as a whole (its input was refused)."""
    return LineResult(custom_id, error=f"the batch failed: {reason}")


def _retry_or_give_up(
    error: str, attempt: int, usage: Usage, raw_text: str | None, max_attempts: int, kind: str
) -> JudgeOutcome[Any] | Carry:
    if attempt < max_attempts:
        return Carry(attempt, usage, raw_text, error)
    if kind == INVALID_ANSWER:
        error = f"{error} (gave up after {attempt} attempts)"
    return JudgeOutcome(None, attempt, usage, raw_text, error, kind)
