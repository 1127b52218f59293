"""No table of the board cuts what a reader needs, in Chromium at 1440×900 and 390×844: a flag badge, a rank range
or a model id is drawn whole (wrapped where it must), never ended with an ellipsis or clipped.

The board (`reading_runs`) holds thirteen 100-character ids that differ only in their last three characters,
rank ranges of two digits, and rows with two and three flags. Every cell of the WritingBench ranking and of
the overview is read from the DOM while the grid is scrolled through (`cut_cells`). Screenshots land in
test-artifacts/.
"""

from __future__ import annotations

from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from leaderboard.row_flags import CUT_OFF, OLD_DATASET, OTHER_JUDGE
from tests.leaderboard.test_board_browser import open_tab, shot
from tests.leaderboard.test_browser import board_rows
from tests.support.apart import apart
from tests.support.app_server import AppServer, assert_no_traceback, running_app
from tests.support.browser_pages import both_widths, new_page, width_of
from tests.support.cut_cells import cut_cells, id_ends_shown
from tests.support.reading_runs import SIBLING_IDS, THREE_FLAGS_ID, build_reading_data

SUFFIX_CHARS = 3
"""What tells the siblings apart: `v01` … `v13`."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    data = apart(build_reading_data, tmp_path_factory.mktemp("reading"))
    log = data.data_dir.parent / "app.log"
    with running_app(data.data_dir, log) as server:
        yield server
    assert_no_traceback(log)


@pytest.fixture
def page(request: pytest.FixtureRequest, app: AppServer, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, width_of(request), app.url)
    expect(board_rows(opened).first).to_be_visible()
    yield opened
    opened.context.close()


def test_the_board_has_what_a_narrow_column_would_cut(page: Page) -> None:
    """The data this module reads: flagged rows and two-digit rank ranges (else a cut could go unseen)."""
    texts = page.locator("#leaderboard-table").evaluate("g => g.innerText")
    assert "10–" in texts or "11–" in texts or "12–" in texts, "a two-digit rank range"
    assert {len(model) for model in SIBLING_IDS} == {100}
    assert len({model[:-SUFFIX_CHARS] for model in SIBLING_IDS}) == 1, "ids differ only at their end"


@both_widths
def test_no_badge_rank_range_or_other_cell_of_the_ranking_is_cut(page: Page) -> None:
    assert [(cut["column"], cut["text"]) for cut in cut_cells(page, "leaderboard-table")] == []
    # The flagged runs rank last: the grid draws the rows in view (and a few more).
    page.locator("#leaderboard-table .virtual-table-viewport").evaluate("v => { v.scrollTop = v.scrollHeight; }")
    flags = page.locator("#leaderboard-table [role=gridcell] .md", has=page.locator(f'a:text-is("{OLD_DATASET.badge}")'))
    expect(flags).to_have_count(1)
    assert [badge.strip() for badge in flags.locator("a").all_inner_texts()] == [
        CUT_OFF.badge, OTHER_JUDGE.badge, OLD_DATASET.badge], f"{THREE_FLAGS_ID}'s three badges, each whole"
    two = page.locator("#leaderboard-table [role=gridcell] .md", has=page.locator(f'a:text-is("{OTHER_JUDGE.badge}")'))
    expect(two).to_have_count(2)  # TWO_FLAGS_ID's and THREE_FLAGS_ID's
    shot(page, "whole-cells-ranking")


@both_widths
def test_every_sibling_id_shows_the_end_that_tells_it_apart(page: Page) -> None:
    shown = id_ends_shown(page, "leaderboard-table", SUFFIX_CHARS)
    assert set(shown) == set(SIBLING_IDS), "every run's id, linked with its whole id as title"
    assert [model for model, whole in shown.items() if not whole] == []


@both_widths
def test_no_cell_of_the_overview_is_cut_and_its_ids_keep_their_end(page: Page) -> None:
    open_tab(page, "All benchmarks")
    expect(board_rows(page, "overview-table").first).to_be_visible()
    assert [(cut["column"], cut["text"]) for cut in cut_cells(page, "overview-table")] == []
    shown = id_ends_shown(page, "overview-table", SUFFIX_CHARS)
    assert set(shown) == set(SIBLING_IDS) and all(shown.values()), shown
    shot(page, "whole-cells-overview")
