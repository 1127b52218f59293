"""The About tab's precision figures, measured on the board's ranked runs of one dataset revision."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.saraiki.plugin import NAME as SARAIKI
from eval_backend.benchmarks.saraiki.statistics import SARAIKI_STATISTICS
from eval_backend.joint_ranking import aligned_figure
from eval_backend.run_folder import RunFolder
from eval_backend.run_items import read_run_items
from eval_backend.statistics import precision
from leaderboard.precision import ALL_CONFIGS, board_precision, measured_runs, precision_frame
from leaderboard.results import ResultsStore
from leaderboard.tabs.about_tab import PRECISION_LABELS, precision_table
from tests.support.qa_runs import QA_PROFILES, build_qa_runs
from tests.support.run_folders import DEFAULT_PROFILES, EvaluatedData, build_evaluated_data
from tests.support.saraiki_runs import build_saraiki_runs

BENCHMARK = "indic_writing_bench"


def _frame(runs_dir: Path):
    return precision_frame({BENCHMARK: ResultsStore(runs_dir).snapshot().runs})


def test_every_figure_and_each_language_of_the_headline_is_measured_on_the_ranked_runs(evaluated: EvaluatedData) -> None:
    frame = _frame(evaluated.runs_dir)
    runs = measured_runs(ResultsStore(evaluated.runs_dir).snapshot().runs)
    assert sorted(run.model for run in runs) == sorted(evaluated.ranked_models())
    indic = frame[frame["figure"] == "Indic average"].set_index("scope")
    assert indic.index.tolist() == [ALL_CONFIGS, "Hindi", "Tamil", "Bengali"]  # English is not in the Indic average
    # English is measured under the overall figure; the Indic languages are not measured twice.
    assert frame.loc[frame["figure"] == "Overall (every config)", "scope"].tolist() == [ALL_CONFIGS, "english_original"]
    aligned = aligned_figure([run.folder for run in runs], "indic")
    expected = precision(aligned.values, aligned.design)
    row = indic.loc[ALL_CONFIGS]
    assert (row["runs"], row["items"], row["clusters"]) == (len(runs), 18, 18)  # every rubric its own here
    assert row["design_effect"] == pytest.approx(1.0)
    assert row["detectable_difference"] == pytest.approx(expected.detectable_difference)
    assert (frame["detectable_difference"] > 0).all()


def _link_renderings(runs_dir: Path) -> None:
    """Give items 3k, 3k+1 and 3k+2 of each config item 3k's rubric in every run's items.jsonl: three renderings."""
    for items in runs_dir.glob("*/*/items.jsonl"):
        lines = [json.loads(line) for line in items.read_text(encoding="utf-8").splitlines()]
        rubrics = {(line["config"], line["index"]): line["checklist"] for line in lines}
        for line in lines:
            line["checklist"] = rubrics[(line["config"], line["index"] - line["index"] % 3)]
        items.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")


def test_linked_renderings_are_counted_as_one_cluster_and_widen_the_interval(evaluated_copy: Path) -> None:
    before = _frame(evaluated_copy).set_index(["figure", "scope"])
    _link_renderings(evaluated_copy)
    after = _frame(evaluated_copy).set_index(["figure", "scope"])
    key = ("Indic average", "Hindi")
    assert (before.loc[key, "clusters"], after.loc[key, "clusters"]) == (6, 2)
    runs = measured_runs(ResultsStore(evaluated_copy).snapshot().runs)
    aligned = aligned_figure([run.folder for run in runs], "indic")
    hindi = np.array([config == "Hindi" for config in aligned.configs])
    expected = precision(aligned.values[:, hindi], aligned.design.subset(hindi))
    assert after.loc[key, "design_effect"] == pytest.approx(expected.design_effect)
    assert after.loc[key, "width_ratio"] == pytest.approx(np.sqrt(expected.design_effect))


def test_the_table_is_computed_once_per_board_state(evaluated_copy: Path) -> None:
    stores = {BENCHMARK: ResultsStore(evaluated_copy, reuse_s=0.0)}
    first = board_precision(stores)
    assert board_precision(stores) is first
    summary = next(evaluated_copy.glob("*/*/summary.json"))
    summary.write_text(summary.read_text(encoding="utf-8") + " ", encoding="utf-8")  # a re-scored run: new stamps
    again = board_precision(stores)
    assert again is not first and again.equals(first)


def test_a_board_without_a_ranked_run_measures_nothing(tmp_path: Path) -> None:
    assert _frame(tmp_path).empty


@pytest.fixture(scope="module")
def other_benchmarks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("precision-benchmarks")
    return {INDIC_QA.name: build_qa_runs(root / "qa", QA_PROFILES[:3]).runs_dir,
            SARAIKI: build_saraiki_runs(root / "saraiki").runs_dir}


def test_every_qa_language_and_every_saraiki_task_has_its_detectable_difference(other_benchmarks) -> None:
    frame = precision_frame({name: ResultsStore(runs).snapshot().runs for name, runs in other_benchmarks.items()})
    qa = frame[frame["benchmark"] == INDIC_QA.title]
    a_run = RunFolder(next(other_benchmarks[INDIC_QA.name].glob("*/*/summary.json")).parent)
    languages = set(read_run_items(a_run).items["config"])
    assert len(languages) > 1
    judge = qa[qa["figure"] == "Judge accuracy"]
    assert judge["scope"].iloc[0] == ALL_CONFIGS and sorted(judge["scope"].iloc[1:]) == sorted(languages)
    # The other two figures count the same languages: measured once each, under the headline.
    assert qa.loc[qa["figure"] != "Judge accuracy", "scope"].tolist() == [ALL_CONFIGS, ALL_CONFIGS]
    saraiki = frame[frame["benchmark"] == BENCHMARKS[SARAIKI].title]
    tasks = {figure.label for figure in SARAIKI_STATISTICS.figures}
    assert set(saraiki["figure"]) == tasks and (saraiki["scope"] == ALL_CONFIGS).all()  # one config a task
    # Each row has its detectable difference, or none and why (the toy runs: one item a task, identical answers);
    # never a 0.0 that reads as "any difference is detected".
    given = frame["no_detectable_reason"].isna()
    assert (frame.loc[given, "detectable_difference"] > 0).all()
    assert frame.loc[~given, "detectable_difference"].isna().all()
    reasons = frame.loc[~given, "no_detectable_reason"].tolist()
    assert all(reason.startswith(("the figure rests on", "the runs' paired differences do not vary"))
               for reason in reasons)
    assert given.any() and reasons


def test_about_shows_why_a_single_run_has_no_detectable_difference(tmp_path: Path) -> None:
    # Today's main: a blank cell for one run, 0.0 for one item or constant scores.
    data = build_evaluated_data(tmp_path, DEFAULT_PROFILES[:1])
    shown = precision_table({BENCHMARK: ResultsStore(data.runs_dir)})["value"]
    cells = shown[PRECISION_LABELS["detectable_difference"]].tolist()
    assert cells and all(cell == "none: one run: no pair of runs to measure a difference on" for cell in cells)
