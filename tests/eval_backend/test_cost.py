"""The cost estimate counts the calls a run will make and prices the prompts they send."""

from __future__ import annotations

import re

import pytest

from eval_backend.benchmarks.writing_bench.judge import judge_messages
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.cli import main
from eval_backend.cost import estimate_for_calls, estimate_for_items
from eval_backend.judge_calls import never_settled, plan_calls
from eval_backend.records import ResponseRecord
from eval_backend.settings import CostSettings
from tests.eval_backend.conftest import BENCHMARK

PRICES = CostSettings(input_price_per_m=2.0, output_price_per_m=8.0, chars_per_token=4.0, output_tokens_per_call=100,
                      response_chars=1000)


def test_every_criterion_of_every_item_is_one_call_priced_from_its_prompt(items: list[Item]) -> None:
    estimate = estimate_for_items(BENCHMARK, items, PRICES)
    prompt_chars = sum(
        sum(len(m["content"]) for m in judge_messages(item, c, "x" * 1000))
        for item in items for c in range(5)
    )
    assert estimate.calls == len(items) * 5
    assert estimate.input_tokens == int(prompt_chars / 4.0)
    assert estimate.output_tokens == 100 * len(items) * 5
    assert estimate.cost == pytest.approx((estimate.input_tokens * 2.0 + estimate.output_tokens * 8.0) / 1e6)


def test_only_the_calls_still_owed_are_estimated(items: list[Item]) -> None:
    responses = {item.key: ResponseRecord(item.config, item.index, "short answer") for item in items[:2]}
    assert estimate_for_calls(plan_calls(BENCHMARK, items, responses, never_settled), PRICES).calls == 2 * 5


def test_the_cli_prints_the_estimate(dataset_dir, items, capsys) -> None:
    assert main(["estimate", "--dataset", str(dataset_dir), "--configs", "Hindi"]) == 0
    out = capsys.readouterr().out
    hindi = sum(1 for item in items if item.config == "Hindi")
    assert f"{hindi} items" in out and f"{hindi * 5} judge calls" in out and "$" in out


def test_the_batch_price_is_the_live_price_less_the_batch_discount(items: list[Item]) -> None:
    live = estimate_for_items(BENCHMARK, items, PRICES)
    assert live.batch_cost == pytest.approx(live.cost / 2)  # OpenAI and Azure global batch: half
    discounted = estimate_for_items(BENCHMARK, items, PRICES.model_copy(update={"batch_discount": 0.25}))
    assert discounted.batch_cost == pytest.approx(live.cost * 0.75)


def test_the_cli_prints_the_live_and_the_batch_price(dataset_dir, capsys, monkeypatch) -> None:
    monkeypatch.setenv("JUDGE_PRICE_INPUT_PER_M", "3")
    monkeypatch.setenv("JUDGE_PRICE_OUTPUT_PER_M", "0")
    assert main(["estimate", "--dataset", str(dataset_dir), "--configs", "Hindi"]) == 0
    out = capsys.readouterr().out
    live, batch = (float(x.replace(",", "")) for x in re.findall(r"~\$([\d,.]+)", out))
    assert " live" in out and "batch mode" in out and batch == pytest.approx(live / 2, abs=0.01)


def test_the_measured_cost_is_the_mean_judge_usage_of_complete_runs_priced_both_ways() -> None:
    from eval_backend.cost import measured_cost

    def summary(complete: bool, calls: int, prompt: int, completion: int) -> dict:
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion, "calls": calls}
        return {"complete": complete, "usage": usage}

    partial = {**summary(True, 7, 9, 9), "coverage": {"configs": 2, "dataset_configs": 13}}  # fewer configs
    runs = [summary(True, 100, 1_000_000, 10_000), summary(True, 110, 3_000_000, 30_000), summary(False, 5, 9, 9),
            partial]
    measured = measured_cost(runs, PRICES)
    assert (measured.runs, measured.calls, measured.input_tokens, measured.output_tokens) == (2, 105, 2_000_000, 20_000)
    assert measured.cost == pytest.approx(2.0 * 2 + 0.02 * 8) and measured.batch_cost == pytest.approx(measured.cost / 2)
    assert "105 judge calls" in measured.describe() and "batch mode" in measured.describe()
    assert measured_cost([summary(False, 5, 9, 9)], PRICES) is None
