"""A page address is read within its bounds and never raises: a bad part is dropped, the rest applies."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from leaderboard.page_link import (
    MAX_INDEX_DIGITS,
    MAX_LINK_CHARS,
    MAX_LINK_PARAMS,
    MAX_LIST_ITEMS,
    MAX_VALUE_CHARS,
    PageLink,
    bounded_index,
    bounded_number,
    read_link,
)

MODEL_ID = "ai4bharat-research-collective__" + "indic-gemma-instruct-long-context-" * 2 + "v2/main"
SHAHMUKHI = "سرائیکی وسیب"


def test_a_link_reads_as_its_parameters_last_value_winning() -> None:
    link = read_link("?" + urlencode({"tab": "judgments", "model": MODEL_ID, "q": f"{SHAHMUKHI};acme"}) + "&tab=qa")
    assert link == PageLink({"tab": "qa", "model": MODEL_ID, "q": f"{SHAHMUKHI};acme"})
    assert read_link("q=&tab=qa").has("q") is False  # blank asks nothing


@pytest.mark.parametrize("query", [None, 7, ["?tab=qa"], "", "?", "&&&", "=x", "%", "%zz=%ff", "?tab=%E0%A4"])
def test_anything_at_all_reads_without_raising(query: object) -> None:
    assert isinstance(read_link(query), PageLink)


def test_a_value_past_its_bound_is_dropped_and_the_rest_applies() -> None:
    link = read_link(f"?item=Tamil:{'9' * 5000}&q={'x' * (MAX_VALUE_CHARS + 1)}&tab=judgments&model={MODEL_ID}")
    assert link.values == {"tab": "judgments", "model": MODEL_ID}


def test_past_the_stated_bounds_nothing_more_is_read() -> None:
    many = "&".join(f"p{n}=v" for n in range(MAX_LINK_PARAMS + 10))
    assert len(read_link(many).values) == MAX_LINK_PARAMS
    cut = read_link("tab=qa&q=" + "x" * (MAX_LINK_CHARS - 12) + "&model=never-read")
    assert cut.values == {"tab": "qa"}  # the part cut short by the bound is not a shorter value
    listed = PageLink({"langs": ",".join(["Hindi", "Tamil", " ", "Hindi"] + ["Odia"] * (MAX_LIST_ITEMS * 100))})
    assert listed.listed("langs") == ("Hindi", "Tamil", "Odia")
    assert listed.listed("langs", allowed={"Tamil"}) == ("Tamil",)


@pytest.mark.parametrize("text, wanted", [("2.5", 2.5), ("0", 0.0), ("10", 10.0), ("-1", None), ("11", None),
                                          ("nan", None), ("inf", None), ("1e999", None), ("x", None), ("", None),
                                          ("9" * 5000, None), (None, None)])
def test_a_number_is_finite_and_within_its_range(text: str | None, wanted: float | None) -> None:
    assert bounded_number(text, 0.0, 10.0) == wanted


@pytest.mark.parametrize("text, wanted", [("0", 0), ("3", 3), ("9" * MAX_INDEX_DIGITS, int("9" * MAX_INDEX_DIGITS)),
                                          ("9" * (MAX_INDEX_DIGITS + 1), None), ("9" * 5000, None), ("-1", None),
                                          ("٣", None), ("3.0", None), ("", None)])
def test_an_index_is_a_short_run_of_ascii_digits(text: str, wanted: int | None) -> None:
    assert bounded_index(text) == wanted
