"""The ranking first, every score a link, flagged rows, the overview, a model page and plots that fit, in
Chromium at 1440×900 (and 390×844 for what the first screen and the overview fit), on a board of 100-character
ids, Indic and Shahmukhi text, a second revision, runs cut off in thinking, judged by another judge or on one
item per language, and all three benchmarks. Screenshots land in test-artifacts/ (not committed).
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
from tests.support.browser_pages import LAPTOP, PHONE, both_widths, new_page, open_plots, width_of
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


@both_widths
def test_the_first_screen_shows_ranked_rows_with_rank_range_and_interval(page: Page) -> None:
    lead = headers(page, "leaderboard-table")[:5]
    assert lead == ["Rank", "Model", "Indic average (score 1–10)", "Rank range (95 %)", "95 % interval"]
    for index in range(5):  # each lead header and the first two rows' cells, without scrolling
        assert in_window(page, f'#leaderboard-table [data-heading="{index}"]'), lead[index]
        for row in (0, 1):
            assert in_window(page, f'#leaderboard-table [data-row="{row}"][data-col="{index}"]'), (row, lead[index])
    shot(page, "ranking-first")


def test_every_score_links_to_its_items_and_the_address_says_so(page: Page) -> None:
    hindi = page.locator('#leaderboard-table [role=columnheader]', has_text="Hindi").first
    position = headers(page, "leaderboard-table").index("Hindi")
    assert hindi.is_visible()
    hindi_link = page.locator(f'#leaderboard-table [data-row="0"][data-col="{position}"] a')
    assert hindi_link.get_attribute("href").startswith("#+")  # the row's address travels once (page size)
    href = linked_href(hindi_link)
    asked = parse_qs(urlparse(href).query)
    # The items are on the same tab now, filtered by the item field (`config`), no longer by its label.
    assert asked["tab"] == ["leaderboard"] and asked["config"] == ["Hindi"] and asked["model"][0].endswith("/main")
    with page.context.expect_page() as opened:  # Gradio opens a cell's link in a new tab: the board stays
        hindi_link.click()  # a link written against its row's first opens the whole address
    items = opened.value
    items.wait_for_load_state()
    assert parse_qs(urlparse(items.url).query) == asked
    expect(items.locator("#leaderboard-model input")).to_have_value(LONG_IDS[0], timeout=LINK_TIMEOUT_MS)
    expect(items.locator("#leaderboard-items [role=gridcell]").first).to_be_visible(timeout=LINK_TIMEOUT_MS)
    shot(items, "score-link-judgments")


def test_flags_are_badges_explained_on_hover_and_the_filters_hide_them(page: Page) -> None:
    models = column(page, "Model")
    flags = column(page, "Flags")
    assert flags[models.index(CUT_OFF_ID)] == CUT_OFF.badge and flags[models.index(OTHER_JUDGE_ID)] == OTHER_JUDGE.badge
    assert column(page, "95 % interval")[models.index(FEW_ITEMS_ID)] == FEW_ITEMS_INTERVAL  # never "5.24 – 5.24"
    badge = page.locator("#leaderboard-table a", has_text=CUT_OFF.badge).first
    assert badge.get_attribute("title") == CUT_OFF.explanation and badge.get_attribute("href") == "?tab=about"
    page.get_by_text("Column groups, filters").click()
    page.locator("#leaderboard-hide-flags").get_by_label(CUT_OFF.badge).check()
    expect(board_rows(page)).to_have_count(RANKED_RUNS - 1)
    expect(page.locator("#leaderboard-filters-active")).to_contain_text("hiding flagged rows")
    page.wait_for_function("() => new URLSearchParams(location.search).get('leaderboard_hide_flags') === 'cut_off'")
    shot(page, "flags-hidden")
    page.locator("#leaderboard-reset-filters").click()
    expect(board_rows(page)).to_have_count(RANKED_RUNS)
    expect(page.locator("#leaderboard-filters-active")).to_be_hidden()


def test_a_link_s_filters_are_named_with_one_reset_and_updated_and_the_download_stay(page: Page, app: AppServer) -> None:
    page.goto(f"{app.url}?q=no-such-model&type=chat")
    expect(page.locator("#leaderboard-no-match")).to_be_visible(timeout=LINK_TIMEOUT_MS)
    expect(page.locator("#leaderboard-filters-active")).to_contain_text("search: no-such-model")
    expect(page.locator("#leaderboard-filters-active")).to_contain_text("model type: chat")
    expect(page.locator("#leaderboard-filters #leaderboard-model-type")).to_be_visible()  # the accordion opened: the filter is seen
    expect(page.locator("#leaderboard-last-updated")).to_contain_text("Last updated:")
    expect(page.locator("#leaderboard-download-view")).to_be_visible()
    shot(page, "leaderboard-filters-active")
    page.locator("#leaderboard-reset-filters").click()
    expect(board_rows(page)).to_have_count(RANKED_RUNS)


@both_widths
def test_the_overview_fits_the_screen_with_each_benchmark_s_rank_and_revisions_together(page: Page) -> None:
    open_tab(page, "All benchmarks")
    table = page.locator("#overview-table")
    expect(board_rows(page, "overview-table").first).to_be_visible()
    columns = headers(page, "overview-table")
    assert [c for c in columns if c.endswith(" rank")] == ["Indic WritingBench v1 rank", "Indic QA rank", "Saraiki rank"]
    rows = board_rows(page, "overview-table").evaluate_all(
        "rows => rows.map(r => Array.from(r.querySelectorAll('[role=gridcell]')).map(c => c.innerText.trim()))")
    assert rows[0][0] == LONG_IDS[0] and rows[1][0].startswith("↳") and rows[1][1] == "0123456"
    # The one-item-per-language run has no interval (one cluster per language), so it is surely neither better
    # nor worse than any run: the best run's range reaches rank 2.
    assert rows[0][columns.index("Indic WritingBench v1 rank")] == "1 (1–2)"
    if page.viewport_size == LAPTOP:
        last = page.locator("#overview-table [role=columnheader]").last.bounding_box()
        assert last and last["x"] + last["width"] <= LAPTOP["width"]  # every benchmark without scrolling
    assert table.locator("script, b").count() == 0
    shot(page, "overview-ranks")


def test_a_model_page_shows_every_benchmark_its_revisions_and_links(page: Page, app: AppServer) -> None:
    page.goto(f"{app.url}?model={LONG_IDS[0]}")
    model_page = page.locator("#model-page")
    expect(model_page).to_contain_text("Indic WritingBench v1", timeout=LINK_TIMEOUT_MS)
    expect(model_page).to_contain_text("Other revisions")
    expect(model_page).to_contain_text("Rank: 1 of")
    assert model_page.locator(f'a[href="https://huggingface.co/{LONG_IDS[0]}"]').count() == 1
    assert model_page.locator('a[href*="tab=leaderboard"]').count() >= 1
    shot(page, "model-page", full_page=True)
    other = model_page.locator("a", has_text="0123456").first.get_attribute("href")
    page.goto(app.url + other)
    assert "revision=0123456789abcdef" in other
    expect(model_page).to_contain_text("@ 0123456", timeout=LINK_TIMEOUT_MS)


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


def test_about_has_contents_whose_links_land_and_a_section_link_opens_its_section(page: Page, app: AppServer) -> None:
    open_tab(page, "^About$")
    links = page.locator("#about-contents a")
    expect(links.first).to_be_visible()
    targets = [href.lstrip("#") for href in links.evaluate_all("links => links.map(a => a.getAttribute('href'))")]
    assert len(targets) >= 10 and "h-judge-consistency" in targets, targets
    for target in targets:  # every entry names a heading Gradio drew with that id
        assert page.locator(f'[id="{target}"]').count() == 1, f"the contents entry #{target} has its heading"
    page.goto(f"{app.url}?tab=about#h-judge-consistency")
    heading = page.locator('[id="h-judge-consistency"]')
    expect(heading).to_be_in_viewport(timeout=LINK_TIMEOUT_MS)


def test_plots_use_short_labels_and_follow_the_board_s_search(page: Page) -> None:
    page.locator("#leaderboard-search textarea").fill("indic-nlp;thinking-lab")
    expect(board_rows(page)).to_have_count(3)
    open_tab(page, "Indic WritingBench v1")
    open_plots(page, "leaderboard")
    ticks = page.locator("#leaderboard-plot-overall .ytick text")
    expect(ticks).to_have_count(3)
    labels = ticks.all_text_contents()  # SVG text has no innerText
    assert all(len(label) <= MAX_LABEL_CHARS + 8 for label in labels), labels
    assert any(label.endswith("@0123456") for label in labels)
    box = page.locator("#leaderboard-plot-overall .js-plotly-plot").bounding_box()
    assert box and box["height"] >= 320
    shot(page, "plots-short-labels", full_page=True)
