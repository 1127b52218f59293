"""The ranking first, every score a link, flagged rows, the overview, a model page and plots that fit, in
Chromium at 1440×900 (and 390×844 for what the first screen and the tab menu show as a phone opens the page; the
overview's page narrowed to it), on a board of 100-character ids, Indic and Shahmukhi text, a second revision,
runs cut off in thinking, judged by another judge or on one item per language, and all three benchmarks.
Screenshots land in test-artifacts/ (not committed).
"""

from __future__ import annotations

import re
from typing import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Browser, Page, expect

from leaderboard.row_flags import CUT_OFF, FEW_ITEMS_INTERVAL, OTHER_JUDGE
from leaderboard.short_labels import MAX_LABEL_CHARS
from tests.leaderboard.test_board_browser import column, open_tab, shot
from tests.leaderboard.test_browser import board_rows, headers, linked_href
from tests.support.apart import apart
from tests.support.app_server import AppServer, assert_no_traceback, running_app
from tests.support.browser_pages import LAPTOP, PHONE, both_widths, new_page, open_plots, resize, width_of
from tests.support.flagged_runs import CUT_OFF_ID, FEW_ITEMS_ID, OTHER_JUDGE_ID, build_flagged_board
from tests.support.readable_runs import LONG_IDS

RANKED_RUNS = 7
LINK_TIMEOUT_MS = 30_000
"""A link's view comes from the server: on a machine shared by many test runs it can take a while."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("ranking-first")
    board = apart(build_flagged_board, root)
    with running_app(board.data_dir, root / "app.log", QA_DATASET=str(board.qa_dataset_dir)) as server:
        yield server
    assert_no_traceback(root / "app.log")  # no link shape or view raised on the server


@pytest.fixture
def page(request: pytest.FixtureRequest, app: AppServer, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, width_of(request), app.url)
    opened.wait_for_selector("#leaderboard-table [role=gridcell]", timeout=60_000)  # a loaded machine renders late
    expect(board_rows(opened)).to_have_count(RANKED_RUNS)
    yield opened
    opened.context.close()


def in_window(page: Page, selector: str) -> bool:
    box, size = page.locator(selector).first.bounding_box(), page.viewport_size
    return bool(box and size and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"] + 1
                and box["y"] + box["height"] <= size["height"])


@pytest.mark.parametrize("page", [PHONE], indirect=True, ids=["390"])
def test_the_first_screen_shows_ranked_rows_with_rank_range_and_interval(page: Page) -> None:
    """What a phone shows as the page opens (the laptop's first screen is checked as the page the next test reads
    opens)."""
    _assert_the_first_screen_shows_ranked_rows(page)


def _assert_the_first_screen_shows_ranked_rows(page: Page) -> None:
    width = (page.viewport_size or {})["width"]
    claim = f"{FIRST_SCREEN} (at {width} px)"
    lead = headers(page, "leaderboard-table")[:5]
    assert lead == ["Rank", "Model", "Indic average (score 1–10)", "Rank range (95 %)", "95 % interval"], (
        claim, lead)
    for index in range(5):  # each lead header and the first two rows' cells, without scrolling
        assert in_window(page, f'#leaderboard-table [data-heading="{index}"]'), (claim, lead[index])
        for row in (0, 1):
            assert in_window(page, f'#leaderboard-table [data-row="{row}"][data-col="{index}"]'), (
                claim, row, lead[index])
    shot(page, f"ranking-first-{width}")


@both_widths
def test_the_model_tab_has_a_picker_and_the_phone_menu_reaches_every_tab(page: Page) -> None:
    if page.viewport_size == PHONE:
        page.get_by_label("More tabs").click()
        menu = page.locator(".overflow-dropdown button")
        folded = [name.strip() for name in menu.all_inner_texts()]
        for tab in ("All benchmarks", "Indic QA", "Saraiki", "Compare", "Model", "About"):
            assert tab in folded, f"the phone's tab menu lists {tab}"
            assert menu.filter(has_text=tab).first.is_visible(), f"{tab} is visible in the open menu"
        page.keyboard.press("Escape")
        expect(page.locator(".overflow-dropdown")).to_have_class(re.compile(r"\bhide\b"))
    open_tab(page, "^Model$")
    page.locator("#model-picker input").click()
    page.keyboard.type(LONG_IDS[0][-30:])  # the distinguishing end of a 100-character id finds it
    page.locator("#model-picker").get_by_role("option", name=LONG_IDS[0], exact=True).click()
    expect(page.locator("#model-page h2")).to_contain_text(LONG_IDS[0], timeout=LINK_TIMEOUT_MS)
    assert parse_qs(urlparse(page.url).query) == {"tab": ["model"], "model": [LONG_IDS[0]]}, "the address links the page"
    shot(page, "model-picker")


FIRST_SCREEN = "the first screen shows ranked rows with rank range and interval"
SCORE_LINK = "every score links to its items and the address says so"
FLAGS = "flags are badges explained on hover and the filters hide them"
OVERVIEW = "the overview fits the screen with each benchmark's rank and revisions together"
PLOTS = "plots use short labels and follow the board's search"
ABOUT = "About has contents whose links land and a section link opens its section"
LINKED_FILTERS = "a link's filters are named with one reset, and the last update and the download stay"
MODEL_PAGE = "a model page shows every benchmark, its revisions and links"


def test_the_first_screen_scores_link_flags_explain_and_filter_and_the_overview_ranks_each_benchmark(
    page: Page
) -> None:
    """One laptop page read in turn: its first screen as it opens, a score's link (opening its own tab), the flags
    (their filter reset after), then its overview, and that overview again with the page narrowed to a phone's
    width: what the overview shows holds however the page got its width."""
    _assert_the_first_screen_shows_ranked_rows(page)
    _assert_every_score_links_to_its_items(page)
    _assert_flags_are_badges_and_the_filters_hide_them(page)
    open_tab(page, "All benchmarks")
    _assert_the_overview_ranks_each_benchmark(page)
    resize(page, PHONE)
    _assert_the_overview_ranks_each_benchmark(page)


def _assert_every_score_links_to_its_items(page: Page) -> None:
    hindi = page.locator('#leaderboard-table [role=columnheader]', has_text="Hindi").first
    position = headers(page, "leaderboard-table").index("Hindi")
    assert hindi.is_visible(), (SCORE_LINK, "the Hindi column shows")
    hindi_link = page.locator(f'#leaderboard-table [data-row="0"][data-col="{position}"] a')
    # The row's address travels once (page size).
    assert hindi_link.get_attribute("href").startswith("#+"), (SCORE_LINK, "the link is written against its row's")
    href = linked_href(hindi_link)
    asked = parse_qs(urlparse(href).query)
    # The items are on the same tab now, filtered by the item field (`config`), no longer by its label.
    assert asked["tab"] == ["leaderboard"] and asked["config"] == ["Hindi"] and asked["model"][0].endswith("/main"), (
        SCORE_LINK, asked)
    with page.context.expect_page() as opened:  # Gradio opens a cell's link in a new tab: the board stays
        hindi_link.click()  # a link written against its row's first opens the whole address
    items = opened.value
    items.wait_for_load_state()
    assert parse_qs(urlparse(items.url).query) == asked, (SCORE_LINK, "the opened address is the link's")
    expect(items.locator("#leaderboard-model input"), SCORE_LINK).to_have_value(LONG_IDS[0], timeout=LINK_TIMEOUT_MS)
    expect(items.locator("#leaderboard-items [role=gridcell]").first, SCORE_LINK).to_be_visible(
        timeout=LINK_TIMEOUT_MS)
    shot(items, "score-link-judgments")
    items.close()


def _assert_flags_are_badges_and_the_filters_hide_them(page: Page) -> None:
    models = column(page, "Model")
    flags = column(page, "Flags")
    assert flags[models.index(CUT_OFF_ID)] == CUT_OFF.badge, (FLAGS, "the cut-off row's badge")
    assert flags[models.index(OTHER_JUDGE_ID)] == OTHER_JUDGE.badge, (FLAGS, "the other judge's row's badge")
    assert column(page, "95 % interval")[models.index(FEW_ITEMS_ID)] == FEW_ITEMS_INTERVAL, (
        FLAGS, "never '5.24 – 5.24'")
    badge = page.locator("#leaderboard-table a", has_text=CUT_OFF.badge).first
    assert badge.get_attribute("title") == CUT_OFF.explanation and badge.get_attribute("href") == "?tab=about", (
        FLAGS, "the badge's explanation on hover and its link to About")
    page.get_by_text("Column groups, filters").click()
    page.locator("#leaderboard-hide-flags").get_by_label(CUT_OFF.badge).check()
    expect(board_rows(page), FLAGS).to_have_count(RANKED_RUNS - 1)
    expect(page.locator("#leaderboard-filters-active"), FLAGS).to_contain_text("hiding flagged rows")
    page.wait_for_function("() => new URLSearchParams(location.search).get('leaderboard_hide_flags') === 'cut_off'")
    shot(page, "flags-hidden")
    page.locator("#leaderboard-reset-filters").click()
    expect(board_rows(page), FLAGS).to_have_count(RANKED_RUNS)
    expect(page.locator("#leaderboard-filters-active"), FLAGS).to_be_hidden()


def _assert_the_overview_ranks_each_benchmark(page: Page) -> None:
    width = (page.viewport_size or {})["width"]
    claim = f"{OVERVIEW} (at {width} px)"
    table = page.locator("#overview-table")
    expect(board_rows(page, "overview-table").first, claim).to_be_visible()
    columns = headers(page, "overview-table")
    assert [c for c in columns if c.endswith(" rank")] == ["Indic WritingBench v1 rank", "Indic QA rank",
                                                           "Saraiki rank"], (claim, columns)
    rows = board_rows(page, "overview-table").evaluate_all(
        "rows => rows.map(r => Array.from(r.querySelectorAll('[role=gridcell]')).map(c => c.innerText.trim()))")
    assert rows[0][0] == LONG_IDS[0] and rows[1][0].startswith("↳") and rows[1][1] == "0123456", (
        claim, "a model's revisions together", rows[:2])
    # The one-item-per-language run has no interval (one cluster per language), so it is surely neither better
    # nor worse than any run: the best run's range reaches rank 2.
    assert rows[0][columns.index("Indic WritingBench v1 rank")] == "1 (1–2)", (claim, "the best run's rank range")
    if page.viewport_size == LAPTOP:
        last = page.locator("#overview-table [role=columnheader]").last.bounding_box()
        assert last and last["x"] + last["width"] <= LAPTOP["width"], (claim, "every benchmark without scrolling")
    assert table.locator("script, b").count() == 0, (claim, "ids stay text")
    shot(page, f"overview-ranks-{width}")


def test_plots_follow_the_search_about_s_contents_land_and_links_open_filters_and_model_pages(
    page: Page, app: AppServer
) -> None:
    """One laptop page: the plots under a search, About's contents; then addresses opened in it, each a fresh view
    (a section of About, a link with filters, a model page and its other revision)."""
    _assert_plots_use_short_labels_and_follow_the_search(page)
    _assert_about_s_contents_land(page, app)
    _assert_a_link_s_filters_are_named(page, app)
    _assert_a_model_page_shows_every_benchmark(page, app)


def _assert_plots_use_short_labels_and_follow_the_search(page: Page) -> None:
    page.locator("#leaderboard-search textarea").fill("indic-nlp;thinking-lab")
    expect(board_rows(page), PLOTS).to_have_count(3)
    open_tab(page, "Indic WritingBench v1")
    open_plots(page, "leaderboard")
    ticks = page.locator("#leaderboard-plot-overall .ytick text")
    expect(ticks, PLOTS).to_have_count(3)
    labels = ticks.all_text_contents()  # SVG text has no innerText
    assert all(len(label) <= MAX_LABEL_CHARS + 8 for label in labels), (PLOTS, labels)
    assert any(label.endswith("@0123456") for label in labels), (PLOTS, "a revision's label", labels)
    box = page.locator("#leaderboard-plot-overall .js-plotly-plot").bounding_box()
    assert box and box["height"] >= 320, (PLOTS, "the plot's height", box)
    shot(page, "plots-short-labels", full_page=True)


def _assert_about_s_contents_land(page: Page, app: AppServer) -> None:
    open_tab(page, "^About$")
    links = page.locator("#about-contents a")
    expect(links.first, ABOUT).to_be_visible()
    targets = [href.lstrip("#") for href in links.evaluate_all("links => links.map(a => a.getAttribute('href'))")]
    assert len(targets) >= 10 and "h-judge-consistency" in targets, (ABOUT, targets)
    for target in targets:  # every entry names a heading Gradio drew with that id
        assert page.locator(f'[id="{target}"]').count() == 1, f"{ABOUT}: the contents entry #{target} has its heading"
    page.goto(f"{app.url}?tab=about#h-judge-consistency")
    heading = page.locator('[id="h-judge-consistency"]')
    expect(heading, ABOUT).to_be_in_viewport(timeout=LINK_TIMEOUT_MS)


def _assert_a_link_s_filters_are_named(page: Page, app: AppServer) -> None:
    page.goto(f"{app.url}?q=no-such-model&type=chat")
    expect(page.locator("#leaderboard-no-match"), LINKED_FILTERS).to_be_visible(timeout=LINK_TIMEOUT_MS)
    expect(page.locator("#leaderboard-filters-active"), LINKED_FILTERS).to_contain_text("search: no-such-model")
    expect(page.locator("#leaderboard-filters-active"), LINKED_FILTERS).to_contain_text("model type: chat")
    # The accordion opened: the filter is seen.
    expect(page.locator("#leaderboard-filters #leaderboard-model-type"), LINKED_FILTERS).to_be_visible()
    expect(page.locator("#leaderboard-last-updated"), LINKED_FILTERS).to_contain_text("Last updated:")
    expect(page.locator("#leaderboard-download-view"), LINKED_FILTERS).to_be_visible()
    shot(page, "leaderboard-filters-active")
    page.locator("#leaderboard-reset-filters").click()
    expect(board_rows(page), LINKED_FILTERS).to_have_count(RANKED_RUNS)


def _assert_a_model_page_shows_every_benchmark(page: Page, app: AppServer) -> None:
    page.goto(f"{app.url}?model={LONG_IDS[0]}")
    model_page = page.locator("#model-page")
    expect(model_page, MODEL_PAGE).to_contain_text("Indic WritingBench v1", timeout=LINK_TIMEOUT_MS)
    expect(model_page, MODEL_PAGE).to_contain_text("Other revisions")
    expect(model_page, MODEL_PAGE).to_contain_text("Rank: 1 of")
    assert model_page.locator(f'a[href="https://huggingface.co/{LONG_IDS[0]}"]').count() == 1, (
        MODEL_PAGE, "one link to the model on the Hub")
    assert model_page.locator('a[href*="tab=leaderboard"]').count() >= 1, (MODEL_PAGE, "a link to its ranking")
    shot(page, "model-page", full_page=True)
    other = model_page.locator("a", has_text="0123456").first.get_attribute("href")
    page.goto(app.url + other)
    assert "revision=0123456789abcdef" in other, (MODEL_PAGE, "the other revision's link", other)
    expect(model_page, MODEL_PAGE).to_contain_text("@ 0123456", timeout=LINK_TIMEOUT_MS)
