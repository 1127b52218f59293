"""Which prompts share a `generate` call on the transformers backend.

Two rules, both about greedy replies. A batch generates up to one new-token limit, so only
prompts with the same limit share one: an item never stops at another item's limit, and
none generates past its own. And batched replies depend on the batch, so a batch is a fixed
part of the dataset, not of the run: the prompts of one config, one limit and one
`index // size` slot, whatever else the run holds or in which order (`decoding_mode`).
"""

from __future__ import annotations

from typing import Sequence

from eval_backend.generation.prompts import Prompt


def fixed_batches(prompts: Sequence[Prompt], size: int) -> list[list[Prompt]]:
    """`prompts` in batches of at most `size`, each of one config, one token limit and one index slot."""
    batches: dict[tuple[int, str, int], list[Prompt]] = {}
    for prompt in sorted(prompts, key=_position):
        config, index = prompt.item.key
        batches.setdefault((prompt.max_tokens, config, index // size), []).append(prompt)
    return list(batches.values())


def single_batches(prompts: Sequence[Prompt]) -> list[list[Prompt]]:
    """One prompt per batch, in the run's order: the seed script's way."""
    return [[prompt] for prompt in prompts]


def _position(prompt: Prompt) -> tuple[int, str, int]:
    config, index = prompt.item.key
    return prompt.max_tokens, config, index
