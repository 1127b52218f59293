"""The board's render: the empty state on a fresh data folder, the view and its CSV otherwise; filters,
re-ranking on chosen languages, sorting and shared links, each followed by the CSV."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import re

from leaderboard.page_link import PageLink
from leaderboard.results import LruCache, ResultsStore
from leaderboard.writing_bench_tables import RANKING_RULE, BoardQuery, TableCache
from leaderboard.tabs.leaderboard_tab import EMPTY_STATE, last_updated, link_query, render_board, restore_from_link
from tests.support.run_folders import SCRIPT_MODEL_ID, EvaluatedData


def shown_frame(update: dict) -> pd.DataFrame:
    """A rendered table as read on screen: each cell's display text (a linked model or score as its plain text)."""
    value = update["value"]
    frame = pd.DataFrame(value["data"], columns=value["headers"])
    unlinked = frame.map(lambda cell: re.sub(r"^\[(.*)\]\(.*\)$", r"\1", cell))
    return unlinked.map(lambda cell: re.sub(r"\\(.)", r"\1", cell))


def test_a_fresh_data_folder_shows_how_to_add_results(tmp_path: Path) -> None:
    board = render_board(ResultsStore(tmp_path / "runs"), TableCache(), tmp_path / "downloads", ["languages"], "")
    assert board.empty_state["visible"] is True
    assert board.download["visible"] is False
    assert "python -m eval_backend judge" in EMPTY_STATE


def test_the_board_and_its_csv_show_the_same_rows(evaluated: EvaluatedData, tmp_path: Path) -> None:
    board = render_board(ResultsStore(evaluated.runs_dir), TableCache(), tmp_path, ["variants"], "acme")
    shown = shown_frame(board.table)
    exported = pd.read_csv(board.download["value"])
    assert list(shown["Model"]) == list(exported["model"]) == ["acme/strong-7b", "acme/reasoner-3b"]
    assert "native" in shown.columns and "Hindi" not in shown.columns
    assert board.empty_state["visible"] is False and board.problems["visible"] is False
    assert board.unranked["visible"] is False  # neither acme run is partial or incomplete


def test_unranked_runs_are_a_table_apart_saying_why(evaluated: EvaluatedData, tmp_path: Path) -> None:
    board = render_board(ResultsStore(evaluated.runs_dir), TableCache(), tmp_path, ["languages"], "")
    ranked, apart = shown_frame(board.table), shown_frame(board.unranked)
    assert list(ranked["Model"]) == evaluated.ranked_models() and list(ranked["Rank"]) == ["1", "2", "3"]
    assert board.unranked["visible"] is True and "Rank" not in apart.columns
    notes = dict(zip(apart["Model"], apart["Why not ranked"]))
    assert notes == {
        "bharat/partial-1b": "partial: 2 of 4 configs",
        "flaky/judge-fails-2b": "incomplete: 21 of 24 items",
    }
    exported = pd.read_csv(board.download["value"])
    assert list(exported["standing"]) == ["ranked"] * 3 + ["partial", "incomplete"]


def test_the_ranking_rule_is_stated_in_one_sentence() -> None:
    assert RANKING_RULE.count(". ") == 0 and "Indic average" in RANKING_RULE and "complete runs only" in RANKING_RULE


def test_no_match_says_so_instead_of_an_empty_grid(evaluated: EvaluatedData, tmp_path: Path) -> None:
    board = render_board(ResultsStore(evaluated.runs_dir), TableCache(), tmp_path, ["languages"], "no-such-model")
    assert board.no_match["visible"] is True
    assert board.table["visible"] is False and board.unranked["visible"] is False
    # "Last updated" and the download (of the empty view: headers, no rows) stay, and the filter is named
    assert board.updated["value"].startswith("Last updated:") and board.download["visible"] is True
    assert pd.read_csv(board.download["value"]).empty
    assert "search: no\\-such\\-model" in board.filters_active["value"] and board.reset["visible"] is True


def test_ranking_on_chosen_languages_reranks_and_the_csv_follows(evaluated: EvaluatedData, tmp_path: Path) -> None:
    store, tables = ResultsStore(evaluated.runs_dir), TableCache()
    table = tables.table(store.snapshot())
    languages = [column.split(".", 1)[1] for column in table.columns if column.startswith("config.")][:1]
    board = render_board(store, tables, tmp_path, ["languages"], BoardQuery(languages=tuple(languages)))
    ranked = shown_frame(board.table)
    ranked_table = table[table["standing"] == "ranked"]
    expected = ranked_table.sort_values(f"config.{languages[0]}", ascending=False, kind="stable")["model"]
    assert list(ranked["Model"]) == list(expected)
    assert ranked.columns[2] == "Chosen subset average (1–10)" and "Rank range" not in ranked.columns
    exported = pd.read_csv(board.download["value"])
    assert list(exported["model"])[:3] == list(expected)
    assert exported["subset_average"].tolist()[:3] == pytest.approx(list(ranked_table[f"config.{languages[0]}"]
                                                                           .sort_values(ascending=False)))


def test_sorting_and_filters_shape_the_view_and_the_csv(evaluated: EvaluatedData, tmp_path: Path) -> None:
    store = ResultsStore(evaluated.runs_dir)
    board = render_board(store, TableCache(), tmp_path, ["languages"], BoardQuery(sort_by="model", hide_unranked=True))
    ranked = shown_frame(board.table)
    assert list(ranked["Model"]) == sorted(evaluated.ranked_models())
    assert board.unranked["visible"] is False
    assert list(pd.read_csv(board.download["value"])["model"]) == sorted(evaluated.ranked_models())
    assert ("Hindi", "config.Hindi") in board.sort_by["choices"]
    reasoning = render_board(store, TableCache(), tmp_path, ["languages"], BoardQuery(model_type="reasoning"))
    assert list(pd.read_csv(reasoning.download["value"])["model"]) == ["acme/reasoner-3b"]
    sized = render_board(store, TableCache(), tmp_path, ["details"], BoardQuery(min_params_b=1, max_params_b=3.1))
    assert sorted(pd.read_csv(sized.download["value"])["model"]) == [
        "acme/reasoner-3b", "bharat/partial-1b", "flaky/judge-fails-2b"]


def test_the_license_and_open_weights_filters_shape_the_view_and_the_csv(
    evaluated: EvaluatedData, tmp_path: Path
) -> None:
    store = ResultsStore(evaluated.runs_dir)
    chosen = BoardQuery(licenses=("other:acme-research", "unknown"))
    board = render_board(store, TableCache(), tmp_path, ["metadata"], chosen)
    assert board.licenses["choices"] == ["apache-2.0", "mit", "other:acme-research", "unknown"]
    assert "value" not in board.licenses  # a render lists the licenses, never undoes a choice
    exported = pd.read_csv(board.download["value"])
    assert list(exported["model"]) == ["acme/reasoner-3b", SCRIPT_MODEL_ID, "flaky/judge-fails-2b"]
    assert list(shown_frame(board.table)["License"]) == ["other:acme-research", "unknown"]
    opened = render_board(store, TableCache(), tmp_path, ["metadata"], BoardQuery(open_weights_only=True))
    assert list(shown_frame(opened.table)["Model"]) == ["acme/strong-7b"]
    assert list(shown_frame(opened.unranked)["Model"]) == ["bharat/partial-1b"]
    assert list(pd.read_csv(opened.download["value"])["open_weights"]) == [True, True]
    nothing = render_board(store, TableCache(), tmp_path, ["metadata"], BoardQuery(licenses=("gpl-3.0",)))
    assert nothing.no_match["visible"] is True and "unknown" in nothing.licenses["choices"]


def test_ranking_on_chosen_variants_reranks_and_the_csv_follows(evaluated: EvaluatedData, tmp_path: Path) -> None:
    store, tables = ResultsStore(evaluated.runs_dir), TableCache()
    chosen = BoardQuery(languages=("Hindi",), variants=("romanized",))
    board = render_board(store, tables, tmp_path, ["variants"], chosen)
    ranked = shown_frame(board.table)
    # The subset's own rank range and interval (joint bootstrap on its items: test_subset_ranks), and a footnote
    # saying what is ranked
    assert list(ranked.columns[2:5]) == ["Chosen subset average (1–10)", "Rank range", "Subset 95% CI"]
    assert "chosen subset (Hindi; romanized)" in board.rule["value"]
    hindi_romanized = {model: evaluated.summary(model)["config_variants"]["Hindi"]["romanized"]
                       for model in evaluated.ranked_models()}
    exported = pd.read_csv(board.download["value"]).head(3)
    assert dict(zip(exported["model"], exported["subset_average"])) == pytest.approx(hindi_romanized)
    assert list(ranked["Chosen subset average (1–10)"]) == [f"{value:.2f}" for value in exported["subset_average"]]


def test_a_crowd_is_served_one_prerendered_view(evaluated: EvaluatedData, tmp_path: Path) -> None:
    store, tables, renders = ResultsStore(evaluated.runs_dir), TableCache(), LruCache(8)
    first = render_board(store, tables, tmp_path, ["languages"], BoardQuery(), renders)
    again = render_board(store, tables, tmp_path, ["languages"], BoardQuery(), renders)
    assert again.table["value"] is first.table["value"]  # the same object: nothing computed per viewer


def test_a_shared_link_s_parameters_become_the_query() -> None:
    query = link_query(PageLink({"q": "acme", "langs": "Hindi,Klingon", "sort": "config.Hindi", "min_b": "1",
                                 "max_b": "x", "type": "reasoning", "ranked_only": "1"}))
    assert query == BoardQuery(search="acme", min_params_b=1.0, max_params_b=None, model_type="reasoning",
                               hide_unranked=True, languages=("Hindi",), sort_by="config.Hindi")
    assert link_query(PageLink({"type": "<script>"})).model_type == "all"
    assert link_query(PageLink({"min_b": "1e999", "max_b": "-3"})) == BoardQuery(sort_by="rank")


def test_a_shared_link_s_license_open_weights_and_variants_become_the_query() -> None:
    query = link_query(PageLink({"license": "mit,other:acme-research,mit", "open": "1",
                                 "variants": "romanized,Klingon,native"}))
    assert (query.licenses, query.open_weights_only, query.variants) == (
        ("mit", "other:acme-research"), True, ("native", "romanized"))  # variants in the benchmark's order
    assert link_query(PageLink({"variants": "native,code_mixed,romanized"})).variants == ()  # all of them: the standard ranking
    assert link_query(PageLink({"open": "yes"})).open_weights_only is False
    controls = restore_from_link("?license=mit&open=1&variants=romanized&langs=Hindi")
    assert controls[-5:-2] == [["mit"], True, ["romanized"]] and controls[2] == ["Hindi"]
    assert controls[-1]["open"] is True  # a filter inside the accordion: it opens, so the filter is seen


def test_last_updated_names_the_newest_result() -> None:
    frame = pd.DataFrame({"created_at": ["2026-01-02T03:04:05+00:00", "2026-03-01T10:00:00+00:00", None]})
    assert last_updated(frame) == "Last updated: 2026-03-01 10:00 UTC (3 runs)"
