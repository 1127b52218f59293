"""The strict JSON reader: what Python's `json` lets through is refused, naming where and the field."""

from __future__ import annotations

import pytest

from eval_backend.strict_json import MAX_JSON_DEPTH, MAX_NUMBER_CHARS, JsonLimits, StrictJsonError, parse_strict_json

LIMITS = JsonLimits(max_bytes=1024 * 1024)


def test_plain_json_reads_as_json_does() -> None:
    text = '{"config": "Tamil", "index": 3, "response": "வணக்கம் \\ud800", "kwargs": [{"n": 2.5, "x": null}]}'
    assert parse_strict_json(text, "r.jsonl:1", LIMITS) == {
        "config": "Tamil", "index": 3, "response": "வணக்கம் \ud800", "kwargs": [{"n": 2.5, "x": None}]}
    assert parse_strict_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH, "w", LIMITS) is not None
    assert parse_strict_json("9" * MAX_NUMBER_CHARS, "w", LIMITS) == int("9" * MAX_NUMBER_CHARS)


@pytest.mark.parametrize(("text", "problem"), [
    ('{"config": "Hindi", "config": "Tamil", "index": 0}', "$: duplicate key 'config'"),
    ('[{"a": 1}, {"b": {"c": 1, "c": 2}}]', "$[1].b: duplicate key 'c'"),
    ('[{"num_words": NaN}]', "$[0].num_words: NaN is not a JSON number"),
    ('{"x": [1, Infinity]}', r"$.x[1]: Infinity is not a JSON number"),
    ('{"x": -Infinity}', "$.x: -Infinity is not a JSON number"),
    ('{"x": 1e999}', "$.x: 1e999 is out of a number's range"),
    ('{"n": ' + "9" * 5000 + "}", f"$.n: a number of 5,000 characters; the limit is {MAX_NUMBER_CHARS}"),
    ('{"n": 0.' + "1" * 5000 + "}", "$.n: a number of 5,002 characters"),
    ('{"a": ' + "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH + "}",
     "$.a" + "[0]" * (MAX_JSON_DEPTH - 1) + f": JSON nested too deeply (the limit is {MAX_JSON_DEPTH} levels)"),
    ("[" * 100_000 + "]" * 100_000, f"JSON nested too deeply (the limit is {MAX_JSON_DEPTH} levels)"),  # past Python's
    ('{"a": 1', "not valid JSON (Expecting ',' delimiter at char 7)"),
])
def test_what_json_lets_through_is_refused_naming_the_field(text: str, problem: str) -> None:
    with pytest.raises(StrictJsonError) as error:
        parse_strict_json(text, "responses.jsonl:7", LIMITS)
    assert str(error.value).startswith(f"responses.jsonl:7: {problem}")


def test_a_text_past_the_byte_limit_is_refused_before_it_is_parsed() -> None:
    text = '{"response": "' + "ਸ" * 400 + '"}'  # Gurmukhi: 3 bytes a letter
    with pytest.raises(StrictJsonError, match=r"^r:1: 1,216 bytes of JSON; the limit is 1,000$"):
        parse_strict_json(text, "r:1", JsonLimits(max_bytes=1000))
    with pytest.raises(StrictJsonError, match="not valid UTF-8"):
        parse_strict_json(b'{"a": "\xff"}', "r:1", LIMITS)
