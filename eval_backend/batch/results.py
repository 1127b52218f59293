"""Reading a batch's output and error files: one result per `custom_id`.

An output or error line is `{"custom_id", "response": {"status_code", "body"} | null,
"error": {"code", "message"} | null}`; a request that expired or was cancelled before it ran
has the error code `batch_expired` / `batch_cancelled` (or no line at all).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from eval_backend.jsonl import read_jsonl
from eval_backend.judge_client import ChatAnswer

UNFINISHED_CODES = frozenset({"batch_expired", "batch_cancelled"})


@dataclass(frozen=True)
class LineResult:
    """The fate of one request: an answer (status 200), a failure with its status, or never run."""

    custom_id: str
    answer: ChatAnswer | None = None
    status_code: int | None = None
    error: str | None = None
    unfinished: bool = False


def read_results(path: Path) -> Iterator[LineResult]:
    """Every line of a downloaded output or error file as a `LineResult`; lines with no custom_id are skipped."""
    for _, data in read_jsonl(path):
        custom_id = data.get("custom_id")
        if isinstance(custom_id, str):
            yield line_result(custom_id, data)


def line_result(custom_id: str, data: dict[str, Any]) -> LineResult:
    """One line's result; any shape other than a 200 response with a body is a failure, named."""
    response = data.get("response") if isinstance(data.get("response"), dict) else {}
    error = data.get("error") if isinstance(data.get("error"), dict) else None
    status = response.get("status_code")
    body = response.get("body")
    if error is None and status == 200:
        return LineResult(custom_id, ChatAnswer.from_body(body, str(body)), 200)
    if error is not None and error.get("code") in UNFINISHED_CODES:
        return LineResult(custom_id, unfinished=True, error=str(error.get("message") or error.get("code")))
    message = _message(error) or _message(body.get("error") if isinstance(body, dict) else None) or "no detail"
    return LineResult(custom_id, status_code=status if type(status) is int else None, error=message)


def _message(error: Any) -> str | None:
    if not isinstance(error, dict):
        return None
    code, message = error.get("code"), error.get("message")
    return f"{code}: {message}" if code and message else str(message or code) if message or code else None
