"""`parse_strict_json`: JSON from outside the engine (responses files, dataset cells), read within stated bounds.

Python's `json` accepts what no other JSON reader agrees on, and costs what the text asks: a
duplicate key (the last one silently wins), `NaN` and `Infinity` (which compare false with
everything, so a checker fed one fails every reply), nesting 100,000 deep (a RecursionError), an
integer of 5,000 digits (a ValueError past Python's digit limit, or a slow conversion before it),
and a text of any size. This reader refuses each of them with a ValueError naming where it was
read and, inside the value, the field as a JSON path (`$[0].num_words`). The engine's own files, which
`jsonl.to_json` wrote, are read with `jsonl.parse_json`.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

MAX_JSON_DEPTH = 32
"""Arrays and objects inside one another, at most (a responses line needs 1, an instruction's kwargs 2)."""
MAX_NUMBER_CHARS = 100
"""Characters of one number, at most: no count, index or answer needs more, and `int()` stays cheap."""



class StrictJsonError(ValueError):
    """The text is not JSON this reader accepts: `problem` says why, naming the field (`$.kwargs[0]`) where
    there is one; the message adds where the text was read."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.problem = problem


@dataclass(frozen=True)
class JsonLimits:
    """What one JSON text may cost: its UTF-8 size, its nesting and the length of each number."""

    max_bytes: int
    max_depth: int = MAX_JSON_DEPTH
    max_number_chars: int = MAX_NUMBER_CHARS


@dataclass(frozen=True)
class _Refused:
    """Stands in the parsed value where something was refused, so that the walk can name its field."""

    reason: str


def parse_strict_json(text: str | bytes, where: str, limits: JsonLimits) -> Any:
    """The value of a JSON text; StrictJsonError (naming `where` and the field) past `limits`, for a duplicate
    key, NaN / Infinity, a number out of a float's range, or text that is not JSON. Bytes must be UTF-8."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise StrictJsonError(where, f"{size:,} bytes of JSON; the limit is {limits.max_bytes:,}")
    try:
        decoded = text.decode("utf-8") if isinstance(text, bytes) else text
    except UnicodeDecodeError as exc:
        raise StrictJsonError(where, f"not valid UTF-8 (byte {exc.start})") from exc
    try:
        value = json.loads(decoded, object_pairs_hook=_object, parse_constant=_constant,
                           parse_int=_number(int, limits), parse_float=_number(float, limits))
    except json.JSONDecodeError as exc:
        raise StrictJsonError(where, f"not valid JSON ({exc.msg} at char {exc.pos})") from exc
    except RecursionError as exc:  # nested past Python's own limit (~1,000): far past ours
        raise StrictJsonError(where, f"JSON nested too deeply (the limit is {limits.max_depth} levels)") from exc
    refused = _first_refused(value, limits.max_depth)
    if refused is not None:
        field, reason = refused
        raise StrictJsonError(where, f"{field}: {reason}")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any] | _Refused:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    duplicate = next(key for key, count in Counter(key for key, _ in pairs).items() if count > 1)
    return _Refused(f"duplicate key {duplicate!r} (readers disagree on which value counts)")


def _constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a JSON number")


def _number(kind: type[int] | type[float], limits: JsonLimits):
    def parse(text: str) -> int | float | _Refused:
        if len(text) > limits.max_number_chars:
            return _Refused(f"a number of {len(text):,} characters; the limit is {limits.max_number_chars}")
        value = kind(text)
        return value if math.isfinite(value) else _Refused(f"{text} is out of a number's range")  # 1e999

    return parse


def _first_refused(value: Any, max_depth: int) -> tuple[str, str] | None:
    """(field, reason) of the first refused part of `value` in document order, a container nested past
    `max_depth` included; None when all of it is accepted. A loop, not recursion: the value may nest ~1,000 deep."""
    pending: list[tuple[Any, str, int]] = [(value, "$", 0)]
    while pending:
        part, field, depth = pending.pop()
        if isinstance(part, _Refused):
            return field, part.reason
        if isinstance(part, (dict, list)) and depth == max_depth:
            return field, f"JSON nested too deeply (the limit is {max_depth} levels)"
        if isinstance(part, dict):
            children = [(child, f"{field}.{key}", depth + 1) for key, child in part.items()]
        elif isinstance(part, list):
            children = [(child, f"{field}[{index}]", depth + 1) for index, child in enumerate(part)]
        else:
            continue
        pending.extend(reversed(children))
    return None
