"""A benchmark tab's rankings (here QA's, `rankings_section.rankings_view`) and their controls' links
(`ranking_controls`): the rows the search and filters keep, the CSV of them, the note when none is, the partial
runs apart, score cells linked to their items (`scored_tab_parts.linked_table`), an empty table's headers."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from leaderboard.results import ResultsStore
from leaderboard.row_flags import FEW_ITEMS
from leaderboard.ranking_query import RankingQuery
from leaderboard.scored_tables import labels, ranking_frame, subset_breakdowns
from leaderboard.tabs.benchmark_tab import ranking_links
from leaderboard.tabs.ranking_controls import linked_values
from leaderboard.tabs.rankings_section import rankings_view
from leaderboard.tabs.scored_tab_parts import empty_table, linked_table
from tests.support.qa_runs import QA_PROFILES, QaData, QaProfile, build_qa_runs

CSV_NAME = "indic-qa-leaderboard.csv"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    qa: QaData = build_qa_runs(tmp_path_factory.mktemp("qa"))
    return ResultsStore(qa.runs_dir)


def view(store: ResultsStore, search: str, downloads: Path, hidden: tuple[str, ...] = ()):
    snapshot = store.snapshot()
    return rankings_view(snapshot, ranking_frame(snapshot.runs, INDIC_QA), INDIC_QA,
                         RankingQuery(search=search, hide_flags=hidden), downloads, "qa", CSV_NAME,
                         link=ranking_links(INDIC_QA))


def linked(query: str) -> list:
    """The values a link sets in QA's ranking controls, in their order (search, flags, per subset breakdown, column
    groups, sort, sizes, type, ranked only, licenses, open weights), then the filters' fold."""
    subsets = subset_breakdowns(INDIC_QA)
    return linked_values(query, "qa", INDIC_QA, subsets, [["Hindi", "Tamil"], ["History"]], ["language", "details"])


def column_of(update: dict, label: str, part: str = "data") -> list:
    """One column of a table update: its cells as data (`data`) or as they read (`display_value`)."""
    value = update["value"]
    rows = value["data"] if part == "data" else value["metadata"]["display_value"]
    return [row[value["headers"].index(label)] for row in rows]


def shown_models(update: dict) -> list[str]:
    return column_of(update, "Model")


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


def test_no_match_hides_the_table_says_so_and_keeps_the_csv_of_the_empty_view(store: ResultsStore,
                                                                              tmp_path: Path) -> None:
    rendered = view(store, "no-such-model", tmp_path)
    assert rendered.no_match["visible"] is True and rendered.table["visible"] is False
    assert rendered.download["visible"] is True and pd.read_csv(rendered.download["value"],
                                                                encoding="utf-8-sig").empty


def test_a_fresh_data_folder_is_no_search_miss(tmp_path: Path) -> None:
    empty = ResultsStore(tmp_path / "runs")
    rendered = view(empty, "acme", tmp_path)
    assert rendered.no_match["visible"] is False and rendered.download["visible"] is False


SKIP = {"__type__": "update"}


def test_a_link_fills_the_search_only_when_it_names_it() -> None:
    assert linked("?tab=qa&qa_q=acme%3Bweak")[0] == "acme;weak"
    assert linked("?tab=qa&q=acme") == [SKIP] * 13  # another tab's search is not this one: nothing is set


def test_a_link_restores_the_flags_hidden_known_codes_only_and_opens_the_filters() -> None:
    values = linked("?tab=qa&qa_hide_flags=few_items,bogus,cut_off")
    assert values[:2] == [SKIP, ["few_items", "cut_off"]] and values[-1] == {"__type__": "update", "open": True}
    assert linked("?tab=qa&qa_q=weak")[0] == "weak" and linked("?tab=qa&qa_q=weak")[-1] == SKIP  # above the fold


def test_a_link_sets_every_filter_within_its_bounds() -> None:
    values = linked("?qa_on_config=Tamil,Klingon&qa_on_domain=History&qa_groups=details,bogus&qa_sort=exact"
                    "&qa_min_b=1.5&qa_max_b=-3&qa_type=reasoning&qa_ranked_only=1&qa_license=apache-2.0,mit&qa_open=yes")
    assert values[2:12] == [["Tamil"], ["History"], ["details"], "exact", 1.5, None, "reasoning", True,
                            ["apache-2.0", "mit"], False]


def test_hiding_a_flag_leaves_out_its_rows_and_the_csv_follows(store: ResultsStore, tmp_path: Path) -> None:
    flags = ranking_frame(store.snapshot().runs, INDIC_QA)["flags"]
    assert set(flags) == {FEW_ITEMS.code}  # three questions per language: no interval means anything
    rendered = view(store, "", tmp_path, (FEW_ITEMS.code,))
    assert rendered.no_match["visible"] is True and rendered.table["visible"] is False
    assert view(store, "", tmp_path, ("cut_off", "nonsense")).table["visible"] is True  # no run has those
    kept = view(store, "", tmp_path)
    assert kept.download["value"] != view(store, "", tmp_path, ("cut_off",)).download["value"]  # a CSV per filter


def test_every_metric_cell_links_to_the_run_s_items_and_stays_a_number(store: ResultsStore, tmp_path: Path) -> None:
    rendered = view(store, "weak", tmp_path)
    ranking = ranking_frame(store.snapshot().runs, INDIC_QA)
    run_id = ranking.set_index("model").loc["acme/weak-1b", "run_id"]
    exact = column_of(rendered.table, "Exact substring %", "display_value")[0]
    headers = rendered.table["value"]["headers"]
    first = rendered.table["value"]["metadata"]["display_value"][0][headers.index(INDIC_QA.headline_metric().label + " %")]
    assert first.endswith(f"](?tab=qa&model={run_id.replace('/', '%2F')})")  # a bare link: no per-cell title (page size)
    # the row's address travels once, in its first score; the others open the same items through it
    assert exact == f"[55.6](#+{headers.index(INDIC_QA.headline_metric().label + ' %')})"
    assert column_of(rendered.table, "Exact substring %")[0] == 55.6  # sorted as a number
    assert column_of(rendered.table, "Items", "display_value") == ["9"]  # a count links nowhere
    badges = column_of(rendered.table, "Flags", "display_value")[0]
    assert badges.startswith(f"[{FEW_ITEMS.badge}](?tab=about ") and column_of(rendered.table, "95 % interval") == [
        "too few items"]
    datatypes = dict(zip(rendered.table["value"]["headers"], rendered.table["datatype"]))
    assert datatypes["Exact substring %"] == "markdown" and datatypes["Items"] == "number"


def test_a_linked_table_shows_no_run_id_and_reads_missing_numbers_as_blank() -> None:
    frame = pd.DataFrame({"model": ["m"], "score": [float("nan")], "run_id": ["m/main"]})
    update = linked_table(frame, {}, lambda row, column: f"?model={row['run_id']}")
    assert update["value"]["headers"] == ["model", "score"] and update["value"]["data"] == [["m", None]]
    assert update["value"]["metadata"]["display_value"] == [["m", ""]]


def test_unranked_runs_are_shown_under_the_ranked_ones_with_why(tmp_path: Path) -> None:
    limited = QaProfile("acme/limited-13b", QA_PROFILES[0].answer)
    data = build_qa_runs(tmp_path / "qa", (QA_PROFILES[0], limited), limits={limited.model_id: 1})
    store = ResultsStore(data.runs_dir)
    rendered = view(store, "", tmp_path)
    assert shown_models(rendered.table) == ["acme/strong-7b"] and column_of(rendered.table, "Rank") == [1]
    assert shown_models(rendered.unranked) == [limited.model_id] and rendered.unranked["visible"]
    assert column_of(rendered.unranked, "Why not ranked") == ["incomplete: 3 of 9 items"]
    exported = pd.read_csv(rendered.download["value"], encoding="utf-8-sig")
    assert list(exported["model"]) == ["acme/strong-7b", limited.model_id]  # the CSV holds both, with standing
    assert list(exported["standing"]) == ["ranked", "incomplete"]
    assert rendered.problems["visible"] is False


def test_an_empty_table_has_its_real_headers() -> None:
    table = empty_table(["rank", "model", "judge"], labels(INDIC_QA))
    assert list(table.columns) == ["Rank", "Model", "Judge accuracy %"] and table.empty
