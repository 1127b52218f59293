"""The rubric judge's verdict on one criterion: the seed's strict JSON, an integer score 1–10 and a reason."""

from __future__ import annotations

from dataclasses import dataclass

from eval_backend.records import shown_value
from eval_backend.verdict import VerdictError, parse_json_object

MIN_SCORE, MAX_SCORE = 1, 10


@dataclass(frozen=True)
class Verdict:
    score: int
    reason: str


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
