"""Prompts as token ids, for the backends that run the model in this process (vLLM, transformers).

The benchmark's prompt for an item (chat messages, or raw text) goes through the model's chat
template when it is a chat; the prompt's length
decides how many tokens the answer may have, so a prompt that fills the context is
recorded as an error for its item instead of failing the batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from eval_backend.benchmarks import prompting
from eval_backend.generation.base import Completion, GenerationConfigError, PromptOf, opens_thinking
from eval_backend.generation.options import GenerationOptions


@dataclass(frozen=True)
class Prompt:
    """One item's prompt as token ids, with the output budget it leaves in the context."""

    item: Any
    token_ids: list[int]
    max_tokens: int
    opens_thinking: bool


def load_tokenizer(options: GenerationOptions) -> Any:
    """The model's tokenizer (Hub id or local folder), refused when it has no chat template
    unless the run sends raw prompts (`options.chat` False)."""
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(options.model, revision=options.revision)
    except (OSError, ValueError) as exc:
        raise GenerationConfigError(f"cannot load the tokenizer of model {options.model!r}: {exc}") from exc
    if options.chat and not getattr(tokenizer, "chat_template", None):
        raise GenerationConfigError(
            f"model {options.model!r} has no chat template: its tokenizer defines no "
            "chat_template, so the benchmark's queries cannot be asked as a chat turn. "
            "Evaluate an instruct or chat model, or add a chat template to its tokenizer."
        )
    return tokenizer


def render_prompt(tokenizer: Any, prompt: prompting.Prompt) -> str:
    """A chat prompt in the chat template with the assistant turn opened; a raw prompt as it is."""
    if not prompt.is_chat:
        return str(prompt.text)
    return tokenizer.apply_chat_template(prompt.chat_messages(), tokenize=False, add_generation_prompt=True)


def build_prompts(
    tokenizer: Any,
    items: Sequence[Any],
    options: GenerationOptions,
    context: int,
    prompt_of: PromptOf,
    script_tokenisation: bool = False,
) -> tuple[list[Prompt], list[Completion]]:
    """Tokenize each item's prompt; those that leave no room for an answer come back as errors.

    `script_tokenisation` tokenizes a rendered chat prompt as the seed scripts do, with
    `tokenizer(text)`, so a template that writes BOS itself gets a second one from the
    tokenizer (the transformers backend's `reference` mode)."""
    prompts, refused = [], []
    for item in items:
        prompt = prompt_of(item)
        text = render_prompt(tokenizer, prompt)
        # The template already holds any special tokens the model expects; add none twice. A raw
        # prompt gets them (a BOS token) as the tokenizer adds them to any text, as
        # `tokenizer(text)` does in a benchmark's reference script.
        ids = tokenizer(text, add_special_tokens=script_tokenisation or not prompt.is_chat)["input_ids"]
        room = context - len(ids)
        if room <= 0:
            refused.append(
                Completion(item.key, None, error=f"prompt of {len(ids)} tokens does not fit the context of {context}")
            )
            continue
        prompts.append(Prompt(item, ids, min(prompt.token_limit(options.max_tokens), room), options.reasoning or opens_thinking(text)))
    return prompts, refused
