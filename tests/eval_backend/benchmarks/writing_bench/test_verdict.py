"""The judge's answer is parsed strictly; anything but a clean verdict is an error."""

import pytest

from eval_backend.benchmarks.writing_bench.verdict import Verdict, parse_verdict
from eval_backend.verdict import VerdictError


@pytest.mark.parametrize(
    "text",
    [
        '{"score": 7, "reason": "clear"}',
        '```json\n{\n    "score": 7,\n    "reason": "clear"\n}\n```',
        '  ```\n{"score": 7, "reason": "clear"}```  ',
    ],
)
def test_a_valid_verdict_is_read_bare_or_fenced(text: str) -> None:
    assert parse_verdict(text) == Verdict(score=7, reason="clear")


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("I think it is good", "not JSON"),
        ("", "empty"),
        (None, "empty"),
        ('{"score": 11, "reason": "x"}', "outside 1-10"),
        ('{"score": 0, "reason": "x"}', "outside 1-10"),
        ('{"score": "7", "reason": "x"}', "must be an integer"),
        ('{"score": 7.0, "reason": "x"}', "must be an integer"),
        ('{"score": true, "reason": "x"}', "must be an integer"),
        ('{"score": 7}', "'reason' is missing"),
        ('{"score": 7, "reason": 3}', "'reason' is missing"),
        ("[7]", "expected a JSON object"),
        ('__import__("os").system("true")', "not JSON"),
    ],
)
def test_an_invalid_answer_is_rejected_with_the_reason(text: str | None, complaint: str) -> None:
    with pytest.raises(VerdictError, match=complaint):
        parse_verdict(text)
