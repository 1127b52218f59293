"""The pairwise matrix: the top N ranked runs, each cell the paired difference, coloured only past Holm's correction."""

from __future__ import annotations

import dataclasses
import html
import re

import numpy as np
import pytest

from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK
from eval_backend.run_items import read_run_items
from eval_backend.benchmarks.writing_bench.plugin import METRICS
from eval_backend.statistics import CORRECTION, compare_paired, holm_adjusted, item_design, pairwise_comparisons
from eval_backend.statistics.draws import ENDPOINT_ERROR
from leaderboard.pairwise_matrix import (
    DEFAULT_MODELS,
    MAX_MODELS,
    MatrixView,
    bounded_models,
    figure_choices,
    matrix_html,
    matrix_note,
    matrix_view,
)
from leaderboard.results import ResultsStore
from leaderboard.short_labels import short_labels


def figure_named(name: str):
    return next(figure for figure in METRICS if figure.name == name)
from tests.support.run_folders import DEFAULT_PROFILES, SCRIPT_MODEL_ID, build_evaluated_data


def test_the_top_ranked_runs_best_first_with_the_partial_and_incomplete_ones_left_out(store, evaluated) -> None:
    view = matrix_view(store, DEFAULT_BENCHMARK, "indic", DEFAULT_MODELS)
    assert list(view.labels) == evaluated.ranked_models()  # three complete runs of five
    assert list(matrix_view(store, DEFAULT_BENCHMARK, "indic", 2).labels) == evaluated.ranked_models()[:2]


def test_each_cell_is_the_paired_comparison_of_its_two_runs(store, evaluated) -> None:
    view = matrix_view(store, DEFAULT_BENCHMARK, "indic", DEFAULT_MODELS)
    items = {model: read_run_items(evaluated.folders[model]).items for model in view.labels}
    counted = items[view.labels[0]]
    counted = counted[np.isfinite(counted["indic"])]
    design = item_design(counted["config"].tolist(), counted["cluster"].tolist(), view.figure.weighting)
    for row in range(len(view.labels)):
        for column in range(len(view.labels)):
            if row == column:
                continue
            a, b = (items[view.labels[i]].loc[counted.index, "indic"].to_numpy() for i in (row, column))
            cell, expected = view.cell(row, column), compare_paired(a, b, design)
            # The matrix draws for its widest pair, the pair alone for itself: the ends agree within both draws'
            # Monte-Carlo error (each under ENDPOINT_ERROR).
            assert cell.difference.estimate == pytest.approx(expected.difference.estimate)
            assert (cell.difference.low, cell.difference.high) == pytest.approx(
                (expected.difference.low, expected.difference.high), abs=4 * np.sqrt(2) * ENDPOINT_ERROR)
            assert dataclasses.replace(cell, difference=expected.difference) == expected
    pairs = list(view.matrix.comparisons)
    expected = holm_adjusted(np.array([view.matrix.comparisons[pair].p_value for pair in pairs]))
    assert [view.adjusted_p(*pair) for pair in pairs] == pytest.approx(list(expected))


def test_a_cell_is_coloured_only_when_it_holds_after_the_correction(store) -> None:
    view = matrix_view(store, DEFAULT_BENCHMARK, "indic", DEFAULT_MODELS)
    page = matrix_html(view)
    states = re.findall(r'data-significant="(\w+)"', page)
    size = len(view.labels)
    assert len(states) == size * (size - 1)
    expected = [("better" if view.cell(r, c).difference.estimate > 0 else "worse") if view.verdict(r, c).significant
                else "none" for r in range(size) for c in range(size) if r != c]
    assert states == expected
    assert "better" in states  # the best run beats the worst on these items, whatever the correction
    assert page.count("background:") == sum(state != "none" for state in states)
    assert CORRECTION in matrix_note(view)


def test_every_run_id_reaches_the_page_escaped(store) -> None:
    page = matrix_html(matrix_view(store, DEFAULT_BENCHMARK, "indic", DEFAULT_MODELS))
    assert SCRIPT_MODEL_ID not in page and "evil-org/&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_axes_carry_short_model_names_with_the_whole_id_on_hover(store) -> None:
    view = matrix_view(store, DEFAULT_BENCHMARK, "indic", DEFAULT_MODELS)
    page = matrix_html(view)
    assert view.short == tuple(short_labels([label for label in view.labels], ["main"] * len(view.labels)))
    for name, label in zip(view.short, view.labels):  # each name once as a column head, once as a row head
        head = f'title="{html.escape(label)}"><span class="pairwise-name" dir="auto">{html.escape(name)}</span>'
        assert page.count(head) == 2
    assert "<ol" not in page  # no numbered legend to look names up in


def test_a_matrix_on_one_cluster_colours_nothing_and_says_why() -> None:
    view = _one_item_view()
    page, note = matrix_html(view), matrix_note(view)
    assert set(re.findall(r'data-significant="(\w+)"', page)) == {"none"}
    assert "background:" not in page and "no verdict: rests on 1 cluster" in page
    assert "**No verdict**: the figure rests on 1 cluster" in note
    assert view.verdict(0, 1).adjusted_p is None


def _one_item_view() -> MatrixView:
    """Three runs on one shared item: 9, 6 and 3 points."""
    design = item_design(["Hindi"])
    matrix = pairwise_comparisons(np.array([[9.0], [6.0], [3.0]]), design)
    labels = ("acme/" + "a" * 95, "acme/" + "b" * 95, "acme/" + "c" * 95)
    return MatrixView(DEFAULT_BENCHMARK, figure_named("indic"), labels, matrix, "sha256:abc",
                      tuple(short_labels(labels, ["main"] * 3)))


def test_the_size_a_visitor_asks_for_is_bounded() -> None:
    assert [bounded_models(n) for n in (1, 7, 7.9, 10_000, "12", "many", None, float("inf"), float("nan"))] == [
        2, 7, 7, MAX_MODELS, 12, DEFAULT_MODELS, DEFAULT_MODELS, DEFAULT_MODELS, DEFAULT_MODELS]


def test_each_benchmark_offers_its_figures_headline_first() -> None:
    assert figure_choices(DEFAULT_BENCHMARK)[0] == ("Indic average", "indic")
    assert [name for _, name in figure_choices("indic_qa")] == ["judge", "exact", "overlap"]


def test_fewer_than_two_ranked_runs_draw_no_matrix(tmp_path) -> None:
    data = build_evaluated_data(tmp_path, DEFAULT_PROFILES[:1])
    assert matrix_view(ResultsStore(data.runs_dir), DEFAULT_BENCHMARK, "indic", DEFAULT_MODELS) is None

