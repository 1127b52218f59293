"""A row's score links carry its run's address once: the first whole, the others written against it."""

from __future__ import annotations

from leaderboard.cell_links import ROW_LINK, row_links

RUN = "?tab=judgments&model=org%2F" + "m" * 100 + "%2Fmain"


def test_links_extending_the_row_s_first_are_written_against_its_column() -> None:
    # the browser side, which makes them whole again, is tested in Chromium (test_ranking_first_browser)
    row = [None, None, RUN, None, RUN + "&language=Hindi", RUN]
    assert row_links(row) == [None, None, RUN, None, f"{ROW_LINK}2&language=Hindi", f"{ROW_LINK}2"]


def test_a_link_not_extending_the_first_stays_whole() -> None:
    other = "?tab=judgments&model=org%2Fother%2Fmain&language=Hindi"
    prefix_only = RUN + "x"  # shares the text but not a parameter boundary
    assert row_links([RUN, other, prefix_only]) == [RUN, other, prefix_only]


def test_a_row_without_links_is_left_as_it_is() -> None:
    assert row_links([None, "", None]) == [None, "", None]
    assert row_links([]) == []

