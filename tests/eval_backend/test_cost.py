"""The cost estimate counts the calls a run will make and prices the prompts they send."""

from __future__ import annotations

import pytest

from eval_backend.cli import main
from eval_backend.cost import estimate_for_items, estimate_for_tasks
from eval_backend.judging import plan_judge_tasks
from eval_backend.records import Item, ResponseRecord
from eval_backend.settings import CostSettings
from tests.eval_backend.conftest import BENCHMARK

PRICES = CostSettings(input_price_per_m=2.0, output_price_per_m=8.0, chars_per_token=4.0, output_tokens_per_call=100,
                      response_chars=1000)


def test_every_criterion_of_every_item_is_one_call_priced_from_its_prompt(items: list[Item]) -> None:
    estimate = estimate_for_items(BENCHMARK, items, PRICES)
    prompt_chars = sum(
        sum(len(m["content"]) for m in BENCHMARK.judge_messages(item, c, "x" * 1000))
        for item in items for c in range(5)
    )
    assert estimate.calls == len(items) * 5
    assert estimate.input_tokens == int(prompt_chars / 4.0)
    assert estimate.output_tokens == 100 * len(items) * 5
    assert estimate.cost == pytest.approx((estimate.input_tokens * 2.0 + estimate.output_tokens * 8.0) / 1e6)


def test_only_the_calls_still_owed_are_estimated(items: list[Item]) -> None:
    responses = {item.key: ResponseRecord(item.config, item.index, "short answer") for item in items[:2]}
    tasks = plan_judge_tasks(BENCHMARK, items, responses, [], "judge")
    assert estimate_for_tasks(BENCHMARK, tasks, PRICES).calls == 2 * 5


def test_the_cli_prints_the_estimate(dataset_dir, items, capsys) -> None:
    assert main(["estimate", "--dataset", str(dataset_dir), "--configs", "Hindi"]) == 0
    out = capsys.readouterr().out
    hindi = sum(1 for item in items if item.config == "Hindi")
    assert f"{hindi} items" in out and f"{hindi * 5} judge calls" in out and "$" in out
