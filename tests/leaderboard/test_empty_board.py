"""A fresh data folder (no runs) and a benchmark with no dataset: every grid has its real headers from the
start, the benchmark's tab says what to set, and the Submit form offers only what can run."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.settings import DataSettings, Settings
from leaderboard.app_factory import build_app


@pytest.fixture
def page_config(tmp_path: Path) -> dict[str, Any]:
    """The config Gradio puts in the page of an app on an empty data folder, before any event renders it."""
    settings = Settings(data=DataSettings(data_dir=tmp_path / "data"))
    assert settings.data.qa_dataset is None  # the test's premise: QA has no dataset
    return build_app(settings, downloads_dir=tmp_path / "downloads").demo.config


def components(config: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [component for component in config["components"] if component["type"] == kind]


def test_every_grid_starts_with_its_real_headers(page_config: dict[str, Any]) -> None:
    # A grid hidden at first is shown only by a render that fills it (the unranked rows): its value then comes along.
    grids = {grid["props"].get("elem_id") or grid["id"]: grid["props"]["value"]["headers"]
             for grid in components(page_config, "dataframe") if grid["props"].get("visible", True) is not False}
    placeholders = {grid: headers for grid, headers in grids.items()
                    if not headers or all(re.fullmatch(r"\d+", str(header)) for header in headers)}
    assert placeholders == {}, f"grids that would show Gradio's placeholder headers: {placeholders}"
    assert grids["leaderboard-table"][:3] == ["Rank", "Model", "Indic average (score 1–10)"]
    assert grids["overview-table"][:2] == ["Model", "Revision"]
    assert grids["queue-pending"][:2] == ["id", "model"]


def test_a_benchmark_without_a_dataset_says_what_to_set_and_is_not_offered(page_config: dict[str, Any]) -> None:
    intro = next(c["props"]["value"] for c in components(page_config, "markdown")
                 if c["props"].get("elem_id") == "qa-intro")
    assert "No dataset is configured" in intro and "`QA_DATASET`" in intro and "Submit tab does not offer it" in intro
    offered = next(c["props"] for c in components(page_config, "checkboxgroup")
                   if c["props"].get("elem_id") == "submit-benchmarks")
    names = [value for _, value in offered["choices"]]
    assert INDIC_QA.name not in names and INDIC_QA.name not in offered["value"]
    assert sorted(names) == sorted(name for name in BENCHMARKS if name != INDIC_QA.name)


def test_the_intro_and_the_submit_form_name_each_benchmark_from_its_declarations(page_config: dict[str, Any]) -> None:
    intro = next(c["props"]["value"] for c in components(page_config, "markdown") if c["props"].get("elem_id") == "intro")
    for benchmark in BENCHMARKS.values():
        assert f"**{benchmark.title}**: {benchmark.board.in_brief}" in intro
    mode = next(c["props"] for c in components(page_config, "radio") if c["props"].get("elem_id") == "submit-chat-mode")
    assert mode["label"] == "Saraiki prompts: chat or raw (the other benchmarks always ask in chat)"
    consistency = next(grid["props"]["value"]["headers"] for grid in components(page_config, "dataframe")
                       if grid["props"].get("elem_id") == "judge-consistency")
    assert consistency[:2] == ["Benchmark", "Re-judged by"]  # each benchmark's judges apart: a judge's scale is its own
