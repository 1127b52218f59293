"""Every scored benchmark's tab flags its rows, hides flagged rows on demand, links every score to its items and
shows the decoding mode, in Chromium at 1440×900 (the same page then narrowed to 390×844 where the badges' layout
is checked).

The board is the test-only toy benchmark's (`flagged_toy_runs`: the real engine's CLI against stand-in servers),
with 100-character ids and Hindi (Devanagari) and Saraiki (Shahmukhi) sentences, served by `app.py` with the toy
in the registry: the tab is the generic one QA and Saraiki get. Screenshots land in test-artifacts/.
"""

from __future__ import annotations

from typing import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Browser, Page, expect

from leaderboard.row_flags import CUT_OFF, FEW_ITEMS, FEW_ITEMS_INTERVAL, FLAGS, OLD_DATASET, OTHER_JUDGE
from tests.leaderboard.test_board_browser import open_tab, shot
from tests.leaderboard.test_browser import UI_TIMEOUT_MS, board_rows, cells, headers, linked_href
from tests.leaderboard.test_benchmark_tab_browser import opened
from tests.leaderboard.test_readable_browser import misaligned
from tests.support.apart import apart
from tests.support.app_server import AppServer, assert_no_traceback, running_app
from tests.support.browser_pages import LAPTOP, PHONE, open_breakdowns, open_filters, resize
from tests.support.cut_cells import cut_cells
from tests.support.flagged_toy_runs import (
    CLEAN_ID,
    CUT_OFF_ID,
    FEW_ITEMS_ID,
    OLD_DATASET_ID,
    OTHER_JUDGE_ID,
    PRE_MODE_ID,
    ROWS,
    FlaggedToy,
    build_flagged_toy,
)

TAB = "toy_translation"
TOY_APP = ("-m", "tests.support.toy_app")
RANKED = 6
LINK_TIMEOUT_MS = 30_000
"""A link's view comes from the server: on a machine shared by many test runs it can take a while."""


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> FlaggedToy:
    return apart(build_flagged_toy, tmp_path_factory.mktemp("flagged-toy-board"))


@pytest.fixture(scope="module")
def app(board: FlaggedToy) -> Iterator[AppServer]:
    log = board.data_dir.parent / "app.log"
    with running_app(board.data_dir, log, script=TOY_APP, TOY_DATASET=str(board.dataset_dir)) as server:
        yield server
    assert_no_traceback(log)  # no link or filter raised on the server


@pytest.fixture
def page(app: AppServer, browser: Browser) -> Iterator[Page]:
    page = opened(browser, app.url, LAPTOP)
    open_tab(page, "Toy translation")
    expect(board_rows(page, f"{TAB}-table")).to_have_count(RANKED)
    yield page
    page.context.close()


def column(page: Page, label: str, table: str = f"{TAB}-table") -> dict[str, str]:
    """Each row's cell under `label`, by the row's model."""
    names = headers(page, table)
    return {row[names.index("Model")]: row[names.index(label)] for row in cells(board_rows(page, table))}


def address(page: Page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def follow(page: Page, link) -> Page:
    """The page a score cell's link opens (Gradio opens a cell's link in a new tab: the board stays)."""
    with page.context.expect_page(timeout=LINK_TIMEOUT_MS) as new:
        link.click()
    items = new.value
    items.set_default_timeout(UI_TIMEOUT_MS)
    items.wait_for_load_state()
    return items


BADGES = "each flag is a badge explained on hover linking to About, and the mode column shows each run's mode"
ABOUT = "a badge opens About, which explains each flag for every benchmark"
BREAKDOWN = "a breakdown cell opens exactly its items, and the position counts in that list"
SCORE = "a ranking score opens every item of its run"


def test_flags_and_modes_read_right_at_both_widths_and_each_badge_and_score_opens_its_view(page: Page) -> None:
    """One laptop page: its flags and modes, then the views a badge, a ranking score and a breakdown cell open (each
    in a tab of its own: the board stays as it was), then the same page narrowed to a phone's width, where the
    badges must still lie under their header, never cut short (a layout, whatever gave the page its width)."""
    _assert_badges_and_modes(page, "1440")
    _assert_a_badge_opens_about(page)
    _assert_a_ranking_score_opens_every_item_of_its_run(page)
    _assert_a_breakdown_cell_opens_exactly_its_items(page)
    resize(page, PHONE)
    _assert_badges_and_modes(page, "390")


def _assert_badges_and_modes(page: Page, width: str) -> None:
    claim = f"{BADGES} (at {width} px)"
    flags = column(page, "Flags")
    assert flags == {CLEAN_ID: "", CUT_OFF_ID: CUT_OFF.badge, OTHER_JUDGE_ID: OTHER_JUDGE.badge,
                     OLD_DATASET_ID: OLD_DATASET.badge, FEW_ITEMS_ID: FEW_ITEMS.badge, PRE_MODE_ID: ""}, (
        claim, "row flags")
    for flag in (CUT_OFF, OTHER_JUDGE, OLD_DATASET, FEW_ITEMS):
        badge = page.locator(f"#{TAB}-table [role=gridcell] a", has_text=flag.badge)
        expect(badge, f"{claim}: one {flag.badge} badge").to_have_count(1)
        assert badge.get_attribute("title") == flag.explanation, f"{claim}: {flag.badge}'s explanation on hover"
        assert badge.get_attribute("href") == "?tab=about", f"{claim}: {flag.badge} links to About"
    intervals = column(page, "95 % interval")
    assert intervals[FEW_ITEMS_ID] == FEW_ITEMS_INTERVAL, f"{claim}: two items: never '0.0 – 0.0'"
    assert intervals[CLEAN_ID] == "100.0 – 100.0", f"{claim}: the clean run's interval"
    modes = column(page, "Mode")
    assert modes.pop(PRE_MODE_ID) == "", f"{claim}: a run from before the decoding mode was recorded shows a blank mode"
    assert set(modes.values()) == {"server"}, f"{claim}: every other run's decoding mode"
    page.locator(f"#{TAB}-table").scroll_into_view_if_needed()
    # The badges' column lies under its header, with 100-character ids, and no badge is cut short.
    assert misaligned(page, f"{TAB}-table") == [], f"{claim}: every header over its column"
    assert [(cut["column"], cut["text"]) for cut in cut_cells(page, f"{TAB}-table")] == [], f"{claim}: no cell cut"
    shot(page, f"toy-flags-{width}")


def _assert_a_badge_opens_about(page: Page) -> None:
    about = follow(page, page.locator(f"#{TAB}-table [role=gridcell] a", has_text=CUT_OFF.badge))
    assert address(about)["tab"] == ["about"], ABOUT
    text = about.locator("#about-text")
    expect(text, ABOUT).to_be_visible(timeout=LINK_TIMEOUT_MS)
    expect(text, ABOUT).to_contain_text("Every benchmark's ranking (")
    for title in ("Indic WritingBench", "Indic QA", "Saraiki", "Toy translation"):
        expect(text, f"{ABOUT}: {title}").to_contain_text(title)
    for flag in FLAGS.values():
        expect(text, f"{ABOUT}: {flag.badge}").to_contain_text(flag.explanation)
    about.close()


def _assert_a_breakdown_cell_opens_exactly_its_items(page: Page) -> None:
    open_breakdowns(page, TAB)
    expect(board_rows(page, f"{TAB}-breakdown").first, BREAKDOWN).to_be_visible()  # drawn once opened
    names = headers(page, f"{TAB}-breakdown")
    rows = cells(board_rows(page, f"{TAB}-breakdown"))
    row = next(i for i, cells_ in enumerate(rows)
               if cells_[names.index("Model")] == CLEAN_ID and cells_[names.index("Language")] == "saraiki")
    cell = page.locator(f'#{TAB}-breakdown [data-row="{row}"][data-col="{names.index("Adequacy %")}"] a')
    asked = parse_qs(urlparse(linked_href(cell)).query)
    assert asked["tab"] == [TAB] and asked["config"] == ["saraiki"] and len(asked["model"][0]) > 100, (
        BREAKDOWN, "the cell's link names its tab, its language and the whole run id", asked)
    items_page = follow(page, cell)
    items = board_rows(items_page, f"{TAB}-items")
    expect(items, BREAKDOWN).to_have_count(len(ROWS["saraiki"]), timeout=LINK_TIMEOUT_MS)
    expect(items_page.locator(f"#{TAB}-group input"), BREAKDOWN).to_have_value("saraiki")
    item_names = headers(items_page, f"{TAB}-items")
    assert {row[item_names.index("Config")] for row in cells(items)} == {"saraiki"}, (BREAKDOWN, "only its items")
    items.nth(1).locator("[role=gridcell]").nth(2).click()  # the second of the filtered list: saraiki:1
    expect(items_page.locator(f"#{TAB}-response .answer"), BREAKDOWN).to_have_text(ROWS["saraiki"][1][1])
    items_page.wait_for_function(f"() => new URLSearchParams(location.search).get('{TAB}_item') === 'saraiki:1'")
    # The address says which list the position counts in.
    assert address(items_page)["config"] == ["saraiki"], (BREAKDOWN, "the position counts in the filtered list")
    shot(items_page, "toy-score-link-items")
    items_page.close()


def _assert_a_ranking_score_opens_every_item_of_its_run(page: Page) -> None:
    names = headers(page, f"{TAB}-table")
    models = [row[names.index("Model")] for row in cells(board_rows(page, f"{TAB}-table"))]
    cell = page.locator(f'#{TAB}-table [data-row="{models.index(CUT_OFF_ID)}"][data-col="2"] a')  # the headline
    assert "config" not in parse_qs(urlparse(linked_href(cell)).query), (SCORE, "no language in the link")
    items_page = follow(page, cell)
    expect(board_rows(items_page, f"{TAB}-items"), SCORE).to_have_count(10, timeout=LINK_TIMEOUT_MS)
    # The one label rule: no "@ main".
    expect(items_page.locator(f"#{TAB}-model input"), SCORE).to_have_value(CUT_OFF_ID)
    shot(items_page, "toy-score-link-all")
    items_page.close()


def test_hiding_a_flag_leaves_out_its_rows_and_a_link_restores_the_filter(page: Page, app: AppServer) -> None:
    open_filters(page, TAB)  # the flags filter is folded with the others
    page.locator(f"#{TAB}-hide-flags").get_by_label(CUT_OFF.badge).check()
    page.locator(f"#{TAB}-hide-flags").get_by_label(FEW_ITEMS.badge).check()
    expect(board_rows(page, f"{TAB}-table")).to_have_count(RANKED - 2)
    assert CUT_OFF_ID not in column(page, "Model") and FEW_ITEMS_ID not in column(page, "Model")
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('{TAB}_hide_flags') === 'cut_off,few_items'")
    shot(page, "toy-flags-hidden")
    link = page.url
    page.goto(app.url)
    page.goto(link)
    expect(page.locator(f"#{TAB}-hide-flags").get_by_label(CUT_OFF.badge)).to_be_checked(timeout=LINK_TIMEOUT_MS)
    expect(board_rows(page, f"{TAB}-table")).to_have_count(RANKED - 2, timeout=LINK_TIMEOUT_MS)
    page.locator(f"#{TAB}-hide-flags").get_by_label(CUT_OFF.badge).uncheck()
    expect(board_rows(page, f"{TAB}-table")).to_have_count(RANKED - 1)  # one re-render at a time: a box clicked
    page.locator(f"#{TAB}-hide-flags").get_by_label(FEW_ITEMS.badge).uncheck()  # during one can be reset by it
    expect(board_rows(page, f"{TAB}-table")).to_have_count(RANKED)
