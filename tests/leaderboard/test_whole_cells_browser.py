"""No table of the board cuts what a reader needs, in Chromium at 1440×900 and the same page narrowed to 390×844:
a flag badge, a rank range or a model id is drawn whole (wrapped where it must), never ended with an ellipsis or
clipped.

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
from tests.leaderboard.test_board_browser import open_tab, shot, width
from tests.leaderboard.test_browser import board_rows
from tests.support.apart import apart
from tests.support.app_server import AppServer, assert_no_traceback, running_app
from tests.support.browser_pages import LAPTOP, PHONE, new_page, resize
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
def page(app: AppServer, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, LAPTOP, app.url)
    expect(board_rows(opened).first).to_be_visible()
    yield opened
    opened.context.close()


def test_no_cell_of_the_ranking_or_the_overview_is_cut_and_every_sibling_id_keeps_its_end(page: Page) -> None:
    """The ranking at a laptop's width, then the same page narrowed to a phone's, then the overview at both: the
    cells' widths are CSS (@media rules), so what holds must hold however the page got its width."""
    texts = page.locator("#leaderboard-table").evaluate("g => g.innerText")
    assert "10–" in texts or "11–" in texts or "12–" in texts, "the data: a two-digit rank range"
    assert {len(model) for model in SIBLING_IDS} == {100}, "the data: 100-character ids"
    assert len({model[:-SUFFIX_CHARS] for model in SIBLING_IDS}) == 1, "the data: ids differ only at their end"
    for viewport in (LAPTOP, PHONE):
        resize(page, viewport)
        ranking_is_whole(page)
        sibling_ends_show(page)
    open_tab(page, "All benchmarks")
    for viewport in (PHONE, LAPTOP):
        resize(page, viewport)
        overview_is_whole(page)


def ranking_is_whole(page: Page) -> None:
    """No badge, rank range or other cell of the ranking is cut; the flagged rows show each of their badges."""
    at = f"at {width(page)} px"
    assert [(cut["column"], cut["text"]) for cut in cut_cells(page, "leaderboard-table")] == [], f"cut cells {at}"
    # The flagged runs rank last: the grid draws the rows in view (and a few more).
    page.locator("#leaderboard-table .virtual-table-viewport").evaluate("v => { v.scrollTop = v.scrollHeight; }")
    flags = page.locator("#leaderboard-table [role=gridcell] .md", has=page.locator(f'a:text-is("{OLD_DATASET.badge}")'))
    expect(flags, f"the row with an old dataset's badge {at}").to_have_count(1)
    assert [badge.strip() for badge in flags.locator("a").all_inner_texts()] == [
        CUT_OFF.badge, OTHER_JUDGE.badge, OLD_DATASET.badge], f"{THREE_FLAGS_ID}'s three badges, each whole, {at}"
    two = page.locator("#leaderboard-table [role=gridcell] .md", has=page.locator(f'a:text-is("{OTHER_JUDGE.badge}")'))
    expect(two, f"TWO_FLAGS_ID's and THREE_FLAGS_ID's rows {at}").to_have_count(2)
    shot(page, "whole-cells-ranking")


def sibling_ends_show(page: Page) -> None:
    """Every sibling id in the ranking shows the end that tells it apart."""
    shown = id_ends_shown(page, "leaderboard-table", SUFFIX_CHARS)
    at = f"at {width(page)} px"
    assert set(shown) == set(SIBLING_IDS), f"every run's id, linked with its whole id as title, {at}"
    assert [model for model, whole in shown.items() if not whole] == [], f"ids whose end is hidden {at}"


def overview_is_whole(page: Page) -> None:
    """No cell of the overview is cut, and its ids keep their end."""
    at = f"at {width(page)} px"
    expect(board_rows(page, "overview-table").first, f"the overview's rows {at}").to_be_visible()
    assert [(cut["column"], cut["text"]) for cut in cut_cells(page, "overview-table")] == [], f"cut cells {at}"
    shown = id_ends_shown(page, "overview-table", SUFFIX_CHARS)
    assert set(shown) == set(SIBLING_IDS) and all(shown.values()), f"the overview's id ends {at}: {shown}"
    shot(page, "whole-cells-overview")
