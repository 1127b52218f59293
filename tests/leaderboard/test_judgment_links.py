"""A link to one judgment: read from the page's address, checked against the runs on the board."""

from __future__ import annotations

import pytest

from leaderboard.judgment_links import JudgmentLink, item_key, parse_item_key, parse_link, resolve_link
from leaderboard.judgments import ItemFilter
from leaderboard.results import ResultsStore

STRONG = "acme__strong-7b/main"
REASONER = "acme__reasoner-3b/main"


def test_a_link_names_model_comparison_item_and_filters() -> None:
    link = parse_link(f"?tab=judgments&model={STRONG}&compare={REASONER}&item=Hindi:3&language=Hindi"
                      "&variant=native&score_min=2.5&score_max=9&unscored=0")
    assert link == JudgmentLink(STRONG, REASONER, ("Hindi", 3), ItemFilter(
        language="Hindi", variant="native", score_min=2.5, score_max=9.0, include_unscored=False))


def test_a_malformed_part_of_a_link_is_dropped_and_the_rest_applies() -> None:
    link = parse_link(f"?tab=judgments&model={STRONG}&item=Tamil:{'9' * 5000}&language=Tamil&score_min=1e999")
    assert link == JudgmentLink(STRONG, None, None, ItemFilter(language="Tamil"))


def test_an_address_without_the_tab_s_parameters_asks_nothing() -> None:
    assert parse_link("") == parse_link("?tab=leaderboard&q=acme") == JudgmentLink()


@pytest.mark.parametrize("query, wanted", [
    ("score_min=abc&score_max=nan", ItemFilter()),
    ("score_min=-1&score_max=11", ItemFilter()),
    ("score_min=8&score_max=2", ItemFilter()),  # an empty range would list nothing
    ("score_min=inf", ItemFilter()),
    ("language=All&unscored=1", ItemFilter()),
])
def test_malformed_filters_fall_back_to_the_defaults(query: str, wanted: ItemFilter) -> None:
    assert parse_link(query).filter == wanted


@pytest.mark.parametrize("text", ["", "Hindi", "Hindi:", ":3", "Hindi:-1", "Hindi:3.5", "Hindi:٣", "Hindi:x",
                                  "Tamil:" + "9" * 5000, "Tamil:" + "9" * 20, None, 3])
def test_a_malformed_item_is_no_item(text: str) -> None:
    assert parse_item_key(text) is None


def test_an_item_key_reads_back() -> None:
    assert parse_item_key(item_key("english_original", 12)) == ("english_original", 12)
    assert parse_item_key("a:b:7") == ("a:b", 7)  # the index is after the last separator


def test_a_link_to_runs_and_an_item_the_board_has_is_kept_whole(store: ResultsStore) -> None:
    link = JudgmentLink(STRONG, REASONER, ("Tamil", 2), ItemFilter(language="Tamil", score_min=1.0))
    assert resolve_link(store, link) == link


@pytest.mark.parametrize("model", [None, "", "nobody__nothing/main", "../../etc", "/advescape-test",
                                   "acme__strong-7b/../../..", "acme__strong-7b"])
def test_a_link_to_no_run_of_the_board_is_ignored(store: ResultsStore, model: str | None) -> None:
    assert resolve_link(store, JudgmentLink(model, REASONER, ("Hindi", 0))) is None


def test_what_the_run_does_not_hold_is_dropped_and_the_rest_applies(store: ResultsStore) -> None:
    link = JudgmentLink(STRONG, "../../etc", ("Hindi", 999), ItemFilter(language="Klingon", domain="<b>x</b>",
                                                                         score_max=8.0))
    assert resolve_link(store, link) == JudgmentLink(STRONG, None, None, ItemFilter(score_max=8.0))
    assert resolve_link(store, JudgmentLink(STRONG, STRONG)) == JudgmentLink(STRONG)  # not compared with itself
