"""The engine's trust rules (`eval_backend.scorer_runs`) on the Saraiki plug-in, end to end.

Generation runs on the openai backend against a stand-in model on 127.0.0.1 and the refusal
judge is a stand-in too; the dataset is the small Saraiki set in the real Hub layout. Each test
is one rule: an unanswered item counts against the model, a corrected answer is scored again
without asking the model again, a limited run is never complete, every figure has an interval.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from eval_backend.benchmarks.saraiki.plugin import saraiki_benchmark
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.options import GenerationOptions
from eval_backend.pipeline import RunSpec, run_pipeline
from eval_backend.run_folder import RunFolder
from tests.eval_backend.benchmarks.saraiki.test_plugin import stand_in_refusal_judge
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import Reply, StandInChatServer, user_text
from tests.support.saraiki_dataset import saraiki_rows, write_saraiki_dataset, write_split
from tests.support.saraiki_runs import saraiki_model_reply

CONFIGS = ["knowledge", "instruction_following", "truthfulness_safety"]
ROWS = 4
"""Test rows per config: `truthfulness_safety` holds two truthful questions, one harmful and one benign request."""


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return write_saraiki_dataset(tmp_path / "saraiki", test_rows=ROWS)


def run_saraiki(
    folder: RunFolder, dataset: Path, model: StandInChatServer, judge: StandInChatServer | None = None, **spec: Any
) -> dict[str, Any]:
    benchmark = saraiki_benchmark(chat=True, refusal_judge=judge is not None)
    options = GenerationOptions.for_benchmark(benchmark, "acme/saraiki-7b", backend="openai", base_url=model.base_url)
    run_spec = RunSpec(benchmark, DatasetSpec(str(dataset)), folder, configs=spec.pop("configs", CONFIGS), **spec)
    return run_pipeline(run_spec, {"model": "acme/saraiki-7b", "revision": "main", **spec}, options,
                        fast_judge_settings(judge or model))  # type: ignore[return-value]


def silent_on_instructions_and_safety(body: dict[str, Any]) -> Reply:
    """The stand-in model, with an empty reply to every instruction and safety request."""
    prompt = user_text(body)
    if prompt.endswith(tuple(f"({i})" for i in range(ROWS))) or "بم" in prompt or "سکول" in prompt:
        return Reply(content="")
    return saraiki_model_reply(body)


def test_an_unanswered_item_counts_against_the_model_and_the_run_is_complete(tmp_path, dataset) -> None:
    with StandInChatServer(silent_on_instructions_and_safety) as model:
        summary = run_saraiki(RunFolder(tmp_path / "run"), dataset, model)
    following = summary["tasks"]["instruction_following"]
    # Every instruction unmet, even "no commas", which the empty reply would pass if it were checked.
    assert (following["prompt_level"], following["instruction_level"], following["n"]) == (0.0, 0.0, ROWS)
    assert following["prompt_level_loose"] == 0.0 and following["n_instructions"] == 5
    safety = summary["tasks"]["safety"]
    # The harmful request left unanswered is not a refusal; the benign one is counted as over-refused.
    assert (safety["refusal_rate"], safety["over_refusal_rate"]) == (0.0, 100.0)
    assert (safety["n_refuse"], safety["n_comply"], safety["missing"]) == (1, 1, 0)
    assert summary["complete"] is True
    assert summary["coverage"] == {"expected": 3 * ROWS, "scored": 3 * ROWS - 6, "failed": 0, "no_response": 6,
                                   "pending": 0, "configs": 3, "dataset_configs": 7}


def test_a_corrected_answer_index_is_scored_again_and_nothing_is_generated_again(tmp_path, dataset) -> None:
    folder = RunFolder(tmp_path / "run")
    with StandInChatServer(saraiki_model_reply) as model:
        first = run_saraiki(folder, dataset, model, configs=["knowledge"])
        rows = saraiki_rows("knowledge", "test", ROWS)
        right = [n for n in range(ROWS) if _answered_right(folder, n)]
        row = rows[right[0]]
        row["answer_index"] = (row["answer_index"] + 1) % len(row["options"])  # the key said another letter
        write_split(dataset, "knowledge", "test", rows)
        model.clear()
        second = run_saraiki(folder, dataset, model, configs=["knowledge"])
        assert model.requests == []  # the question and its options are the same: the reply stands
    assert second["tasks"]["knowledge"]["accuracy"] == pytest.approx(first["tasks"]["knowledge"]["accuracy"] - 100 / ROWS)


def _answered_right(folder: RunFolder, index: int) -> bool:
    details = pd.read_parquet(folder.details_path)
    return bool(details.loc[details["index"] == index, "correct"].iloc[0])


def test_a_corrected_expected_behaviour_is_judged_again_once(tmp_path, dataset) -> None:
    folder = RunFolder(tmp_path / "run")
    with StandInChatServer(saraiki_model_reply) as model, StandInChatServer(stand_in_refusal_judge) as judge:
        first = run_saraiki(folder, dataset, model, judge, configs=["truthfulness_safety"])
        rows = saraiki_rows("truthfulness_safety", "test", ROWS)
        rows[1]["expected_behavior"] = "comply"  # the bomb request, now a row the model should answer
        write_split(dataset, "truthfulness_safety", "test", rows)
        model.clear(), judge.clear()
        second = run_saraiki(folder, dataset, model, judge, configs=["truthfulness_safety"])
        assert model.requests == [] and len(judge.requests) == 1
        judge.clear()
        run_saraiki(folder, dataset, model, judge, configs=["truthfulness_safety"])
        assert judge.requests == []
    assert first["tasks"]["safety"]["n_refuse"] == 1 and second["tasks"]["safety"]["n_refuse"] == 0
    assert second["tasks"]["safety"]["over_refusal_rate"] == 100.0  # it refused the request it should answer


def test_a_limited_run_is_never_complete(tmp_path, dataset) -> None:
    with StandInChatServer(saraiki_model_reply) as model:
        summary = run_saraiki(RunFolder(tmp_path / "run"), dataset, model, limit=1)
        assert len(model.requests) == 3
    assert summary["complete"] is False
    assert summary["coverage"]["expected"] == 3 * ROWS and summary["coverage"]["pending"] == 3 * ROWS - 3


def test_every_task_figure_has_a_bootstrap_interval_around_it(tmp_path) -> None:
    # Eight rows a config: two harmful and two benign requests, so each safety rate rests on two items
    # (a figure on a single item has no interval).
    dataset = write_saraiki_dataset(tmp_path / "saraiki", test_rows=2 * ROWS)
    with StandInChatServer(saraiki_model_reply) as model:
        summary = run_saraiki(RunFolder(tmp_path / "run"), dataset, model)
    for metric in ("knowledge", "instruction_following", "truthfulness", "refusal_rate", "over_refusal_rate"):
        low, high = summary["intervals"][metric]
        assert 0 <= low <= summary["metrics"][metric] <= high <= 100
    assert summary["config_intervals"]["knowledge"] == {"knowledge": summary["intervals"]["knowledge"]}
    assert set(summary["config_intervals"]["truthfulness_safety"]) == {"truthfulness", "refusal_rate",
                                                                       "over_refusal_rate"}
