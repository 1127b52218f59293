"""The Submit tab says what a submission costs the board in judge tokens, live and in batch mode, and what
a submission queued (in which chat mode) and left out."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import huggingface_hub.constants
import pytest

from eval_backend.settings import CostSettings, DataSettings, HubSettings, Settings
from eval_backend.submissions import SqliteQueueStore, SubmissionForm
from leaderboard.submit_messages import QUEUED_LABEL, REFUSED_LABEL
from leaderboard.tabs.submit_tab import judge_cost_line, submit_form
from tests.support.hub_server import StandInHub, chat_model_files

PRICES = CostSettings(input_price_per_m=1.0, output_price_per_m=10.0)


def test_the_cost_line_is_measured_on_the_complete_runs_of_each_judged_benchmark() -> None:
    usage = {"prompt_tokens": 400_000_000, "completion_tokens": 15_000_000, "total_tokens": 415_000_000, "calls": 19_625}
    line = judge_cost_line({"Indic WritingBench v1": [{"complete": True, "usage": usage},
                                                      {"complete": False, "usage": {"calls": 3}}]}, PRICES)
    assert "Indic WritingBench v1: ~19,625 judge calls" in line and "415,000,000 judge tokens" in line
    assert "1 complete run" in line and "$550.00 at live prices" in line and "$275.00 in batch mode" in line
    assert "eval_backend estimate" not in line  # every benchmark measured


def test_without_a_complete_run_it_points_to_the_estimate() -> None:
    usage = {"prompt_tokens": 40, "completion_tokens": 10, "total_tokens": 50, "calls": 2}
    line = judge_cost_line({"Indic WritingBench v1": [{"complete": True, "usage": usage}], "Indic QA": []}, PRICES)
    assert "Indic WritingBench v1: ~2 judge calls" in line
    assert "Indic QA: no complete judged run yet" in line and "eval_backend estimate" in line


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandInHub]:
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    with StandInHub() as server:
        yield server


def test_a_base_model_is_queued_raw_on_saraiki_and_the_result_says_what_was_left_out_and_why(
    hub: StandInHub, tmp_path: Path
) -> None:
    sha = hub.add_model("org/base", chat_model_files(chat_template=None), parameters=10**9)
    settings = Settings(data=DataSettings(data_dir=tmp_path), hub=HubSettings(hf_endpoint=hub.url))
    store = SqliteQueueStore(tmp_path / "queue.sqlite")
    every = ("indic_writing_bench", "saraiki")
    queued = submit_form(SubmissionForm("org/base", benchmarks=every), "alice", store, settings)
    assert queued.queued
    assert queued.message == (
        f"Queued as request #1 (saraiki, raw prompts): org/base at {sha}.\n"
        f"Left out: Model 'org/base' at {sha[:12]} has no chat template (no 'chat_template' in "
        "tokenizer_config.json and no chat_template.jinja); it cannot be evaluated on indic_writing_bench, "
        "which asks prompts as chat turns."
    )
    refused = submit_form(SubmissionForm("org/base", benchmarks=every, chat_mode="chat"), "bob", store, settings)
    assert not refused.queued and "so it cannot be asked in chat mode on saraiki" in refused.message
    assert refused.update()["label"] == REFUSED_LABEL and queued.update()["label"] == QUEUED_LABEL
