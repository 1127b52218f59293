"""An estimate of a run's judge tokens and cost, before any call is made.

Token counts are estimated from characters (the judge's tokenizer is not available
offline); `chars_per_token` and the expected judge output are settings, and the real
totals land in summary.json's `usage` once the run is judged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.judge_calls import JudgeCall
from eval_backend.settings import CostSettings


@dataclass(frozen=True)
class CostEstimate:
    """Judge calls and tokens, priced live (`cost`) and through the Batch API (`batch_cost`)."""

    calls: int
    input_tokens: int
    output_tokens: int
    cost: float
    batch_cost: float = 0.0

    def describe(self, currency: str = "$") -> str:
        return (
            f"{self.calls} judge calls, ~{self.input_tokens:,} input tokens, "
            f"~{self.output_tokens:,} output tokens, ~{currency}{self.cost:,.2f} live, "
            f"~{currency}{self.batch_cost:,.2f} in batch mode (answers within 24 h)"
        )


def estimate_for_items(benchmark: Benchmark, items: Sequence[Any], settings: CostSettings) -> CostEstimate:
    """The cost of every call of every judge scorer on `items` (each rubric criterion, each judge), assuming
    answers of `response_chars`: each prompt is rendered with an empty answer, and the answer's length added."""
    chars = [
        _chars(messages()) + settings.response_chars
        for item in items for judge in benchmark.judges for _, messages in judge.calls(item, "")
    ]
    return _estimate(chars, settings)


def estimate_for_calls(calls: Iterable[JudgeCall], settings: CostSettings) -> CostEstimate:
    """The cost of the judge calls still owed (any benchmark's), from the exact prompts they will send."""
    chars = [_chars(call.messages()) for call in calls]
    return _estimate(chars, settings)


def _chars(messages: Sequence[Mapping[str, str]]) -> int:
    return sum(len(message["content"]) for message in messages)


def _estimate(prompt_chars: Sequence[int], settings: CostSettings) -> CostEstimate:
    input_tokens = int(sum(prompt_chars) / settings.chars_per_token)
    output_tokens = settings.output_tokens_per_call * len(prompt_chars)
    cost = token_cost(input_tokens, output_tokens, settings)
    return CostEstimate(len(prompt_chars), input_tokens, output_tokens, cost, batch_price(cost, settings))


def token_cost(input_tokens: int, output_tokens: int, settings: CostSettings) -> float:
    """The live price of these judge tokens."""
    return (input_tokens * settings.input_price_per_m + output_tokens * settings.output_price_per_m) / 1e6


def batch_price(live_cost: float, settings: CostSettings) -> float:
    """What a live price comes to through the Batch API (`JUDGE_BATCH_DISCOUNT` off; half by default)."""
    return live_cost * (1 - settings.batch_discount)


@dataclass(frozen=True)
class MeasuredCost:
    """What a complete run of a benchmark really cost in judge calls and tokens (the mean over runs)."""

    runs: int
    calls: int
    input_tokens: int
    output_tokens: int
    cost: float
    batch_cost: float

    def describe(self, currency: str = "$") -> str:
        runs = f"{self.runs} complete run" + ("s" if self.runs > 1 else "")
        return (
            f"~{self.calls:,} judge calls and ~{self.input_tokens + self.output_tokens:,} judge tokens "
            f"({self.input_tokens:,} in, {self.output_tokens:,} out; the mean of {runs}): "
            f"~{currency}{self.cost:,.2f} at live prices, ~{currency}{self.batch_cost:,.2f} in batch mode"
        )


def measured_cost(summaries: Iterable[Mapping[str, Any]], settings: CostSettings) -> MeasuredCost | None:
    """The mean judge usage of the complete runs over every config among `summaries` (summary.json
    dicts), priced live and in batch mode; None when no such run has judge usage recorded."""
    usages = [
        summary["usage"] for summary in summaries
        if _whole_run(summary) and isinstance(summary.get("usage"), Mapping) and summary["usage"].get("calls")
    ]
    if not usages:
        return None
    mean = {key: round(sum(int(u.get(key) or 0) for u in usages) / len(usages)) for key in
            ("calls", "prompt_tokens", "completion_tokens")}
    cost = token_cost(mean["prompt_tokens"], mean["completion_tokens"], settings)
    return MeasuredCost(len(usages), mean["calls"], mean["prompt_tokens"], mean["completion_tokens"], cost,
                        batch_price(cost, settings))


def _whole_run(summary: Mapping[str, Any]) -> bool:
    """Complete, and on every config of its dataset: what one submission is evaluated on."""
    coverage = summary.get("coverage") if isinstance(summary.get("coverage"), Mapping) else {}
    return bool(summary.get("complete")) and (coverage.get("configs") or 0) >= (coverage.get("dataset_configs") or 0)
