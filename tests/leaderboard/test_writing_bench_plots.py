"""Every plot WritingBench declares draws from its ranked runs on the one tab (`declared_figures.ranked_figures`, as
its plots section draws them): none reads "could not be drawn", and the language heatmap holds each ranked run's
score per language as its summary has it (the former Plots tab's first heatmap)."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH as WB
from leaderboard.declared_figures import ranked_figures
from leaderboard.figure_kinds import plot_text
from leaderboard.results import ResultsStore, RunResult
from leaderboard.scored_rankings import split_standing
from leaderboard.scored_tables import ranking_frame
from tests.support.run_folders import EvaluatedData

NOT_DRAWN = "could not be drawn"


def _figures(evaluated: EvaluatedData) -> tuple[dict[str, go.Figure], list[RunResult]]:
    """Each declared figure by name, of the ranked runs in the ranking's order; and those runs."""
    runs = {run.run_id: run for run in ResultsStore(evaluated.runs_dir).snapshot().runs}
    ranked = split_standing(ranking_frame(list(runs.values()), WB))[0]
    figures = ranked_figures(ranked, runs, WB)
    return dict(zip((spec.name for spec in WB.board.figures), figures)), [runs[run_id] for run_id in ranked["run_id"]]


def test_every_declared_figure_draws_from_the_ranked_runs(evaluated: EvaluatedData) -> None:
    figures, _ = _figures(evaluated)
    broken = {name: [note.text for note in figure.layout.annotations if NOT_DRAWN in str(note.text)]
              for name, figure in figures.items()}
    assert {name: notes for name, notes in broken.items() if notes} == {}
    assert all(figure.data for figure in figures.values())


def test_the_language_heatmap_holds_each_ranked_run_s_score_per_language(evaluated: EvaluatedData) -> None:
    figures, ranked = _figures(evaluated)
    [cells] = figures["heatmap"].data
    drawn = {(str(row), str(column)): value for row, values in zip(cells.y, cells.z)
             for column, value in zip(cells.x, values) if value is not None}
    assert len({row for row, _ in drawn}) == len(ranked) == 3
    for run in ranked:
        for language, score in run.summary["configs"].items():
            # each row names its run, an id's markup escaped (plotly would draw it as HTML)
            matches = [value for (row, column), value in drawn.items()
                       if column == language and plot_text(run.model) in row]
            assert matches == [pytest.approx(score)], (run.model, language)
