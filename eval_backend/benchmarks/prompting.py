"""What the model under test is sent and how it samples: shared by every benchmark and backend.

A benchmark turns each of its items into a `Prompt` (a chat conversation, or raw text for a
completion) and declares its `SamplingDefaults`; the generation backends take both as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

THINK_END = "</think>\n\n"


def after_thinking(raw_response: str) -> str:
    """What is scored of a raw answer: everything after the first `</think>\\n\\n` (all of it when absent)."""
    _, marker, rest = raw_response.partition(THINK_END)
    return rest if marker else raw_response


@dataclass(frozen=True)
class SamplingDefaults:
    """The generation parameters a benchmark's authors suggest for the model under test.

    `temperature == 0` means greedy decoding (top_p and top_k are then unused); `stop`
    strings end an answer early, the stop string itself not included.
    """

    temperature: float
    top_p: float
    top_k: int
    max_tokens: int
    stop: tuple[str, ...] = ()

    @property
    def greedy(self) -> bool:
        return self.temperature <= 0


@dataclass(frozen=True)
class Prompt:
    """One item's prompt: chat messages (rendered with the model's chat template), or raw text.

    Few-shot examples are earlier turns of `messages` (chat) or part of `text` (raw).
    `max_tokens` caps this item's answer below the run's own limit, for a benchmark whose
    tasks allow different lengths (Saraiki: 8 new tokens for a letter, 1024 for an essay).
    """

    messages: tuple[Mapping[str, str], ...] = ()
    text: str | None = None
    max_tokens: int | None = None

    def __post_init__(self) -> None:
        if bool(self.messages) == (self.text is not None):
            raise ValueError("a Prompt is either chat messages or raw text, exactly one of them")

    @classmethod
    def chat(cls, *messages: Mapping[str, str]) -> Prompt:
        return cls(messages=tuple(messages))

    @classmethod
    def user(cls, content: str) -> Prompt:
        """One user turn holding `content` verbatim: how most benchmarks ask."""
        return cls.chat({"role": "user", "content": content})

    @classmethod
    def raw(cls, text: str) -> Prompt:
        return cls(text=text)

    @property
    def is_chat(self) -> bool:
        return bool(self.messages)

    def token_limit(self, run_limit: int) -> int:
        """The new tokens this prompt may get: the run's limit, or this prompt's own if lower."""
        return run_limit if self.max_tokens is None else min(run_limit, self.max_tokens)

    def chat_messages(self) -> list[dict[str, str]]:
        """The messages as plain dicts, as chat templates and chat-completions APIs take them."""
        return [dict(message) for message in self.messages]
