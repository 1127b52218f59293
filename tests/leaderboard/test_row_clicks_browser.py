"""A row clicked while another row's item opens is the one shown, in Chromium.

The flake seen under load (`test_board_views_browser.py::test_a_row_clicked_while_another_opens_is_the_one_shown`)
made deterministic: the first click's request to the server is held until the second click is made, then both
go in the order they were made. Under Gradio's `always_last` on the `select` the second click was never sent
and the first row was shown again (leaderboard/tabs/row_clicks.py says why).
"""

from __future__ import annotations

import re
from typing import Iterator
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.support.app_server import AppServer
from tests.support.browser_pages import LAPTOP, UI_TIMEOUT_MS, new_page

STRONG = "acme__strong-7b/main"
ROWS = "#leaderboard-items [role=row][aria-rowindex]:not([aria-rowindex='1'])"
SELECT_LISTENER_JS = """elemId => {
  const config = window.gradio_config;
  const table = config.components.find(c => c.props.elem_id === elemId).id;
  return config.dependencies.find(d => d.targets.some(([id, event]) => id === table && event === 'select')).id;
}"""
"""The id of the listener a click on a row of the table `elemId` fires (the `fn_index` its request names)."""


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, LAPTOP)
    yield opened
    opened.context.close()


def first_cells(page: Page) -> list[list[str]]:
    """The first two cells of each item row (its key, then its language)."""
    script = ("rows => rows.map(r => Array.from(r.querySelectorAll('[role=gridcell]'))"
              ".slice(0, 2).map(c => c.innerText))")
    return [[cell.strip() for cell in row] for row in page.locator(ROWS).evaluate_all(script)]


def click_row(page: Page, position: int) -> None:
    page.locator(ROWS).nth(position).locator("[role=gridcell]").nth(2).click()


def test_the_second_of_two_quick_row_clicks_is_sent_and_shown(page: Page, board_app: AppServer) -> None:
    page.goto(f"{board_app.url}?{urlencode({'tab': 'judgments', 'model': STRONG, 'language': 'Tamil'})}")
    expect(page.locator(ROWS)).to_have_count(6, timeout=2 * UI_TIMEOUT_MS)  # a link's first view: the longest load
    rows = first_cells(page)
    select_listener = page.evaluate(SELECT_LISTENER_JS, "leaderboard-items")
    held: list[Route] = []

    def hold_row_clicks(route: Route) -> None:
        if (route.request.post_data_json or {}).get("fn_index") == select_listener:
            held.append(route)
        else:
            route.continue_()

    def is_row_click(request) -> bool:  # type: ignore[no-untyped-def]
        return "/queue/join" in request.url and (request.post_data_json or {}).get("fn_index") == select_listener

    page.route(re.compile(r"/queue/join"), hold_row_clicks)
    with page.expect_request(is_row_click):
        click_row(page, 1)
    try:  # while the first click's request is still on its way
        with page.expect_request(is_row_click, timeout=10_000):
            click_row(page, 4)
    except PlaywrightTimeoutError:
        pytest.fail(f"a row clicked while another opens sends no request of its own ({len(held)} sent)")
    for route in held:  # in the order the clicks were made, each answered before the next goes
        with page.expect_response(lambda response: response.request == route.request):
            route.continue_()
    key = rows[4][0]  # an item row begins with its key, <config>:<index>
    config, index = key.split(":")
    expect(page.locator("#leaderboard-item-title textarea")).to_have_value(re.compile(rf"^{config} #{index} · "))
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('leaderboard_item') === {key!r}")
