"""The rankings' search of every scored benchmark's tab (here QA's): the rows kept, the CSV of them, the note when
none is, the partial runs apart, an empty table's headers."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import labels, ranking_frame, shown_ranking
from leaderboard.tabs.scored_tab_parts import empty_table, linked_search, rankings_view
from tests.support.qa_runs import QA_PROFILES, QaData, QaProfile, build_qa_runs

CSV_NAME = "indic-qa-leaderboard.csv"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    qa: QaData = build_qa_runs(tmp_path_factory.mktemp("qa"))
    return ResultsStore(qa.runs_dir)


def view(store: ResultsStore, search: str, downloads: Path):
    snapshot = store.snapshot()
    return rankings_view(snapshot, ranking_frame(snapshot.runs, INDIC_QA), lambda frame: shown_ranking(frame, INDIC_QA),
                         labels(INDIC_QA), search, downloads, "qa", CSV_NAME)


def shown_models(update: dict) -> list[str]:
    return list(update["value"]["Model"])


def test_a_blank_search_keeps_every_model_and_the_csv_holds_them(store: ResultsStore, tmp_path: Path) -> None:
    rendered = view(store, "", tmp_path)
    ranking = ranking_frame(store.snapshot().runs, INDIC_QA)
    assert shown_models(rendered.table) == list(ranking["model"]) and rendered.no_match["visible"] is False
    assert list(pd.read_csv(rendered.download["value"], encoding="utf-8-sig")["model"]) == list(ranking["model"])


def test_several_terms_keep_any_model_matching_one_and_the_csv_follows(store: ResultsStore, tmp_path: Path) -> None:
    rendered = view(store, " WEAK ; <script>", tmp_path)  # case-insensitive; a term is text, never markup
    assert set(shown_models(rendered.table)) == {"acme/weak-1b", "evil-org/<script>alert(1)</script>"}
    exported = pd.read_csv(rendered.download["value"], encoding="utf-8-sig")
    assert list(exported["model"]) == shown_models(rendered.table) and rendered.download["visible"] is True
    assert rendered.download["value"] != view(store, "", tmp_path).download["value"]  # never the full table's file


def test_no_match_hides_the_table_and_its_csv_and_says_so(store: ResultsStore, tmp_path: Path) -> None:
    rendered = view(store, "no-such-model", tmp_path)
    assert rendered.no_match["visible"] is True
    assert rendered.table["visible"] is False and rendered.download["visible"] is False


def test_a_fresh_data_folder_is_no_search_miss(tmp_path: Path) -> None:
    empty = ResultsStore(tmp_path / "runs")
    rendered = view(empty, "acme", tmp_path)
    assert rendered.no_match["visible"] is False and rendered.download["visible"] is False


def test_a_link_fills_the_search_only_when_it_names_it() -> None:
    assert linked_search("?tab=qa&qa_q=acme%3Bweak", "qa_q") == "acme;weak"
    assert linked_search("?tab=qa&q=acme", "qa_q") == {"__type__": "update"}  # the board's search is not this one


def test_unranked_runs_are_shown_under_the_ranked_ones_with_why(tmp_path: Path) -> None:
    limited = QaProfile("acme/limited-13b", QA_PROFILES[0].answer)
    data = build_qa_runs(tmp_path / "qa", (QA_PROFILES[0], limited), limits={limited.model_id: 1})
    store = ResultsStore(data.runs_dir)
    rendered = view(store, "", tmp_path)
    assert shown_models(rendered.table) == ["acme/strong-7b"] and list(rendered.table["value"]["Rank"]) == [1]
    assert list(rendered.unranked["value"]["Model"]) == [limited.model_id] and rendered.unranked["visible"]
    assert list(rendered.unranked["value"]["Why not ranked"]) == ["incomplete: 3 of 9 items"]
    exported = pd.read_csv(rendered.download["value"], encoding="utf-8-sig")
    assert list(exported["model"]) == ["acme/strong-7b", limited.model_id]  # the CSV holds both, with standing
    assert list(exported["standing"]) == ["ranked", "incomplete"]
    assert rendered.problems["visible"] is False


def test_an_empty_table_has_its_real_headers() -> None:
    table = empty_table(["rank", "model", "judge"], labels(INDIC_QA))
    assert list(table.columns) == ["Rank", "Model", "Judge accuracy %"] and table.empty
