"""The board read right in Chromium at 1440×900 and 390×844: 100-character ids, Indic and Shahmukhi text.

Headers lie over their columns, whatever the ids. Screenshots land in test-artifacts/ (not committed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.leaderboard.test_board_browser import LAPTOP, PHONE, open_tab, shot
from tests.leaderboard.test_browser import UI_TIMEOUT_MS, board_rows
from tests.support.app_server import AppServer, running_app
from tests.support.readable_runs import LONG_IDS, build_readable_data

ALIGNMENT_TOLERANCE_PX = 1
SCRIPT_SAMPLES = {"Devanagari": "\u0915", "Tamil": "\u0BA4", "Bengali": "\u09AC"}
"""A letter of each script the test dataset's prompts are written in (क, த, ব)."""
MISALIGNED_JS = """board => {
  const heads = Array.from(board.querySelectorAll('[role=columnheader]'));
  return heads.flatMap((head, column) => {
    const h = head.getBoundingClientRect();
    return Array.from(board.querySelectorAll(`[role=gridcell][data-col="${column}"]`)).map(cell => {
      const c = cell.getBoundingClientRect();
      return {column: head.innerText.trim(), left: c.left - h.left, right: c.right - h.right};
    });
  });
}"""
"""For every body cell, how far its left and right edges lie from its column header's."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("readable")
    data = build_readable_data(root)
    with running_app(data.data_dir, root / "app.log") as server:
        yield server


@pytest.fixture(params=[LAPTOP, PHONE], ids=["1440", "390"])
def page(request: pytest.FixtureRequest, app: AppServer, browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=request.param)
    opened = context.new_page()
    opened.set_default_timeout(UI_TIMEOUT_MS)
    opened.goto(app.url)
    expect(board_rows(opened)).to_have_count(3)
    yield opened
    context.close()


def misaligned(page: Page, elem_id: str) -> list[dict]:
    offsets = page.locator(f"#{elem_id}").evaluate(MISALIGNED_JS)
    assert offsets, f"#{elem_id} has no cells to compare"
    return [o for o in offsets if max(abs(o["left"]), abs(o["right"])) > ALIGNMENT_TOLERANCE_PX]


def fits(cell) -> bool:
    """Whether the cell's text is drawn whole inside it (not cut off with an ellipsis)."""
    return cell.evaluate("c => Array.from(c.querySelectorAll('*')).every(e => e.scrollWidth <= e.clientWidth + 1)")


def test_each_header_lies_over_its_column_with_100_character_ids(page: Page) -> None:
    board = page.locator("#leaderboard-table")
    board.scroll_into_view_if_needed()
    assert misaligned(page, "leaderboard-table") == []
    shot(page, "aligned-long-ids")
    viewport = page.locator("#leaderboard-table .virtual-table-viewport")
    viewport.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    assert misaligned(page, "leaderboard-table") == []  # scrolled to the last column too
    last, frame = page.locator("#leaderboard-table [role=columnheader]").last.bounding_box(), viewport.bounding_box()
    assert last and frame and abs(last["x"] + last["width"] - (frame["x"] + frame["width"])) < 20  # no blank beyond
    shot(page, "aligned-long-ids-scrolled")


def test_the_overview_headers_lie_over_their_columns(page: Page) -> None:
    page.locator("#overview-table").scroll_into_view_if_needed()
    assert misaligned(page, "overview-table") == []
    assert fits(page.locator('#overview-table [data-col="0"][data-row="0"]'))  # the whole id, not cut off
    shot(page, "overview-long-ids")


def test_a_long_id_wraps_inside_its_cell_and_reads_whole(page: Page) -> None:
    cell = page.locator('#leaderboard-table [data-col="1"][data-row="0"]')
    assert cell.inner_text().strip() == LONG_IDS[0]
    box, text = cell.bounding_box(), cell.locator("a").bounding_box()
    assert box and text and text["x"] >= box["x"] and text["x"] + text["width"] <= box["x"] + box["width"] + 1
    assert fits(cell)
    assert cell.locator("a").get_attribute("title") == LONG_IDS[0]  # the full id on hover


def drawn_with(page: Page, selector: str) -> list[dict]:
    """The fonts Chromium drew the element's text with (name, and whether the page supplied it)."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    session.detach()
    return fonts


def test_every_script_is_drawn_with_the_noto_face_the_app_serves(page: Page, app: AppServer) -> None:
    open_tab(page, "Judgments")
    items = page.locator("#judgment-items [role=gridcell]")
    expect(items.first).to_be_visible()
    for script, letter in SCRIPT_SAMPLES.items():
        cell = page.locator("#judgment-items [role=gridcell] span.text", has_text=letter).first
        expect(cell).to_be_visible()
        marker = f"script-{script}"
        cell.evaluate("(el, marker) => el.setAttribute('data-probe', marker)", marker)
        fonts = drawn_with(page, f'[data-probe="{marker}"]')
        assert {"familyName": f"Noto Sans {script}", "isCustomFont": True} in [
            {"familyName": f["familyName"], "isCustomFont": f["isCustomFont"]} for f in fonts], fonts
    shot(page, "judgments-scripts")
    served = page.evaluate("() => Array.from(document.fonts).filter(f => f.status === 'loaded').map(f => f.family)")
    assert '"Board Noto"' in served or "Board Noto" in served
    # The files come from the app itself: nothing is fetched from elsewhere.
    url = page.evaluate("() => performance.getEntriesByType('resource').map(r => r.name).find(n => n.endsWith('.ttf'))")
    assert url and url.startswith(app.url) and httpx.get(url).status_code == 200
