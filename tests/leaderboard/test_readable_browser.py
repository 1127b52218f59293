"""The board read right in Chromium at 1440×900, and 390×844 where layout is checked: 100-character ids, Indic and
Shahmukhi text.

Headers lie over their columns, whatever the ids. Screenshots land in test-artifacts/ (not committed).
"""

from __future__ import annotations

import re
from typing import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.leaderboard.test_board_browser import TEXT_BOX_JS, open_filters, open_tab, shot
from tests.leaderboard.test_browser import board_rows, choose
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from leaderboard.scored_tables import item_labels
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import LAPTOP, PHONE, both_widths, new_page, width_of
from tests.support.readable_runs import LONG_IDS, SHAHMUKHI_ANSWER

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
def app(readable_app: AppServer) -> AppServer:
    return readable_app


@pytest.fixture
def page(request: pytest.FixtureRequest, app: AppServer, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, width_of(request))
    dialogs: list[str] = []
    opened.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    opened.goto(app.url)
    expect(board_rows(opened)).to_have_count(3)
    yield opened
    opened.context.close()
    assert dialogs == [], f"an answer's markup ran: {dialogs}"


def misaligned(page: Page, elem_id: str) -> list[dict]:
    offsets = page.locator(f"#{elem_id}").evaluate(MISALIGNED_JS)
    assert offsets, f"#{elem_id} has no cells to compare"
    return [o for o in offsets if max(abs(o["left"]), abs(o["right"])) > ALIGNMENT_TOLERANCE_PX]


def fits(cell) -> bool:
    """Whether the cell's text is drawn whole inside it (not cut off with an ellipsis)."""
    return cell.evaluate("c => Array.from(c.querySelectorAll('*')).every(e => e.scrollWidth <= e.clientWidth + 1)")


@both_widths
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


@both_widths
def test_the_overview_headers_lie_over_their_columns(page: Page) -> None:
    open_tab(page, "All benchmarks")  # the ranking comes first; the overview is one click away
    page.locator("#overview-table").scroll_into_view_if_needed()
    assert misaligned(page, "overview-table") == []
    assert fits(page.locator('#overview-table [data-col="0"][data-row="0"]'))  # the whole id, not cut off
    shot(page, "overview-long-ids")


@both_widths
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
    open_tab(page, "Indic WritingBench v1")
    items = page.locator("#leaderboard-items [role=gridcell]")
    expect(items.first).to_be_visible()
    for script, letter in SCRIPT_SAMPLES.items():
        cell = page.locator("#leaderboard-items [role=gridcell] span.text", has_text=letter).first
        expect(cell).to_be_visible()
        marker = f"script-{script}"
        cell.evaluate("(el, marker) => el.setAttribute('data-probe', marker)", marker)
        fonts = drawn_with(page, f'[data-probe="{marker}"]')
        assert {"familyName": f"Noto Sans {script}", "isCustomFont": True} in [
            {"familyName": f["familyName"], "isCustomFont": f["isCustomFont"]} for f in fonts], fonts
    shot(page, "leaderboard-scripts")
    served = page.evaluate("() => Array.from(document.fonts).filter(f => f.status === 'loaded').map(f => f.family)")
    assert '"Board Noto"' in served or "Board Noto" in served
    # The files come from the app itself: nothing is fetched from elsewhere.
    url = page.evaluate("() => performance.getEntriesByType('resource').map(r => r.name).find(n => n.endsWith('.ttf'))")
    assert url and url.startswith(app.url) and httpx.get(url).status_code == 200


@both_widths
def test_answers_read_as_markdown_in_their_own_direction_and_markup_stays_text(page: Page) -> None:
    open_tab(page, "Indic WritingBench v1")
    expect(page.locator("#leaderboard-model input")).to_have_value(LONG_IDS[0])
    page.locator("#leaderboard-items [role=gridcell]").nth(2).click()
    answer = page.locator("#leaderboard-response .answer p").first
    expect(answer).to_contain_text(SHAHMUKHI_ANSWER.strip())
    assert answer.evaluate("el => getComputedStyle(el).direction") == "rtl"  # Shahmukhi reads right to left
    box, text = page.locator("#leaderboard-response .answer").bounding_box(), answer.evaluate(TEXT_BOX_JS)
    assert box and box["x"] + box["width"] - text["right"] < 20  # and sits against the right edge
    query = page.locator("#leaderboard-question textarea")
    expect(query).not_to_have_value("")
    assert query.evaluate("el => getComputedStyle(el).unicodeBidi") == "plaintext"
    choose(page, "leaderboard-compare", LONG_IDS[1])
    markup = page.locator("#leaderboard-second-response .answer")
    expect(markup).to_contain_text("<img src=x onerror=alert(1)> <script>alert(2)</script>")
    expect(markup.locator("strong")).to_have_text("Bold claim")  # markdown renders
    assert markup.locator("img, script").count() == 0
    assert markup.locator("p").first.evaluate("el => getComputedStyle(el).direction") == "ltr"
    criteria = page.locator("#leaderboard-parts section.criterion")
    expect(criteria).to_have_count(5)
    expect(criteria.first.locator("h4")).to_have_text(re.compile(r"^1\. .+: \d+/10$"))
    expect(criteria.first.locator("details li").first).to_be_hidden()  # the rubric is folded
    criteria.first.locator("summary").click()
    expect(criteria.first.locator("details li")).to_have_count(5)
    expect(criteria.first.locator("details li").first).to_be_visible()
    assert page.locator("#leaderboard-parts").evaluate("el => el.scrollWidth <= el.clientWidth")
    shot(page, "judgment-answers", full_page=True)


CONTRAST_JS = """([selector, pseudo]) => {
  const rgba = text => { const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number); return {r, g, b, a}; };
  const over = (top, bottom) => ({r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a),
                                  b: top.b * top.a + bottom.b * (1 - top.a), a: 1});
  const background = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c.a > 0) layers.push(c);
      if (c.a === 1) break;
    }
    return layers.reverse().reduce((under, layer) => over(layer, under), {r: 255, g: 255, b: 255, a: 1});
  };
  const luminance = c => {
    const [r, g, b] = [c.r, c.g, c.b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return Array.from(document.querySelectorAll(selector)).filter(el => el.offsetParent !== null).map(el => {
    const style = getComputedStyle(el, pseudo || null);
    const under = background(el);
    const text = over({...rgba(style.color), a: rgba(style.color).a * Number(style.opacity || 1)}, under);
    const [hi, lo] = [luminance(text), luminance(under)].sort((x, y) => y - x);
    return {text: (el.innerText || el.placeholder || "").trim().slice(0, 40), ratio: (hi + 0.05) / (lo + 0.05)};
  });
}"""
"""WCAG contrast of each visible element's text (or placeholder) against the colours painted beneath it."""
MIN_CONTRAST = 4.5
TEXT_SAMPLES = {
    "tabs": ("button[role=tab]", ""),
    "placeholders": ("#leaderboard-search textarea, #leaderboard-search input", "::placeholder"),
    "labels": ("[data-testid=block-info]", ""),
    "cells": ("#leaderboard-table [role=gridcell] span", ""),
    "updated": ("#leaderboard-last-updated p", ""),
}


def test_text_contrast_is_at_least_4_5_to_1(page: Page) -> None:
    """Each sample of text at a laptop's width, then in the same page narrowed to a phone's."""
    for viewport in (LAPTOP, PHONE):
        page.set_viewport_size(viewport)
        for sample, (selector, pseudo) in TEXT_SAMPLES.items():
            measured = page.evaluate(CONTRAST_JS, [selector, pseudo])
            assert measured, f"no visible {sample} to measure at {viewport['width']} px"
            low = [m for m in measured if m["ratio"] < MIN_CONTRAST]
            assert low == [], f"{sample} below {MIN_CONTRAST}:1 at {viewport['width']} px: {low}"


@pytest.mark.parametrize("page", [PHONE], indirect=True, ids=["390"])
def test_phone_touch_targets_are_at_least_24_px(page: Page) -> None:
    open_filters(page)  # the column groups' and filters' boxes sit in the folded filters
    sizes = page.locator("input[type=checkbox], input[type=radio]").evaluate_all(
        "els => els.filter(e => e.offsetParent !== null).map(e => { const r = e.getBoundingClientRect();"
        " return {id: e.closest('[id]').id, w: r.width, h: r.height}; })")
    assert sizes and [s for s in sizes if s["w"] < 24 or s["h"] < 24] == []


def test_keyboard_focus_moves_through_every_control_in_order(page: Page) -> None:
    open_filters(page)  # unfolded, its controls are in the focus order
    page.locator("#leaderboard-search textarea").focus()
    reached = []
    for _ in range(12):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("() => { const e = document.activeElement; const owner = e.closest('[id]');"
                                     " return e === document.body ? 'body' : (owner ? owner.id : e.tagName); }"))
    assert "body" not in reached, reached
    assert reached.index("leaderboard-sort-by") < reached.index("leaderboard-column-groups"), reached


EMPTY_BOARD_TABS = ("Indic WritingBench v1", "All benchmarks", "Indic QA", "Saraiki", "Compare", "Model",
                    "Submit", "About")
"""Every tab of the app as a fresh data folder shows it (benchmark tabs by their titles)."""
GRID_HEADERS_JS = """() => {
  const grids = {};
  for (const head of document.querySelectorAll('[role=columnheader]')) {
    if (head.offsetParent === null) continue;
    const block = head.closest('.block');
    const id = block ? block.id : '?';
    (grids[id] = grids[id] || []).push(head.title || head.innerText.trim());
  }
  return grids;
}"""
"""The headers of every grid on screen, by the id of its block."""


def drawn(page: Page) -> None:
    """Wait until the tab just chosen is drawn: a panel on screen, then two animation frames (its grids mount with
    it; Svelte applies the click's change before the next task)."""
    expect(page.locator("[role=tabpanel]:visible").first).to_be_visible()
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


@pytest.fixture(scope="module")
def empty_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """An app over a data folder with no runs (and no QA dataset), one for both viewports: nothing here writes."""
    root = tmp_path_factory.mktemp("empty")
    with running_app(root / "empty-data", root / "app.log") as server:
        yield server


def test_every_empty_grid_shows_its_real_headers_and_a_benchmark_without_data_says_what_to_set(
    browser: Browser, empty_app: AppServer
) -> None:
    opened = new_page(browser, LAPTOP, empty_app.url)
    expect(opened.locator("#leaderboard-empty-state")).to_be_visible()
    seen: dict[str, list[str]] = {}
    for tab in EMPTY_BOARD_TABS:
        open_tab(opened, tab)
        drawn(opened)
        seen.update(opened.evaluate(GRID_HEADERS_JS))
    placeholders = {grid: heads for grid, heads in seen.items()
                    if not heads or all(re.fullmatch(r"\d+", head) for head in heads)}
    assert placeholders == {}, f"grids with Gradio's placeholder headers: {placeholders}"
    assert seen["leaderboard-items"] == list(item_labels(INDIC_WRITING_BENCH).values())
    assert seen["overview-table"][:2] == ["Model", "Revision"]
    assert {"overview-table", "leaderboard-items", "qa-table", "qa-items", "queue-pending"} <= set(seen), sorted(seen)
    shot(opened, "empty-grids")
    open_tab(opened, "Indic QA")  # no QA_DATASET: the tab says what to set, Submit does not offer it
    expect(opened.locator("#qa-intro")).to_contain_text("set QA_DATASET")
    open_tab(opened, "Submit")
    expect(opened.locator("#submit-benchmarks")).to_contain_text("Saraiki")
    expect(opened.locator("#submit-benchmarks")).not_to_contain_text("Indic QA")
    opened.context.close()
