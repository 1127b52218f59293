"""The transformers backend: `AutoModelForCausalLM.generate` in batches, on CPU or GPU.

Prompts are batched with left padding, so all answers of a batch start at the same position.
In the default `fixed-batches` mode a batch holds prompts of one token limit and one fixed
slot of the dataset (`batching.fixed_batches`); in `reference` mode the backend runs the seed
script's way, one prompt at a time with its tokenisation and stop tokens
(`eval_backend.generation.decoding_mode`).
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
)
from eval_backend.generation.batching import fixed_batches, single_batches
from eval_backend.generation.decoding_mode import DecodingMode
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
        self.reference = options.decoding_mode == DecodingMode.REFERENCE
        self.decoding_mode = options.decoding_mode
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
        # The seed scripts stop where `model.generate` stops by itself: at the generation config's EOS.
        tokenizer_eos = None if self.reference else self.tokenizer.eos_token_id
        self.stop_ids = _stop_ids(self.model.generation_config, tokenizer_eos)

    def generate(self, items: Sequence[Any], on_result: ResultCallback, prompt_of: PromptOf) -> None:
        """Answer `items` batch by batch (see the module's docstring for how batches are formed)."""
        prompts, refused = build_prompts(
            self.tokenizer, items, self.options, self.context, prompt_of, script_tokenisation=self.reference
        )
        for completion in refused:
            on_result(completion)
        size = self.options.batch_size or DEFAULT_BATCH_SIZE
        batches = single_batches(prompts) if self.reference else fixed_batches(prompts, size)
        for batch in batches:
            for completion in self._generate_batch(batch):
                on_result(completion)

    def close(self) -> None:
        del self.model

    def _generate_batch(self, batch: list[Prompt]) -> list[Completion]:
        import torch
        from transformers import set_seed

        (budget,) = {prompt.max_tokens for prompt in batch}  # a batch holds one token limit
        inputs = self.tokenizer.pad({"input_ids": [p.token_ids for p in batch]}, return_tensors="pt").to(self.device)
        if self.options.seed is not None:
            set_seed(self.options.seed)
        with torch.inference_mode():
            output = self.model.generate(**inputs, **self._sampling(budget))
        new_tokens = output[:, inputs["input_ids"].shape[1] :].tolist()
        return [self._completion(prompt, tokens, budget) for prompt, tokens in zip(batch, new_tokens)]

    def _sampling(self, budget: int) -> dict[str, Any]:
        options = self.options
        common: dict[str, Any] = {"max_new_tokens": budget, "pad_token_id": self.tokenizer.pad_token_id}
        if not self.reference:  # the script passes none: the generation config's EOS applies
            common["eos_token_id"] = self.stop_ids
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


def _stop_ids(generation_config: Any, tokenizer_eos: int | None) -> list[int]:
    """Every token id that ends a turn: the generation config's EOS, and the tokenizer's unless None."""
    configured = generation_config.eos_token_id
    ids = configured if isinstance(configured, list) else [configured]
    return sorted({i for i in [*ids, tokenizer_eos] if i is not None})
