"""Any scored benchmark's figures: every percentage per model, the headline per group, model ids as text."""

from __future__ import annotations

import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from leaderboard.results import ResultsStore
from leaderboard.scored_figures import group_heatmap, metric_bars
from leaderboard.scored_tables import breakdown_frame, metric_matrix, ranking_frame
from tests.support.qa_runs import build_qa_runs


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    return ResultsStore(build_qa_runs(tmp_path_factory.mktemp("qa")).runs_dir)


def test_figures_escape_model_ids_and_draw_an_empty_state(store: ResultsStore) -> None:
    runs = store.snapshot().runs
    ranking = ranking_frame(runs, INDIC_QA)
    bars = metric_bars(ranking, INDIC_QA)
    labels = [label for trace in bars.data for label in trace.y]
    assert any("&lt;script&gt;" in label for label in labels) and not any("<script>" in label for label in labels)
    assert [trace.name for trace in bars.data] == ["Judge accuracy", "Exact substring", "Word overlap"]  # the % metrics
    language = INDIC_QA.board.breakdowns[0]
    matrix = metric_matrix(breakdown_frame(runs, INDIC_QA, language), INDIC_QA, language, list(ranking["model"]))
    heatmap = group_heatmap(matrix, "Judge accuracy %", language.label)
    assert not any("<script>" in label for label in heatmap.data[0].y)
    assert metric_bars(ranking_frame((), SARAIKI), SARAIKI).layout.annotations[0].text == "No Saraiki results yet."
    assert group_heatmap(matrix.iloc[0:0], "Knowledge", "Task").layout.annotations[0].text == "No figures per task yet."
