"""Comparing two run folders item by item: the figures are the summaries' own, subsets restrict the items."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from eval_backend.run_comparison import ALL_CONFIGS, RunsNotComparable, compare_runs
from eval_backend.run_items import read_run_items
from tests.support.run_folders import DEFAULT_PROFILES, EvaluatedData, build_evaluated_data

STRONG, REASONER = DEFAULT_PROFILES[0].model_id, DEFAULT_PROFILES[1].model_id


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> EvaluatedData:
    return build_evaluated_data(tmp_path_factory.mktemp("compare"), DEFAULT_PROFILES[:2])


def _by_scope(results, figure: str) -> dict:
    return {result.scope: result.comparison for result in results if result.figure.name == figure}


def test_the_differences_are_those_of_the_two_summaries(evaluated: EvaluatedData) -> None:
    a, b = (read_run_items(evaluated.folders[model]) for model in (STRONG, REASONER))
    results = compare_runs(a, b)
    strong, reasoner = evaluated.summary(STRONG), evaluated.summary(REASONER)
    indic = _by_scope(results, "indic")
    assert indic[ALL_CONFIGS].difference.estimate == pytest.approx(
        strong["config_groups"]["indic"] - reasoner["config_groups"]["indic"])
    for config in ("Hindi", "Tamil", "Bengali"):
        expected = strong["configs"][config] - reasoner["configs"][config]
        assert indic[config].difference.estimate == pytest.approx(expected)
    overall = _by_scope(results, "overall")[ALL_CONFIGS]
    assert overall.difference.estimate == pytest.approx(strong["overall"] - reasoner["overall"])
    assert overall.n_items == strong["coverage"]["expected"]


def test_a_subset_keeps_only_its_items(evaluated: EvaluatedData) -> None:
    a, b = (read_run_items(evaluated.folders[model]) for model in (STRONG, REASONER))
    results = compare_runs(a, b, configs=["Hindi"], where={"variant": ["native"]})
    assert {result.scope for result in results} == {ALL_CONFIGS}  # one config: no per-config rows
    natives = (a.items["config"] == "Hindi") & (a.items["variant"] == "native")
    assert _by_scope(results, "indic")[ALL_CONFIGS].n_items == int(natives.sum())


def test_runs_that_do_not_share_their_items_are_refused(evaluated: EvaluatedData) -> None:
    a, b = (read_run_items(evaluated.folders[model]) for model in (STRONG, REASONER))
    with pytest.raises(RunsNotComparable, match="dataset revision"):
        compare_runs(a, dataclasses.replace(b, dataset_revision="sha256:older"))
    with pytest.raises(RunsNotComparable, match="is a run of indic_writing_bench"):
        compare_runs(a, dataclasses.replace(b, benchmark="indic_qa"))
    with pytest.raises(RunsNotComparable, match="no subset 'task'"):
        compare_runs(a, b, where={"task": ["math"]})
    with pytest.raises(RunsNotComparable, match="share no scored item"):
        compare_runs(a, b, configs=["Marathi"])


def test_a_folder_without_a_summary_is_named(tmp_path: Path) -> None:
    from eval_backend.run_folder import RunFolder, RunFolderError

    with pytest.raises(RunFolderError, match="no summary.json"):
        read_run_items(RunFolder(tmp_path))


def test_without_per_config_rows_each_figure_is_compared_once_on_every_config(evaluated: EvaluatedData) -> None:
    a, b = (read_run_items(evaluated.folders[model]) for model in (STRONG, REASONER))
    pooled = compare_runs(a, b, per_config=False)
    assert [(result.figure.name, result.scope) for result in pooled] == [("indic", ALL_CONFIGS),
                                                                         ("overall", ALL_CONFIGS)]
    full = {(result.figure.name, result.scope): result.comparison for result in compare_runs(a, b)}
    assert all(result.comparison == full[(result.figure.name, ALL_CONFIGS)] for result in pooled)


def test_chosen_items_are_the_only_ones_compared(evaluated: EvaluatedData) -> None:
    a, b = (read_run_items(evaluated.folders[model]) for model in (STRONG, REASONER))
    keys = [("Hindi", 0), ("Hindi", 1), ("Tamil", 2)]
    chosen = compare_runs(a, b, per_config=False, items=keys)
    overall = _by_scope(chosen, "overall")[ALL_CONFIGS]
    assert overall.n_items == 3
    expected = compare_runs(a, b, configs=["Hindi"], per_config=False, items=keys[:2])
    assert _by_scope(expected, "overall")[ALL_CONFIGS].n_items == 2
    with pytest.raises(RunsNotComparable, match="share no scored item"):
        compare_runs(a, b, items=[])
