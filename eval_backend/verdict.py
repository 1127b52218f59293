"""Strict parsing of a judge's answer: a JSON object with an integer score 1–10 and a reason."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from eval_backend.records import shown_value

_FENCE = re.compile(r"^```[A-Za-z]*\s*\n?|\n?\s*```$")
MIN_SCORE, MAX_SCORE = 1, 10


class VerdictError(ValueError):
    """The judge's answer is not a valid verdict; the message says what is wrong."""


@dataclass(frozen=True)
class Verdict:
    score: int
    reason: str


def parse_json_object(text: str | None) -> dict:
    """A judge's answer as a JSON object, bare or inside a ```json fence; never evaluated as code."""
    if not text or not text.strip():
        raise VerdictError("empty answer")
    body = _FENCE.sub("", text.strip()).strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise VerdictError(f"not JSON ({exc.msg} at char {exc.pos})") from exc
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits, nesting thousands deep
        raise VerdictError(f"unreadable JSON ({type(exc).__name__})") from exc
    if not isinstance(data, dict):
        raise VerdictError(f"expected a JSON object, got {type(data).__name__}")
    return data


def parse_verdict(text: str | None) -> Verdict:
    """Parse the judge's text as the seed's strict JSON; never evaluates it as code.

    Accepts the object bare or inside a ```json fence. Rejects a score that is not an
    integer (a bool, string or float such as 7.0 included) or is outside 1–10, and a
    missing or non-string reason.
    """
    data = parse_json_object(text)
    score, reason = data.get("score"), data.get("reason")
    if type(score) is not int:
        raise VerdictError(f"'score' must be an integer, got {shown_value(score)}")
    if not MIN_SCORE <= score <= MAX_SCORE:
        raise VerdictError(f"'score' {shown_value(score)} is outside {MIN_SCORE}-{MAX_SCORE}")
    if not isinstance(reason, str):
        raise VerdictError("'reason' is missing or not a string")
    return Verdict(score=score, reason=reason)
