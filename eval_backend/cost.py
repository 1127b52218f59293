"""An estimate of a run's judge tokens and cost, before any call is made.

Token counts are estimated from characters (the judge's tokenizer is not available
offline); `chars_per_token` and the expected judge output are settings, and the real
totals land in summary.json's `usage` once the run is judged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from eval_backend.benchmarks import Benchmark
from eval_backend.judging import JudgeTask
from eval_backend.records import Item
from eval_backend.settings import CostSettings


@dataclass(frozen=True)
class CostEstimate:
    calls: int
    input_tokens: int
    output_tokens: int
    cost: float

    def describe(self, currency: str = "$") -> str:
        return (
            f"{self.calls} judge calls, ~{self.input_tokens:,} input tokens, "
            f"~{self.output_tokens:,} output tokens, ~{currency}{self.cost:,.2f}"
        )


def estimate_for_tasks(benchmark: Benchmark, tasks: Iterable[JudgeTask], settings: CostSettings) -> CostEstimate:
    """The cost of the judge calls still owed, from the exact prompts they will send."""
    chars = [_prompt_chars(benchmark, task.item, task.criterion_index, len(task.judged_text)) for task in tasks]
    return _estimate(chars, settings)


def estimate_for_items(benchmark: Benchmark, items: Sequence[Item], settings: CostSettings) -> CostEstimate:
    """The cost of judging every criterion of `items`, assuming answers of `response_chars`."""
    chars = [
        _prompt_chars(benchmark, item, criterion, settings.response_chars)
        for item in items
        for criterion in range(len(item.checklist))
    ]
    return _estimate(chars, settings)


def _prompt_chars(benchmark: Benchmark, item: Item, criterion: int, response_chars: int) -> int:
    # Rendering with an empty response and adding its length avoids building the real text.
    messages: Sequence[Mapping[str, str]] = benchmark.judge_messages(item, criterion, "")
    return sum(len(message["content"]) for message in messages) + response_chars


def _estimate(prompt_chars: Sequence[int], settings: CostSettings) -> CostEstimate:
    input_tokens = int(sum(prompt_chars) / settings.chars_per_token)
    output_tokens = settings.output_tokens_per_call * len(prompt_chars)
    cost = (input_tokens * settings.input_price_per_m + output_tokens * settings.output_price_per_m) / 1e6
    return CostEstimate(len(prompt_chars), input_tokens, output_tokens, cost)
