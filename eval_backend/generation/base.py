"""What every generation backend shares: the interface, the chat message, the context rules.

A backend takes benchmark items and reports one `Completion` per item through a callback
as soon as it is known, so the caller can append it to the run folder before the next
batch starts. An item that cannot be generated (its prompt does not fit the context, the
endpoint rejects it) is a `Completion` with an `error`, not an exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from eval_backend.benchmarks.prompting import Prompt
from eval_backend.records import ItemKey

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"


class GenerationConfigError(RuntimeError):
    """The model or backend cannot be used at all (missing, no chat template, refused): stop the run."""


class GenerationUnreachableError(GenerationConfigError):
    """The generation endpoint is down (connections failing in a row, retries used up): stop, leaving the rest owed."""


@dataclass(frozen=True)
class Completion:
    """A backend's answer to one item: the raw text, or the error that kept it from one.

    `prompt_opens_thinking` is True when the rendered prompt itself ends inside a
    `<think>` block (as reasoning models' templates do), so the output never opens it.
    """

    key: ItemKey
    text: str | None
    finish_reason: str | None = None
    output_tokens: int | None = None
    max_tokens: int | None = None
    prompt_opens_thinking: bool = False
    error: str | None = None


ResultCallback = Callable[[Completion], None]
PromptOf = Callable[[Any], Prompt]
"""How an item becomes the model's prompt: the benchmark's `prompt`."""


class Generator(Protocol):
    """A loaded model (or a client for one) that answers benchmark items."""

    name: str
    """The backend's name, recorded with each response."""
    decoding_mode: str
    """How it kept batching from changing greedy replies (`decoding_mode`), recorded with each response."""

    def generate(self, items: Sequence[Any], on_result: ResultCallback, prompt_of: PromptOf) -> None:
        """Answer every item (its prompt is `prompt_of(item)`), calling `on_result` once per item as its answer is known."""

    def close(self) -> None:
        """Release the model or client."""


def chat_messages(query: str) -> list[dict[str, str]]:
    """The conversation the model under test sees: one user message holding the query, verbatim."""
    return [{"role": "user", "content": query}]


def cut_at_stop(text: str, stop: Sequence[str]) -> tuple[str, bool]:
    """`text` up to the first stop string (excluded), and whether one was found."""
    found = [position for position in (text.find(marker) for marker in stop if marker) if position >= 0]
    return (text[: min(found)], True) if found else (text, False)


def opens_thinking(text: str) -> bool:
    """True when `text` ends inside a `<think>` block it opened and did not close."""
    return text.rfind(THINK_OPEN) > text.rfind(THINK_CLOSE)


def unclosed_thinking(text: str | None, prompt_opens_thinking: bool) -> bool:
    """True for an output that began thinking (itself or via its prompt) and never closed it."""
    if text is None:
        return False
    return (prompt_opens_thinking or THINK_OPEN in text) and THINK_CLOSE not in text
