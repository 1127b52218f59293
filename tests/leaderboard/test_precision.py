"""The About tab's precision figures, measured on the board's ranked runs of one dataset revision."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from eval_backend.joint_ranking import aligned_figure
from eval_backend.statistics import precision
from leaderboard.precision import ALL_CONFIGS, board_precision, measured_runs, precision_frame
from leaderboard.results import ResultsStore
from tests.support.run_folders import EvaluatedData

BENCHMARK = "indic_writing_bench"


def _frame(runs_dir: Path):
    return precision_frame({BENCHMARK: ResultsStore(runs_dir).snapshot().runs})


def test_every_figure_and_each_language_of_the_headline_is_measured_on_the_ranked_runs(evaluated: EvaluatedData) -> None:
    frame = _frame(evaluated.runs_dir)
    runs = measured_runs(ResultsStore(evaluated.runs_dir).snapshot().runs)
    assert sorted(run.model for run in runs) == sorted(evaluated.ranked_models())
    indic = frame[frame["figure"] == "Indic average"].set_index("scope")
    assert indic.index.tolist() == [ALL_CONFIGS, "Hindi", "Tamil", "Bengali"]  # English is not in the Indic average
    assert frame.loc[frame["figure"] == "Overall (every config)", "scope"].tolist() == [ALL_CONFIGS]
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
