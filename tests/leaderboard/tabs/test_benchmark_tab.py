"""A benchmark tab's board render: its rankings and plots on the groups chosen (its item browser: test_item_browser)."""

from __future__ import annotations

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.settings import Settings
from leaderboard.context import AppContext
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import chosen_subset
from leaderboard.tabs.benchmark_tab import render_board
from tests.support.qa_runs import build_qa_runs


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> AppContext:
    store = ResultsStore(build_qa_runs(tmp_path_factory.mktemp("qa")).runs_dir)
    downloads = tmp_path_factory.mktemp("downloads")
    return AppContext(Settings(), store, downloads, None, None, {INDIC_QA.name: store})


def test_the_rankings_rank_on_chosen_groups_of_any_breakdown(context: AppContext) -> None:
    from leaderboard.scored_tables import subset_breakdowns

    assert [breakdown.item_field for breakdown in subset_breakdowns(INDIC_QA)] == ["config", "domain"]
    runs = context.stores[INDIC_QA.name].snapshot().runs
    domain = str(pd.read_parquet(runs[0].folder.details_path)["domain"].value_counts().index[0])  # several items
    board = render_board(context, INDIC_QA, INDIC_QA.board.breakdowns[0], ranked_on=[(), (domain,)])
    table = board.table["value"]
    assert table["headers"][:5] == ["Rank", "Model", "Judge accuracy on the chosen groups %", "Rank range (95 %)",
                                    "95 % interval"]
    assert f"on the chosen groups ({domain}) alone" in board.rule["value"]
    own = {}
    for run in runs:
        details = pd.read_parquet(run.folder.details_path)
        own[run.model] = 100.0 * details.loc[details["domain"] == domain, "judge_correct"].astype(float).mean()
    shown = [(row[1], row[2]) for row in table["data"]]
    assert [value for _, value in shown] == sorted((value for _, value in shown), reverse=True)
    for model_cell, value in shown:
        model = next(model for model in own if model in str(model_cell) or str(model_cell) in model)
        assert value == pytest.approx(own[model], abs=0.05)
    standard = render_board(context, INDIC_QA, INDIC_QA.board.breakdowns[0])
    assert standard.rule["value"] == "" and "on the chosen groups" not in " ".join(standard.table["value"]["headers"])
    nowhere = render_board(context, INDIC_QA, INDIC_QA.board.breakdowns[0], ranked_on=[(), ("no such domain",)])
    assert nowhere.rule["value"].startswith("**Not ranked on the chosen groups**")
    assert nowhere.table["value"]["headers"] == standard.table["value"]["headers"]


def test_the_plots_follow_the_ranking_on_chosen_groups(context: AppContext) -> None:
    from leaderboard.scored_tables import ranking_of
    from leaderboard.tabs.benchmark_tab import render_figures

    snapshot = context.stores[INDIC_QA.name].snapshot()
    domain = str(pd.read_parquet(snapshot.runs[0].folder.details_path)["domain"].value_counts().index[0])
    standard = render_figures(context, INDIC_QA)[0]
    on_domain = render_figures(context, INDIC_QA, ranked_on=[(), (domain,)])[0]
    subset = ranking_of(snapshot, INDIC_QA, "", chosen_subset(INDIC_QA, [(), (domain,)]))
    drawn = [text for text in on_domain.data[0].hovertext][::-1]  # plotly draws the first row at the bottom
    assert [text.split("@")[0].strip() for text in drawn][:1] == [subset["model"].iloc[0].replace("<", "&lt;")
                                                                   .replace(">", "&gt;")]
    assert len(standard.data[0].y) == len(on_domain.data[0].y)
