"""What every judge's strict parser shares: the error of an invalid answer, and the answer read as a JSON object.

Each benchmark's parser is its own (WritingBench's `writing_bench.verdict.parse_verdict`, QA's
equivalence verdict, Saraiki's refusal verdict); a judge scorer names it (`JudgeScorer.parse`).
"""

from __future__ import annotations

import json
import re

_FENCE = re.compile(r"^```[A-Za-z]*\s*\n?|\n?\s*```$")


class VerdictError(ValueError):
    """The judge's answer is not a valid verdict; the message says what is wrong."""


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
