"""Prompts as token ids, for the backends that run the model in this process (vLLM, transformers).

The query goes into the model's chat template as one user message; the prompt's length
decides how many tokens the answer may have, so a prompt that fills the context is
recorded as an error for its item instead of failing the batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from eval_backend.generation.base import Completion, GenerationConfigError, chat_messages, opens_thinking
from eval_backend.generation.options import GenerationOptions
from eval_backend.records import Item


@dataclass(frozen=True)
class Prompt:
    """One item's prompt as token ids, with the output budget it leaves in the context."""

    item: Item
    token_ids: list[int]
    max_tokens: int
    opens_thinking: bool


def load_tokenizer(options: GenerationOptions) -> Any:
    """The model's tokenizer (Hub id or local folder), refused when it has no chat template."""
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(options.model, revision=options.revision)
    except (OSError, ValueError) as exc:
        raise GenerationConfigError(f"cannot load the tokenizer of model {options.model!r}: {exc}") from exc
    if not getattr(tokenizer, "chat_template", None):
        raise GenerationConfigError(
            f"model {options.model!r} has no chat template: its tokenizer defines no "
            "chat_template, so the benchmark's queries cannot be asked as a chat turn. "
            "Evaluate an instruct or chat model, or add a chat template to its tokenizer."
        )
    return tokenizer


def render_prompt(tokenizer: Any, query: str) -> str:
    """The query as one user turn in the chat template, with the assistant turn opened."""
    return tokenizer.apply_chat_template(chat_messages(query), tokenize=False, add_generation_prompt=True)


def build_prompts(
    tokenizer: Any, items: Sequence[Item], options: GenerationOptions, context: int
) -> tuple[list[Prompt], list[Completion]]:
    """Tokenize each item's prompt; those that leave no room for an answer come back as errors."""
    prompts, refused = [], []
    for item in items:
        text = render_prompt(tokenizer, item.query)
        # The template already holds any special tokens the model expects; add none twice.
        ids = tokenizer(text, add_special_tokens=False)["input_ids"]
        room = context - len(ids)
        if room <= 0:
            refused.append(
                Completion(item.key, None, error=f"prompt of {len(ids)} tokens does not fit the context of {context}")
            )
            continue
        prompts.append(Prompt(item, ids, min(options.max_tokens, room), options.reasoning or opens_thinking(text)))
    return prompts, refused
