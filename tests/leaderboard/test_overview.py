"""The landing view: each model's headline per benchmark side by side, never averaged together."""

from __future__ import annotations

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from leaderboard.overview import headline_column, overview_frame
from leaderboard.results import ResultsStore
from leaderboard.scored_rankings import split_standing
from leaderboard.scored_tables import ranking_frame
from tests.support.qa_runs import QA_PROFILES, QaData, build_qa_runs
from tests.support.run_folders import EvaluatedData


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QaData:
    return build_qa_runs(tmp_path_factory.mktemp("qa"))


def test_each_benchmark_has_its_own_labelled_column_and_no_average(evaluated: EvaluatedData, qa: QaData) -> None:
    wb_runs = ResultsStore(evaluated.runs_dir).snapshot().runs
    qa_runs = ResultsStore(qa.runs_dir).snapshot().runs
    frame = overview_frame({INDIC_WRITING_BENCH.name: wb_runs, INDIC_QA.name: qa_runs})
    wb, qa_column = headline_column(INDIC_WRITING_BENCH), headline_column(INDIC_QA)
    assert list(frame.columns) == ["model", "revision", wb, qa_column]
    assert wb == "Indic WritingBench v1: Indic average (score 1–10)" and qa_column == "Indic QA: Judge accuracy (%)"

    rows = frame.set_index("model")
    # WritingBench's headline is the ranking's: the Indic average of ranked runs only; a partial
    # or incomplete run stays blank here, as its own tab lists it apart.
    ranking = ranking_frame(wb_runs, INDIC_WRITING_BENCH)  # as WritingBench's tab ranks its runs
    ranked, unranked = (set(rows["model"]) for rows in split_standing(ranking))
    assert ranked and unranked
    tab = ranking.set_index("model")["indic"]
    for model in ranked:
        assert rows.loc[model, wb] == pytest.approx(evaluated.summary(model)["config_groups"]["indic"])
        assert rows.loc[model, wb] == pytest.approx(tab[model])  # the tab's figure
    assert all(pd.isna(rows.loc[model, wb]) for model in unranked if model in rows.index)
    # A model evaluated on both shows both numbers, each from its own summary.
    strong = rows.loc["acme/strong-7b"]
    assert "acme/strong-7b" in ranked
    assert strong[qa_column] == 100.0
    # A model evaluated on one benchmark only is blank on the other, never zero.
    assert pd.isna(rows.loc["acme/weak-1b", wb]) and rows.loc["acme/weak-1b", qa_column] == 0.0
    only_wb = set(evaluated.folders) - {profile.model_id for profile in QA_PROFILES}
    assert all(pd.isna(rows.loc[model, qa_column]) for model in only_wb & ranked)
    # A model with nothing to show on any benchmark has no row.
    assert not (only_wb - ranked) & set(rows.index)
    # Ordered by the first benchmark's headline, best first, models without it last.
    scored = frame[frame[wb].notna()][wb].tolist()
    assert scored == sorted(scored, reverse=True) and frame[wb].isna().tolist()[-1]


def test_no_runs_is_an_empty_table_with_the_columns() -> None:
    frame = overview_frame({INDIC_WRITING_BENCH.name: (), INDIC_QA.name: ()})
    assert frame.empty and len(frame.columns) == 4


def test_an_unranked_run_of_any_benchmark_is_blank(tmp_path_factory: pytest.TempPathFactory) -> None:
    limited = build_qa_runs(tmp_path_factory.mktemp("qa-limited"), QA_PROFILES[:2], limits={QA_PROFILES[1].model_id: 1})
    runs = ResultsStore(limited.runs_dir).snapshot().runs
    frame = overview_frame({INDIC_QA.name: runs}).set_index("model")
    column = headline_column(INDIC_QA)
    assert frame.loc[QA_PROFILES[0].model_id, column] == 100.0
    # The --limit run's accuracy is taken from one question a language: its tab lists it apart; here it is blank.
    assert QA_PROFILES[1].model_id not in frame.index or pd.isna(frame.loc[QA_PROFILES[1].model_id, column])
