"""The board read right in Chromium at 1440×900, and in the same page narrowed to 390×844 where layout is checked:
100-character ids, Indic and Shahmukhi text.

Headers lie over their columns, whatever the ids. Screenshots land in test-artifacts/ (not committed).
"""

from __future__ import annotations

import re
from typing import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.leaderboard.test_board_browser import TEXT_BOX_JS, open_filters, open_tab, shot, width
from tests.leaderboard.test_browser import board_rows, choose
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from leaderboard.scored_tables import item_labels
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import LAPTOP, PHONE, new_page, resize, two_frames
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
def page(app: AppServer, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, LAPTOP)
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


def test_headers_lie_over_their_columns_a_100_character_id_reads_whole_and_text_contrasts_at_both_widths(
    page: Page
) -> None:
    """The ranking at a laptop's width, then the same page narrowed to a phone's, then the overview at both: the
    columns' widths and the colours are CSS (@media rules), so what holds must hold however the page got its width."""
    for viewport in (LAPTOP, PHONE):
        resize(page, viewport)
        text_contrasts(page)
        long_id_reads_whole(page)
        ranking_headers_lie_over_their_columns(page)
    open_tab(page, "All benchmarks")  # the ranking comes first; the overview is one click away
    for viewport in (PHONE, LAPTOP):
        resize(page, viewport)
        overview_headers_lie_over_their_columns(page)


def ranking_headers_lie_over_their_columns(page: Page) -> None:
    """Each header of the ranking lies over its column, scrolled to its first column and to its last."""
    at = f"at {width(page)} px"
    board = page.locator("#leaderboard-table")
    board.scroll_into_view_if_needed()
    viewport = page.locator("#leaderboard-table .virtual-table-viewport")
    viewport.evaluate("el => { el.scrollLeft = 0; }")  # where a page opens
    assert misaligned(page, "leaderboard-table") == [], f"headers over their columns {at}"
    shot(page, "aligned-long-ids")
    viewport.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    assert misaligned(page, "leaderboard-table") == [], f"scrolled to the last column too, {at}"
    last, frame = page.locator("#leaderboard-table [role=columnheader]").last.bounding_box(), viewport.bounding_box()
    assert last and frame and abs(last["x"] + last["width"] - (frame["x"] + frame["width"])) < 20, (
        f"no blank beyond the last column {at}")
    shot(page, "aligned-long-ids-scrolled")


def overview_headers_lie_over_their_columns(page: Page) -> None:
    """Each header of the overview lies over its column, and its first id is not cut off."""
    at = f"at {width(page)} px"
    page.locator("#overview-table").scroll_into_view_if_needed()
    assert misaligned(page, "overview-table") == [], f"the overview's headers over their columns {at}"
    assert fits(page.locator('#overview-table [data-col="0"][data-row="0"]')), f"the whole id, not cut off, {at}"
    shot(page, "overview-long-ids")


def long_id_reads_whole(page: Page) -> None:
    """A 100-character id wraps inside its cell and reads whole, with the full id on hover."""
    at = f"at {width(page)} px"
    cell = page.locator('#leaderboard-table [data-col="1"][data-row="0"]')
    assert cell.inner_text().strip() == LONG_IDS[0], f"the first row's id {at}"
    box, text = cell.bounding_box(), cell.locator("a").bounding_box()
    assert box and text and text["x"] >= box["x"] and text["x"] + text["width"] <= box["x"] + box["width"] + 1, (
        f"the id inside its cell {at}")
    assert fits(cell), f"the id drawn whole {at}"
    assert cell.locator("a").get_attribute("title") == LONG_IDS[0], "the full id on hover"


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


def test_every_script_is_drawn_with_the_app_s_noto_face_and_answers_read_in_their_own_direction(
    page: Page, app: AppServer
) -> None:
    """The items' scripts at a laptop's width; then an answer, its query, a compared answer's markup and the
    criteria at a laptop's width and in the same page narrowed to a phone's: their direction and wrapping are CSS."""
    open_tab(page, "Indic WritingBench v1")
    scripts_are_drawn_with_the_noto_face_the_app_serves(page, app)
    expect(page.locator("#leaderboard-model input"), "the first model's judgments").to_have_value(LONG_IDS[0])
    page.locator("#leaderboard-items [role=gridcell]").nth(2).click()
    expect(page.locator("#leaderboard-response .answer p").first, "the answer").to_contain_text(
        SHAHMUKHI_ANSWER.strip())
    choose(page, "leaderboard-compare", LONG_IDS[1])
    criteria = page.locator("#leaderboard-parts section.criterion")
    expect(criteria, "the criteria").to_have_count(5)
    expect(criteria.first.locator("details li").first, "the rubric is folded").to_be_hidden()
    criteria.first.locator("summary").click()
    answers_read_right(page)
    resize(page, PHONE)
    criteria.first.locator("summary").click()
    expect(criteria.first.locator("details li").first, "the rubric folds again on a phone").to_be_hidden()
    criteria.first.locator("summary").click()
    answers_read_right(page)


def scripts_are_drawn_with_the_noto_face_the_app_serves(page: Page, app: AppServer) -> None:
    """Each script of the items is drawn with its Noto face, a file the app itself serves."""
    items = page.locator("#leaderboard-items [role=gridcell]")
    expect(items.first, "the items").to_be_visible()
    for script, letter in SCRIPT_SAMPLES.items():
        cell = page.locator("#leaderboard-items [role=gridcell] span.text", has_text=letter).first
        expect(cell, f"an item in {script}").to_be_visible()
        marker = f"script-{script}"
        cell.evaluate("(el, marker) => el.setAttribute('data-probe', marker)", marker)
        fonts = drawn_with(page, f'[data-probe="{marker}"]')
        assert {"familyName": f"Noto Sans {script}", "isCustomFont": True} in [
            {"familyName": f["familyName"], "isCustomFont": f["isCustomFont"]} for f in fonts], fonts
    shot(page, "leaderboard-scripts")
    served = page.evaluate("() => Array.from(document.fonts).filter(f => f.status === 'loaded').map(f => f.family)")
    assert '"Board Noto"' in served or "Board Noto" in served, f"the app's face loaded: {served}"
    # The files come from the app itself: nothing is fetched from elsewhere.
    url = page.evaluate("() => performance.getEntriesByType('resource').map(r => r.name).find(n => n.endsWith('.ttf'))")
    assert url and url.startswith(app.url) and httpx.get(url).status_code == 200, f"a font from the app: {url}"


def answers_read_right(page: Page) -> None:
    """The answer reads as markdown in its own direction, the query in its own, markup stays text, and the unfolded
    criteria fit the page's width."""
    at = f"at {width(page)} px"
    answer = page.locator("#leaderboard-response .answer p").first
    expect(answer, f"the Shahmukhi answer {at}").to_contain_text(SHAHMUKHI_ANSWER.strip())
    assert answer.evaluate("el => getComputedStyle(el).direction") == "rtl", f"Shahmukhi reads right to left {at}"
    box, text = page.locator("#leaderboard-response .answer").bounding_box(), answer.evaluate(TEXT_BOX_JS)
    assert box and box["x"] + box["width"] - text["right"] < 20, f"and sits against the right edge {at}"
    query = page.locator("#leaderboard-question textarea")
    expect(query, f"the query {at}").not_to_have_value("")
    assert query.evaluate("el => getComputedStyle(el).unicodeBidi") == "plaintext", f"the query's direction {at}"
    markup = page.locator("#leaderboard-second-response .answer")
    expect(markup, f"the compared answer's markup as text {at}").to_contain_text(
        "<img src=x onerror=alert(1)> <script>alert(2)</script>")
    expect(markup.locator("strong"), f"markdown renders {at}").to_have_text("Bold claim")
    assert markup.locator("img, script").count() == 0, f"no element from the answer's markup {at}"
    assert markup.locator("p").first.evaluate("el => getComputedStyle(el).direction") == "ltr", f"ltr answer {at}"
    criteria = page.locator("#leaderboard-parts section.criterion")
    expect(criteria, f"the criteria {at}").to_have_count(5)
    expect(criteria.first.locator("h4"), f"a criterion's score {at}").to_have_text(re.compile(r"^1\. .+: \d+/10$"))
    expect(criteria.first.locator("details li"), f"the unfolded rubric's levels {at}").to_have_count(5)
    expect(criteria.first.locator("details li").first, f"the rubric unfolds {at}").to_be_visible()
    assert page.locator("#leaderboard-parts").evaluate("el => el.scrollWidth <= el.clientWidth"), (
        f"the criteria fit without scrolling sideways {at}")
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


def text_contrasts(page: Page) -> None:
    """Each sample of text has a contrast of at least 4.5:1 against what is painted beneath it."""
    at = f"at {width(page)} px"
    for sample, (selector, pseudo) in TEXT_SAMPLES.items():
        measured = page.evaluate(CONTRAST_JS, [selector, pseudo])
        assert measured, f"no visible {sample} to measure {at}"
        low = [m for m in measured if m["ratio"] < MIN_CONTRAST]
        assert low == [], f"{sample} below {MIN_CONTRAST}:1 {at}: {low}"


def test_keyboard_focus_moves_through_every_control_in_order_and_a_phone_s_touch_targets_are_24_px(
    page: Page
) -> None:
    """The focus order at a laptop's width; the tick boxes' size in the same page narrowed to a phone's (an @media
    rule sizes them, however the page got its width)."""
    open_filters(page)  # unfolded, its controls are in the focus order; its boxes are the touch targets
    page.locator("#leaderboard-search textarea").focus()
    reached = []
    for _ in range(12):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("() => { const e = document.activeElement; const owner = e.closest('[id]');"
                                     " return e === document.body ? 'body' : (owner ? owner.id : e.tagName); }"))
    assert "body" not in reached, f"the focus never falls back to the page: {reached}"
    assert reached.index("leaderboard-sort-by") < reached.index("leaderboard-column-groups"), (
        f"sort before column groups: {reached}")
    resize(page, PHONE)
    sizes = page.locator("input[type=checkbox], input[type=radio]").evaluate_all(
        "els => els.filter(e => e.offsetParent !== null).map(e => { const r = e.getBoundingClientRect();"
        " return {id: e.closest('[id]').id, w: r.width, h: r.height}; })")
    assert sizes and [s for s in sizes if s["w"] < 24 or s["h"] < 24] == [], f"a phone's touch targets: {sizes}"


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
    two_frames(page)


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
