"""One validator for what every endpoint takes: types, lengths, list sizes, finite numbers, choices.

An endpoint's inputs may come from any program (`gradio_client`, curl): untrusted values of any type and size,
checked here before any work or cache, within the link parser's bounds (`leaderboard.page_link`). What fails
raises `InvalidInput`, naming the input and what it must be; `refusing_bad_input` makes it the client's error.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, Collection, TypeVar

import gradio as gr

from leaderboard.page_link import MAX_LIST_ITEMS, MAX_VALUE_CHARS

ECHO_CHARS = 80
"""Characters of a refused value quoted back in a message (a 20 MB value must not come back, nor go to the log)."""

Result = TypeVar("Result")


class InvalidInput(ValueError):
    """An endpoint input that is not what the endpoint takes; the message names the input and the rule."""


def echo(value: object) -> str:
    """`value` as a message may quote it: its repr, cut to ECHO_CHARS characters."""
    shown = repr(value[:ECHO_CHARS] if isinstance(value, (str, bytes)) else value)
    return shown if len(shown) <= ECHO_CHARS + 2 else shown[:ECHO_CHARS] + "…"


def text(value: object, name: str, max_chars: int = MAX_VALUE_CHARS) -> str:
    """`value` as a text of at most `max_chars` characters; None is the empty text."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a text, not {type(value).__name__} {echo(value)}")
    if len(value) > max_chars:
        raise InvalidInput(f"{name} is {len(value):,} characters long; at most {max_chars} are accepted")
    return value


def optional_text(value: object, name: str) -> str | None:
    """`value` as a bounded text, None (or empty) as None."""
    return text(value, name) or None


def choice(value: object, name: str, allowed: Collection[str], default: str | None = None) -> str:
    """`value` as one of `allowed`; None or empty is `default` when there is one."""
    chosen = text(value, name)
    if not chosen and default is not None:
        return default
    if chosen not in allowed:
        raise InvalidInput(f"{name} must be one of {', '.join(map(repr, allowed))}, not {echo(chosen)}")
    return chosen


def texts(value: object, name: str, allowed: Collection[str] | None = None) -> tuple[str, ...]:
    """`value` as a list of at most MAX_LIST_ITEMS bounded texts (repeats dropped), each in `allowed` when given;
    None is the empty list."""
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"{name} must be a list of texts, not {type(value).__name__} {echo(value)}")
    if len(value) > MAX_LIST_ITEMS:
        raise InvalidInput(f"{name} has {len(value):,} values; at most {MAX_LIST_ITEMS} are accepted")
    items = tuple(dict.fromkeys(text(item, f"each of {name}") for item in value))
    unknown = [item for item in items if allowed is not None and item not in allowed]
    if unknown:
        raise InvalidInput(f"{name}: {echo(unknown[0])} is not one of {', '.join(map(repr, allowed or ()))}")
    return items


def number(value: object, name: str, low: float, high: float) -> float | None:
    """`value` as a finite number within [low, high]; None (or an empty text) as None."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"{name} must be a number, not {type(value).__name__} {echo(value)}")
    if not math.isfinite(value) or not low <= value <= high:
        raise InvalidInput(f"{name} must be a finite number from {low:g} to {high:g}, not {echo(value)}")
    return float(value)


def flag(value: object, name: str) -> bool:
    """`value` as true or false; None is false."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be true or false, not {type(value).__name__} {echo(value)}")
    return value


def refusing_bad_input(fn: Callable[..., Result]) -> Callable[..., Result]:
    """`fn` with its `InvalidInput` answered as the error a client sees: the message, no traceback."""

    @functools.wraps(fn)
    def checked(*args: Any, **kwargs: Any) -> Result:
        try:
            return fn(*args, **kwargs)
        except InvalidInput as exc:
            raise gr.Error(str(exc), print_exception=False) from None

    return checked
