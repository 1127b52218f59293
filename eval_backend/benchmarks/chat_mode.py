"""Chat or raw prompts: which benchmarks let a submission choose, and a benchmark in the chosen mode.

A benchmark whose prompts are chat turns (Indic WritingBench, QA) needs a model with a chat
template. One with an `in_mode` (Saraiki, the script's `CHAT` flag) is asked either as one user
message in the model's chat template or as raw text, so it also takes a base model (raw only).
A submission picks the mode; `auto` is chat when the model has a template, else raw.
"""

from __future__ import annotations

from enum import StrEnum

from eval_backend.benchmarks.plugin import Benchmark


class ChatMode(StrEnum):
    CHAT = "chat"
    RAW = "raw"


AUTO = "auto"
MODE_CHOICES: tuple[str, ...] = (AUTO, ChatMode.CHAT.value, ChatMode.RAW.value)
"""What a submitter may pick: a mode, or `auto` (chat when the model has a chat template, else raw)."""


def offers_raw(benchmark: Benchmark) -> bool:
    """Whether `benchmark` can be asked with raw text (else it needs a chat template)."""
    return benchmark.in_mode is not None


def resolved_mode(choice: str, has_chat_template: bool) -> ChatMode:
    """The mode a choice means for a model: `auto` is chat when it has a chat template, else raw."""
    if choice == AUTO:
        return ChatMode.CHAT if has_chat_template else ChatMode.RAW
    return ChatMode(choice)


def in_mode(benchmark: Benchmark, mode: ChatMode) -> Benchmark:
    """`benchmark` asked in `mode`; ValueError for raw on a benchmark that only asks in chat."""
    if benchmark.in_mode is not None:
        return benchmark.in_mode(mode == ChatMode.CHAT)
    if mode != ChatMode.CHAT:
        raise ValueError(f"benchmark {benchmark.name!r} asks its prompts as chat turns; it has no {mode} mode")
    return benchmark
