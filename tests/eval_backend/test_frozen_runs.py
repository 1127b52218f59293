"""Run folders written by main before one engine path (tests/support/frozen_runs) score to the same figures.

WritingBench's were written while it still had a scoring path of its own: on the one path its summary
figures, its intervals under their old names and its details.parquet, column for column, are unchanged,
and it gains what every benchmark's summary has (`metrics`, `intervals`, `config_intervals`).

The new rules add to what a summary says (`complete`, `coverage`, intervals) and key verdicts by the
item's hash; a verdict written before the hash existed still counts, so nothing is judged again. The
no-answer rule changes no figure here: QA's blank answers were already wrong under every scorer (now
scored by the policy, as `no_response_items`), and no Saraiki reply was empty.

Their summaries had no intervals; the ones they get now are every figure's cluster bootstrap by the
benchmark's declared rule (Saraiki's reading questions drawn by passage), the same numbers anyone
gets from the run's details.parquet and items.jsonl, and around the figures the summary reports.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS
from eval_backend.pipeline import score_folder
from eval_backend.run_folder import RunFolder
from eval_backend.run_items import read_run_items
from eval_backend.statistics import cluster_bootstrap_interval, headline, item_design

FROZEN = Path(__file__).parents[1] / "support" / "frozen_runs"
FOLDERS = sorted(path.parent.relative_to(FROZEN) for path in FROZEN.glob("*/*/*/summary.json"))
FIGURES = {
    "indic_qa": ("metrics", "combined", "by_language", "by_domain"),
    "saraiki": ("metrics", "tasks", "chat"),
    "indic_writing_bench": ("overall", "configs", "config_groups", "variants", "domains", "subdomains", "config_variants",
                            "overall_ci", "config_ci", "config_group_ci", "usage", "complete", "coverage"),
}
WRITING_BENCH = "indic_writing_bench"


@pytest.mark.parametrize("run", FOLDERS, ids=str)
def test_a_frozen_run_scores_to_the_same_figures_and_is_complete(run: Path, tmp_path: Path) -> None:
    folder = RunFolder(Path(shutil.copytree(FROZEN / run, tmp_path / "run")))
    before = json.loads(folder.summary_path.read_text(encoding="utf-8"))
    assert ("coverage" in before) is (run.parts[0] == WRITING_BENCH)  # the others were written before the rule
    score_folder(BENCHMARKS[run.parts[0]], folder)
    after = json.loads(folder.summary_path.read_text(encoding="utf-8"))
    for field in FIGURES[run.parts[0]]:
        assert _kept(before[field], after[field]), field
    request = json.loads(folder.request_path.read_text(encoding="utf-8"))
    assert after["complete"] is before.get("complete", True)
    assert after["coverage"]["expected"] == sum(request["expected_items"].values())
    assert after["counts"]["judgments"] == before["counts"]["judgments"]  # no verdict lost to the item hash
    for count in ("items", "scored_items", "no_response_items", "failed_items", "judgments"):  # per config, as for all
        assert sum(config[count] for config in after["config_counts"].values()) == after["counts"][count], count


@pytest.mark.parametrize("run", FOLDERS, ids=str)
def test_a_frozen_run_s_intervals_are_its_figures_cluster_bootstrap(run: Path, tmp_path: Path) -> None:
    folder = RunFolder(Path(shutil.copytree(FROZEN / run, tmp_path / "run")))
    after = score_folder(BENCHMARKS[run.parts[0]], folder)
    items = read_run_items(folder)
    checked = 0
    for figure in items.statistics.figures:
        counted = items.items[np.isfinite(items.items[figure.name])]
        design = item_design(counted["config"].tolist(), counted["cluster"].tolist(), figure.weighting)
        values = counted[figure.name].to_numpy(float)
        assert headline(values, design) == pytest.approx(after["metrics"][figure.name]), figure.name
        if design.n_clusters < 2:
            assert figure.name not in after["intervals"]
            continue
        interval = cluster_bootstrap_interval(values, design)
        assert after["intervals"][figure.name] == pytest.approx((interval.low, interval.high)), figure.name
        checked += 1
    assert checked >= 2  # WritingBench has two figures, the others more


def _kept(before: object, after: object) -> bool:
    """Every figure of `before` is in `after`, unchanged; `after` may say more (fields added since,
    such as the judge's refused-temperature count or the safety rates' `incomplete` reason)."""
    if isinstance(before, dict):
        return isinstance(after, dict) and all(key in after and _kept(value, after[key]) for key, value in before.items())
    if isinstance(before, list) and all(isinstance(value, float) for value in before):
        # An interval: drawn with more replicates since issue 42 (draws.py), its ends land on the same discrete
        # values of these small runs, up to the last bits of the quantile's interpolation.
        return after == pytest.approx(before, rel=1e-12)
    if isinstance(before, float) and not isinstance(after, bool):
        # A metric is now the engine's mean of its item values (issue 39: one computation), each sum exactly
        # rounded: it equals the seed's arithmetic up to the last bit of a sum taken in another order.
        return after == pytest.approx(before, rel=1e-14)
    return before == after


@pytest.mark.parametrize("run", [run for run in FOLDERS if run.parts[0] == WRITING_BENCH], ids=str)
def test_a_frozen_writing_bench_run_keeps_its_details_columns_and_values(run: Path, tmp_path: Path) -> None:
    folder = RunFolder(Path(shutil.copytree(FROZEN / run, tmp_path / "run")))
    before = pd.read_parquet(folder.details_path)
    score_folder(BENCHMARKS[WRITING_BENCH], folder)
    after = pd.read_parquet(folder.details_path)
    assert list(after.columns) == list(before.columns)
    pd.testing.assert_frame_equal(after, before)


def test_every_frozen_benchmark_is_there() -> None:
    counts = Counter(run.parts[0] for run in FOLDERS)
    assert counts == {"indic_qa": 4, "saraiki": 2, WRITING_BENCH: 4}
    summaries = [json.loads((FROZEN / run / "summary.json").read_text(encoding="utf-8")) for run in FOLDERS]
    assert any(summary.get("coverage", {}).get("no_response") for summary in summaries)  # the floor is exercised
    assert any(summary.get("complete") is False for summary in summaries)  # and a failed judgment


def _seed_figure(benchmark: str, summary: dict, name: str) -> float | None:
    """A metric as the seed's own arithmetic gives it, read from the breakdowns the benchmark's aggregate writes."""
    if benchmark == "indic_qa":
        return (summary["combined"].get(name) or {}).get("combined")
    if benchmark == "saraiki":
        tasks = summary["tasks"]
        rates = {"instruction_following": ("instruction_following", "prompt_level"),
                 "refusal_rate": ("safety", "refusal_rate"), "over_refusal_rate": ("safety", "over_refusal_rate")}
        task, figure = rates.get(name, (name, "accuracy"))
        return (tasks.get(task) or {}).get(figure)
    configs = summary["configs"]
    kept = [score for config, score in configs.items() if name == "overall" or config in INDIC_CONFIGS]
    return sum(kept) / len(kept) if kept else None


@pytest.mark.parametrize("run", FOLDERS, ids=str)
def test_each_figure_is_the_mean_of_its_item_values_and_equals_the_seed_s_arithmetic(run: Path, tmp_path: Path) -> None:
    """One computation per number (issue 39): summary.json's per-item metrics are the engine's weighted means of the
    values the benchmark declares per item, and equal what the seed's own arithmetic gives in its breakdowns."""
    folder = RunFolder(Path(shutil.copytree(FROZEN / run, tmp_path / "run")))
    benchmark = BENCHMARKS[run.parts[0]]
    summary = score_folder(benchmark, folder)
    checked = [metric.name for metric in benchmark.metrics if metric.per_item]
    for name in checked:
        expected = _seed_figure(benchmark.name, summary, name)
        assert summary["metrics"][name] == (None if expected is None else pytest.approx(expected, rel=1e-12)), name
    assert checked and all(metric.name in summary["metrics"] for metric in benchmark.metrics)
