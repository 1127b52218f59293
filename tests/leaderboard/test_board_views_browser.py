"""A link to one judgment, and the queue's benchmark and prompt mode, in Chromium at 1440×900 (the same page then
narrowed to 390×844 where what is checked is layout).

Opening a Judgments link restores the model, the comparison, the filters and the item with its
criteria; choosing an item writes the link into the address. The queue tables say which
benchmark each request runs and whether its prompts go as chat or raw text. Screenshots land
in test-artifacts/ (not committed).
"""

from __future__ import annotations

import re
from typing import Iterator
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from playwright.sync_api import Browser, Page, expect

from eval_backend.benchmarks.registry import BENCHMARKS
from tests.leaderboard.test_board_browser import SEEN_JS, open_tab, seen_after_scrolling, shot
from tests.leaderboard.test_browser import board_rows, cells, choose, headers
from tests.support.app_server import AppServer
from tests.support.board_apps import QUEUED
from tests.support.browser_pages import LAPTOP, PHONE, UI_TIMEOUT_MS, new_page, resize

STRONG, REASONER = "acme__strong-7b/main", "acme__reasoner-3b/main"


@pytest.fixture(scope="module")
def app(board_app: AppServer) -> AppServer:
    """The shared board, with `QUEUED` in its queue."""
    return board_app


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, LAPTOP)
    yield opened
    opened.context.close()


def address(page: Page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def item_rows(page: Page):
    return page.locator("#leaderboard-items [role=row][aria-rowindex]:not([aria-rowindex='1'])")


def test_a_judgments_link_opens_the_model_the_comparison_and_the_item(page: Page, app: AppServer) -> None:
    """Opened at a laptop's width; the criteria then read without sideways scrolling there and with the same page
    narrowed to a phone's (a layout that must hold however the page got its width)."""
    link = {"tab": "judgments", "model": REASONER, "compare": STRONG, "item": "Hindi:1", "language": "Hindi"}
    page.goto(f"{app.url}?{urlencode(link)}")
    expect(page.locator("#leaderboard-model input")).to_have_value("acme/reasoner-3b")
    expect(page.locator("#leaderboard-compare input")).to_have_value("acme/strong-7b")
    expect(page.locator("#leaderboard-group input")).to_have_value("Hindi")
    expect(item_rows(page)).to_have_count(6)  # the Hindi items only
    expect(page.locator("#leaderboard-item-title textarea")).to_have_value(re.compile(r"^Hindi #1 · Hindi-0001 · "))
    expect(page.locator("#leaderboard-response .answer")).to_contain_text("acme/reasoner-3b writes about Hindi-0001")
    expect(page.locator("#leaderboard-second-response .answer")).to_contain_text("acme/strong-7b writes about Hindi-0001")
    criteria = page.locator("#leaderboard-parts")
    expect(criteria.locator("section.criterion h4").first).to_have_text(re.compile(r"^1\. .+: \d+/10$"))
    expect(criteria.locator("details li", has_text="9-10:")).to_have_count(5)  # each criterion's rubric, folded
    for viewport in (LAPTOP, PHONE):
        resize(page, viewport)
        criteria.scroll_into_view_if_needed()
        expect(criteria, f"the criteria in view at {viewport['width']} px").to_be_in_viewport()
        assert criteria.evaluate("el => el.scrollWidth <= el.clientWidth"), (
            f"no sideways scrolling at {viewport['width']} px")
        shot(page, f"judgment-link-{viewport['width']}", full_page=True)


def test_a_link_to_what_the_board_does_not_have_is_ignored(page: Page, app: AppServer) -> None:
    page.goto(f"{app.url}?{urlencode({'tab': 'judgments', 'model': '../../etc', 'item': 'Hindi:1'})}")
    expect(page.locator("#leaderboard-model input")).to_have_value("acme/strong-7b")  # the best-ranked run, as usual
    expect(page.locator("#leaderboard-group input")).to_have_value("all")  # every language: no filter
    expect(page.locator("#leaderboard-item-key textarea")).to_have_count(0)  # hidden, never a box on screen
    link = {"tab": "judgments", "model": REASONER, "item": "Hindi:999", "language": "<b>x</b>", "score_min": "x"}
    page.goto(f"{app.url}?{urlencode(link)}")
    expect(page.locator("#leaderboard-model input")).to_have_value("acme/reasoner-3b")  # the rest of the link applies
    expect(page.locator("#leaderboard-group input")).to_have_value("all")  # every language: no filter
    expect(page.locator("#leaderboard-item-title")).to_be_hidden()
    expect(page.locator("#leaderboard-response")).to_be_hidden()


def test_choosing_an_item_writes_the_link_and_the_link_opens_it_again(page: Page, app: AppServer) -> None:
    page.goto(app.url)
    expect(board_rows(page)).to_have_count(3)
    open_tab(page, "Indic WritingBench v1")  # its item browser: the former Judgments tab
    expect(page.locator("#leaderboard-model input")).to_have_value("acme/strong-7b")
    choose(page, "leaderboard-group", "Tamil")
    expect(item_rows(page)).to_have_count(6)
    row = cells(item_rows(page))[2]
    item_rows(page).nth(2).locator("[role=gridcell]").nth(2).click()
    wanted = row[0]  # the item column: `<config>:<index>`
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('leaderboard_item') === {wanted!r}")
    written = address(page)
    assert {key: written.get(key) for key in ("tab", "leaderboard_model", "leaderboard_item", "config",
                                              "leaderboard_compare", "variant", "model", "item")} == {
        "tab": ["leaderboard"], "leaderboard_model": [STRONG], "leaderboard_item": [wanted], "config": ["Tamil"],
        "leaderboard_compare": None, "variant": None, "model": None, "item": None}  # defaults stay out of the link
    expect(page.locator("#leaderboard-item-title textarea")).to_have_value(re.compile(rf"^{wanted.replace(':', ' #')} · "))
    header = page.locator("#leaderboard-item-title textarea").input_value()
    page.goto(page.url)  # the address as a link, opened afresh
    expect(page.locator("#leaderboard-item-title textarea")).to_have_value(header)
    expect(page.locator("#leaderboard-group input")).to_have_value("Tamil")
    expect(page.locator("#leaderboard-parts section.criterion h4").first).to_have_text(re.compile(r"^1\. .+: \d+/10$"))
    choose(page, "leaderboard-model", "acme/reasoner-3b")  # a new model: its items, none of them opened yet
    page.wait_for_function("""() => {
      const params = new URLSearchParams(location.search);
      return params.get('leaderboard_model') === 'acme__reasoner-3b/main' && !params.has('leaderboard_item')
        && params.get('config') === 'Tamil';  // the filters chosen stay, as on every benchmark's item browser
    }""")


def test_a_row_clicked_while_another_opens_is_the_one_shown(page: Page, app: AppServer) -> None:
    page.goto(f"{app.url}?{urlencode({'tab': 'judgments', 'model': STRONG, 'language': 'Tamil'})}")
    expect(item_rows(page)).to_have_count(6)
    rows = cells(item_rows(page))
    for position in (1, 4):  # the second click comes while the first item is still opening
        item_rows(page).nth(position).locator("[role=gridcell]").nth(2).click()
    last = rows[4]
    expect(page.locator("#leaderboard-item-title textarea")).to_have_value(re.compile(rf"^{last[0].replace(':', ' #')} · "))
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('leaderboard_item') === {last[0]!r}")


def test_the_queue_says_each_request_s_benchmark_and_prompt_mode(page: Page, app: AppServer) -> None:
    """Read at a laptop's width, then with the same page narrowed to a phone's, where id and model stay put and the
    revision scrolls away to show what follows (a layout that must hold however the page got its width)."""
    page.goto(f"{app.url}?tab=submit")
    pending = board_rows(page, "queue-pending")
    expect(pending).to_have_count(len(QUEUED), timeout=2 * UI_TIMEOUT_MS)
    columns = headers(page, "queue-pending")
    assert columns[:5] == ["id", "model", "revision", "benchmark", "mode"]
    shown = {row[1]: (row[2], row[3], row[4]) for row in cells(pending)}
    assert shown == {model: ("0123456", BENCHMARKS[benchmark].title, mode.value) for model, benchmark, mode in QUEUED}
    _assert_benchmark_and_mode_are_seen(page)
    resize(page, PHONE)
    _assert_benchmark_and_mode_are_seen(page)


def _assert_benchmark_and_mode_are_seen(page: Page) -> None:
    page.locator("#queue-pending").scroll_into_view_if_needed()
    mode = page.locator('#queue-pending [data-col="4"][data-row="0"]')
    if page.viewport_size == PHONE:  # id and model stay put; the revision scrolls away to show what follows
        page.locator("#queue-pending .virtual-table-viewport").evaluate(
            """el => { el.scrollLeft = el.querySelector('[data-col="2"][data-row="0"]').offsetWidth; }""")
    model_and_benchmark = [f'#queue-pending [data-col="{col}"][data-row="0"]' for col in (1, 3)]
    seen_after_scrolling(page, model_and_benchmark)
    assert mode.evaluate(SEEN_JS) or page.viewport_size == PHONE, "the mode is seen at a laptop's width"
    shot(page, f"queue-{page.viewport_size['width']}")
