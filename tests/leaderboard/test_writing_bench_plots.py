"""Every plot WritingBench declares draws from its runs on the one tab (`declared_figures.benchmark_figures`, as
`benchmark_tab.render_figures` draws them): none reads "could not be drawn", and the language heatmap holds each
run's score per language as its summary has it (the former Plots tab's first heatmap)."""

from __future__ import annotations

import pytest

from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH as WB
from leaderboard.declared_figures import benchmark_figures
from leaderboard.figure_kinds import plot_text
from leaderboard.results import ResultsStore
from tests.support.run_folders import EvaluatedData

NOT_DRAWN = "could not be drawn"


def test_every_declared_figure_draws_from_the_runs(evaluated: EvaluatedData) -> None:
    """Fails on one-tab: the heatmap "Score by language" names the breakdown `config`, which WritingBench declares
    as `language` (eval_backend/benchmarks/writing_bench/board.py)."""
    runs = ResultsStore(evaluated.runs_dir).snapshot().runs
    figures = dict(zip((spec.name for spec in WB.board.figures), benchmark_figures(runs, WB)))
    broken = {name: [note.text for note in figure.layout.annotations if NOT_DRAWN in str(note.text)]
              for name, figure in figures.items()}
    assert {name: notes for name, notes in broken.items() if notes} == {}
    assert all(figure.data for figure in figures.values())


def test_the_language_heatmap_holds_each_run_s_score_per_language(evaluated: EvaluatedData) -> None:
    runs = ResultsStore(evaluated.runs_dir).snapshot().runs
    heatmap = benchmark_figures(runs, WB)[[spec.name for spec in WB.board.figures].index("heatmap")]
    [cells] = heatmap.data
    drawn = {(str(row), str(column)): value for row, values in zip(cells.y, cells.z)
             for column, value in zip(cells.x, values) if value is not None}
    assert drawn, "the heatmap drew no cell"
    for run in runs:
        for language, score in run.summary["configs"].items():
            # each row names its run, an id's markup escaped (plotly would draw it as HTML)
            matches = [value for (row, column), value in drawn.items()
                       if column == language and plot_text(run.model) in row]
            assert matches == [pytest.approx(score)], (run.model, language)
