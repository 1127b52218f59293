"""A benchmark tab's board render (QA's, and Indic WritingBench's from its declarations): its rankings with their
filters, sort, column groups and CSV, and its plots, on the groups chosen (its item browser: test_item_browser)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.settings import Settings
from leaderboard.context import AppContext
from leaderboard.ranking_query import RankingQuery, last_updated
from leaderboard.results import LruCache, ResultsStore
from leaderboard.scored_tables import chosen_subset, subset_breakdowns
from leaderboard.page_link import MAX_VALUE_CHARS
from leaderboard.tabs.benchmark_tab import ranking_links, rankings_of
from leaderboard.tabs.ranking_controls import linked_values
from tests.support.qa_runs import build_qa_runs
from tests.support.run_folders import SCRIPT_MODEL_ID, EvaluatedData

SKIP = {"__type__": "update"}


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> AppContext:
    store = ResultsStore(build_qa_runs(tmp_path_factory.mktemp("qa")).runs_dir)
    downloads = tmp_path_factory.mktemp("downloads")
    return AppContext(Settings(), downloads, None, None, {INDIC_QA.name: store})


def test_the_rankings_rank_on_chosen_groups_of_any_breakdown(context: AppContext) -> None:
    from leaderboard.scored_tables import subset_breakdowns

    assert [breakdown.item_field for breakdown in subset_breakdowns(INDIC_QA)] == ["config", "domain"]
    runs = context.stores[INDIC_QA.name].snapshot().runs
    domain = str(pd.read_parquet(runs[0].folder.details_path)["domain"].value_counts().index[0])  # several items
    board = rankings_of(context, INDIC_QA, RankingQuery(ranked_on=((), (domain,))))
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
    standard = rankings_of(context, INDIC_QA)
    assert standard.rule["value"] == "" and "on the chosen groups" not in " ".join(standard.table["value"]["headers"])
    nowhere = rankings_of(context, INDIC_QA, RankingQuery(ranked_on=((), ("no such domain",))))
    assert nowhere.rule["value"].startswith("**Not ranked on the chosen groups**")
    assert nowhere.table["value"]["headers"] == standard.table["value"]["headers"]


def test_the_plots_follow_the_ranking_on_chosen_groups(context: AppContext) -> None:
    from leaderboard.scored_tables import ranking_of
    from leaderboard.tabs.benchmark_tab import render_figures

    snapshot = context.stores[INDIC_QA.name].snapshot()
    domain = str(pd.read_parquet(snapshot.runs[0].folder.details_path)["domain"].value_counts().index[0])
    standard = render_figures(context, INDIC_QA)[0]
    on_domain = render_figures(context, INDIC_QA, RankingQuery(ranked_on=((), (domain,))))[0]
    subset = ranking_of(snapshot, INDIC_QA, "", chosen_subset(INDIC_QA, [(), (domain,)]))
    drawn = [text for text in on_domain.data[0].hovertext][::-1]  # plotly draws the first row at the bottom
    assert [text.split("@")[0].strip() for text in drawn][:1] == [subset["model"].iloc[0].replace("<", "&lt;")
                                                                   .replace(">", "&gt;")]
    assert len(standard.data[0].y) == len(on_domain.data[0].y)


# Indic WritingBench's tab: the same tab, from its declarations, on runs judged by the real engine.

WB = BENCHMARKS[DEFAULT_BENCHMARK]


def wb_context(runs_dir: Path, downloads: Path) -> AppContext:
    store = ResultsStore(runs_dir)
    return AppContext(Settings(), downloads, None, None, {WB.name: store})


def shown_frame(update: dict) -> pd.DataFrame:
    """A rendered table as read on screen: each cell's display text (a linked score or model as its plain text)."""
    value = update["value"]
    frame = pd.DataFrame(value["metadata"]["display_value"], columns=value["headers"])
    unlinked = frame.map(lambda cell: re.sub(r"^\[(.*?)\]\(.*\)$", r"\1", cell))
    return unlinked.map(lambda cell: re.sub(r"\\(.)", r"\1", cell))  # markdown's escapes: the text as read


def wb_board(evaluated: EvaluatedData, tmp_path: Path, **query: object):
    return rankings_of(wb_context(evaluated.runs_dir, tmp_path), WB, RankingQuery(**query))


def test_a_fresh_data_folder_shows_how_to_add_results(tmp_path: Path) -> None:
    board = rankings_of(wb_context(tmp_path / "runs", tmp_path), WB)
    assert board.empty_state["visible"] is True and board.download["visible"] is False
    assert board.no_match["visible"] is False
    assert "python -m eval_backend judge" in WB.board.empty_state


def test_the_board_and_its_csv_show_the_same_rows_with_its_column_groups(evaluated: EvaluatedData,
                                                                         tmp_path: Path) -> None:
    board = wb_board(evaluated, tmp_path, search="acme", groups=("variant",))
    shown = shown_frame(board.table)
    exported = pd.read_csv(board.download["value"])
    assert list(shown["Model"]) == list(exported["model"]) == ["acme/strong-7b", "acme/reasoner-3b"]
    assert "native" in shown.columns and "Hindi" not in shown.columns and "Judge" not in shown.columns
    assert list(shown.columns[:5]) == ["Rank", "Model", "Indic average (score 1–10)", "Rank range (95 %)", "95 % interval"]
    strong = evaluated.summary("acme/strong-7b")
    assert shown["Indic average (score 1–10)"][0] == f"{strong['config_groups']['indic']:.2f}"  # a score: two decimals
    assert shown["native"][0] == f"{strong['variants']['native']:.2f}"
    assert board.empty_state["visible"] is False and board.problems["visible"] is False
    assert board.unranked["visible"] is False  # neither acme run is partial or incomplete
    default = shown_frame(wb_board(evaluated, tmp_path).table)
    assert {"Hindi", "native", "Judge"} <= set(default.columns)  # WritingBench's declared default groups


def test_unranked_runs_are_a_table_apart_saying_why(evaluated: EvaluatedData, tmp_path: Path) -> None:
    board = wb_board(evaluated, tmp_path)
    ranked, apart = shown_frame(board.table), shown_frame(board.unranked)
    assert list(ranked["Model"]) == evaluated.ranked_models() and list(ranked["Rank"]) == ["1", "2", "3"]
    assert board.unranked["visible"] is True and "Rank" not in apart.columns
    assert dict(zip(apart["Model"], apart["Why not ranked"])) == {
        "bharat/partial-1b": "partial: 2 of 4 configs", "flaky/judge-fails-2b": "incomplete: 21 of 24 items"}
    assert list(pd.read_csv(board.download["value"])["standing"]) == ["ranked"] * 3 + ["partial", "incomplete"]


def test_no_match_says_so_and_names_the_filter(evaluated: EvaluatedData, tmp_path: Path) -> None:
    board = wb_board(evaluated, tmp_path, search="no-such-model")
    assert board.no_match["visible"] is True
    assert board.table["visible"] is False and board.unranked["visible"] is False
    assert board.updated["value"].startswith("Last updated:")
    assert board.download["visible"] is True and pd.read_csv(board.download["value"]).empty  # the empty view's CSV
    assert "search: no\\-such\\-model" in board.filters_active["value"] and board.reset["visible"] is True


def test_ranking_on_chosen_languages_and_variants_reranks_on_their_items(evaluated: EvaluatedData,
                                                                        tmp_path: Path) -> None:
    fields = [breakdown.item_field for breakdown in subset_breakdowns(WB)]
    assert fields == ["config", "variant", "domain"]
    board = wb_board(evaluated, tmp_path, ranked_on=(("Hindi",), ("romanized",), ()))
    ranked = shown_frame(board.table)
    assert list(ranked.columns[2:5]) == ["Indic average on the chosen groups (score 1–10)", "Rank range (95 %)",
                                         "95 % interval"]
    assert "chosen groups (" in board.rule["value"] and "Hindi" in board.rule["value"]
    hindi_romanized = {model: evaluated.summary(model)["config_variants"]["Hindi"]["romanized"]
                       for model in evaluated.ranked_models()}
    exported = pd.read_csv(board.download["value"]).head(3)
    assert dict(zip(exported["model"], exported["subset"])) == pytest.approx(hindi_romanized)
    assert list(exported["subset"]) == sorted(exported["subset"], reverse=True)


def test_sorting_and_filters_shape_the_view_and_the_csv(evaluated: EvaluatedData, tmp_path: Path) -> None:
    board = wb_board(evaluated, tmp_path, sort_by="model", ranked_only=True)
    assert list(shown_frame(board.table)["Model"]) == sorted(evaluated.ranked_models())
    assert board.unranked["visible"] is False
    assert list(pd.read_csv(board.download["value"])["model"]) == sorted(evaluated.ranked_models())
    assert ("Hindi", "language.Hindi") in board.sort_by["choices"] and "value" not in board.sort_by
    by_hindi = wb_board(evaluated, tmp_path, sort_by="language.Hindi", ranked_only=True)
    hindi = [evaluated.summary(model)["configs"]["Hindi"] for model in shown_frame(by_hindi.table)["Model"]]
    assert hindi == sorted(hindi, reverse=True)  # best first
    reasoning = wb_board(evaluated, tmp_path, model_type="reasoning")
    assert list(pd.read_csv(reasoning.download["value"])["model"]) == ["acme/reasoner-3b"]
    sized = wb_board(evaluated, tmp_path, min_params_b=1, max_params_b=3.1)
    assert sorted(pd.read_csv(sized.download["value"])["model"]) == [
        "acme/reasoner-3b", "bharat/partial-1b", "flaky/judge-fails-2b"]
    assert "size: 1–3\\.1 B" in sized.filters_active["value"]


def test_the_license_and_open_weights_filters_shape_the_view_and_the_csv(evaluated: EvaluatedData,
                                                                        tmp_path: Path) -> None:
    board = wb_board(evaluated, tmp_path, licenses=("other:acme-research", "unknown"), groups=("metadata",))
    assert board.licenses["choices"] == ["apache-2.0", "mit", "other:acme-research", "unknown"]
    assert "value" not in board.licenses  # a render lists the licenses, never undoes a choice
    assert list(pd.read_csv(board.download["value"])["model"]) == [
        "acme/reasoner-3b", SCRIPT_MODEL_ID, "flaky/judge-fails-2b"]
    assert list(shown_frame(board.table)["License"]) == ["other:acme-research", "unknown"]
    opened = wb_board(evaluated, tmp_path, open_weights_only=True)
    assert list(shown_frame(opened.table)["Model"]) == ["acme/strong-7b"]
    assert list(shown_frame(opened.unranked)["Model"]) == ["bharat/partial-1b"]
    nothing = wb_board(evaluated, tmp_path, licenses=("gpl-3.0",))
    assert nothing.no_match["visible"] is True and "unknown" in nothing.licenses["choices"]


def test_a_crowd_is_served_one_prerendered_view(evaluated: EvaluatedData, tmp_path: Path) -> None:
    context, renders = wb_context(evaluated.runs_dir, tmp_path), LruCache(8)
    first = rankings_of(context, WB, RankingQuery(), renders=renders)
    again = rankings_of(context, WB, RankingQuery(), renders=renders)
    assert again.table is first.table  # the same object: nothing computed per viewer


def test_a_former_link_of_the_writing_bench_board_sets_the_same_controls() -> None:
    values = linked_values("?q=acme&langs=Hindi,Klingon&variants=romanized&sort=language.Hindi&min_b=1&max_b=x"
                           "&type=reasoning&ranked_only=1&license=mit&open=1&hide_flags=cut_off", "leaderboard", WB,
                           subset_breakdowns(WB), [["Hindi", "Tamil"], ["native", "romanized"], []],
                           ["language", "variant", "details"])
    assert values[:5] == ["acme", ["cut_off"], ["Hindi"], ["romanized"], SKIP]
    assert values[6:13] == ["language.Hindi", 1.0, None, "reasoning", True, ["mit"], True]  # a bad bound: none
    assert values[-1] == {"__type__": "update", "open": True}


def test_last_updated_names_the_newest_result() -> None:
    frame = pd.DataFrame({"created_at": ["2026-01-02T03:04:05+00:00", "2026-03-01T10:00:00+00:00", None]})
    assert last_updated(frame) == "Last updated: 2026-03-01 10:00 UTC (3 runs)"


def test_a_breakdown_column_links_to_its_group_s_items_unless_the_run_id_cannot_travel() -> None:
    link = ranking_links(WB)
    assert link({"run_id": "acme__strong-7b/main"}, "language.Hindi") == (
        "?tab=leaderboard&model=acme__strong-7b%2Fmain&config=Hindi")
    assert link({"run_id": "acme__strong-7b/main"}, "variant.native").endswith("&variant=native")
    assert link({"run_id": "a" * (MAX_VALUE_CHARS + 1)}, "language.Hindi") is None  # the link would be dropped
