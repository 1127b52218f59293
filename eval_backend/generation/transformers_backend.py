"""The transformers backend: `AutoModelForCausalLM.generate` in batches, on CPU or GPU.

Prompts are sorted by length and batched with left padding, so each batch wastes little
padding and all its answers start at the same position. A batch's output budget is the
smallest of its items' budgets, which keeps the longest prompt inside the context.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from eval_backend.generation.base import (
    Completion,
    GenerationConfigError,
    PromptOf,
    ResultCallback,
    cut_at_stop,
    query_prompt,
)
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.prompts import Prompt, build_prompts, load_tokenizer

logger = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 8


class TransformersGenerator:
    """A causal LM loaded with transformers, generating with the benchmark's sampling."""

    name = "transformers"

    def __init__(self, options: GenerationOptions) -> None:
        import torch
        from transformers import AutoModelForCausalLM

        self.options = options
        self.tokenizer = load_tokenizer(options)
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        try:
            model = AutoModelForCausalLM.from_pretrained(options.model, revision=options.revision, dtype=options.dtype)
        except (OSError, ValueError) as exc:
            raise GenerationConfigError(f"cannot load model {options.model!r}: {exc}") from exc
        self.model = model.to(self.device).eval()
        self.context = _context_length(self.model.config, options.max_model_len)
        self.stop_ids = _stop_ids(self.model.generation_config, self.tokenizer)

    def generate(self, items: Sequence[Any], on_result: ResultCallback, prompt_of: PromptOf = query_prompt) -> None:
        """Answer `items` batch by batch, by output budget and then shortest prompts first."""
        prompts, refused = build_prompts(self.tokenizer, items, self.options, self.context, prompt_of)
        for completion in refused:
            on_result(completion)
        # Batches share one output budget (their smallest): group equal budgets, then similar lengths.
        prompts.sort(key=lambda prompt: (prompt.max_tokens, len(prompt.token_ids)))
        size = self.options.batch_size or DEFAULT_BATCH_SIZE
        for start in range(0, len(prompts), size):
            for completion in self._generate_batch(prompts[start : start + size]):
                on_result(completion)

    def close(self) -> None:
        del self.model

    def _generate_batch(self, batch: list[Prompt]) -> list[Completion]:
        import torch
        from transformers import set_seed

        budget = min(prompt.max_tokens for prompt in batch)
        inputs = self.tokenizer.pad({"input_ids": [p.token_ids for p in batch]}, return_tensors="pt").to(self.device)
        if self.options.seed is not None:
            set_seed(self.options.seed)
        with torch.inference_mode():
            output = self.model.generate(**inputs, **self._sampling(budget))
        new_tokens = output[:, inputs["input_ids"].shape[1] :].tolist()
        return [self._completion(prompt, tokens, budget) for prompt, tokens in zip(batch, new_tokens)]

    def _sampling(self, budget: int) -> dict[str, Any]:
        options = self.options
        common: dict[str, Any] = {
            "max_new_tokens": budget, "pad_token_id": self.tokenizer.pad_token_id, "eos_token_id": self.stop_ids,
        }
        if options.stop:
            common.update(stop_strings=list(options.stop), tokenizer=self.tokenizer)
        if options.temperature <= 0:
            return {**common, "do_sample": False}
        return {
            **common,
            "do_sample": True,
            "temperature": options.temperature,
            "top_p": options.top_p,
            "top_k": options.top_k,
        }

    def _completion(self, prompt: Prompt, tokens: list[int], budget: int) -> Completion:
        """Cut the row at its first stop token (the rest is padding), decode it, and cut at a stop string."""
        stop = next((i for i, token in enumerate(tokens) if token in self.stop_ids), None)
        kept = tokens if stop is None else tokens[: stop + 1]
        text, stopped = cut_at_stop(self.tokenizer.decode(kept, skip_special_tokens=True), self.options.stop)
        return Completion(
            key=prompt.item.key,
            text=text,
            finish_reason="stop" if stop is not None or stopped else "length",
            output_tokens=len(kept),
            max_tokens=budget,
            prompt_opens_thinking=prompt.opens_thinking,
        )


def _context_length(config: Any, limit: int | None) -> int:
    """The model's context window, lowered to `limit` when one is given."""
    native = getattr(config, "max_position_embeddings", None)
    if native is None and limit is None:
        raise GenerationConfigError("the model's config has no max_position_embeddings; pass --max-model-len")
    return min(value for value in (native, limit) if value is not None)


def _stop_ids(generation_config: Any, tokenizer: Any) -> list[int]:
    """Every token id that ends a turn: the generation config's and the tokenizer's EOS."""
    configured = generation_config.eos_token_id
    ids = configured if isinstance(configured, list) else [configured]
    return sorted({i for i in [*ids, tokenizer.eos_token_id] if i is not None})
