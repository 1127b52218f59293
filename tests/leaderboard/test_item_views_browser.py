"""The one item browser of QA and Saraiki in Chromium at 1440 and 390 px, with 100-character ids and Shahmukhi
text: a score link draws only the items (never another tab, nor the board above them), with the line saying how
many and their mean; the filters, the item in full beside another model's, a right-to-left question read from
its start."""

from __future__ import annotations

import re
from typing import Iterator
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.leaderboard.test_browser import board_rows, cells, choose, headers
from tests.support.apart import apart
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import both_widths, new_page, width_of
from tests.support.qa_runs import QA_PROFILES, QaProfile, build_qa_runs
from tests.support.saraiki_runs import SARAIKI_MODELS, build_saraiki_runs

SARAIKI_ID = ("bharat-collective-for-indic-language-technology/saraiki-instruct-sft-dpo-merged-long-context-"
              "v2-0007")
QA_ID = "bharat-collective-for-indic-language-technology/indic-qa-instruct-sft-dpo-merged-long-context-v2-007"
OTHER_VIEWS = "#leaderboard-table, #intro, #qa-table, #saraiki-table, #overview-table, [role=tablist]"
"""What a score link must never draw: another tab, the page's header and tab bar, the tab's own rankings."""
NEVER_DRAWN_JS = """selector => {
  window.__drawn = [];
  const look = () => {
    for (const element of document.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== "hidden") {
        window.__drawn.push(element.id || element.getAttribute("role"));
      }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""
"""Installed before the page loads: every frame, notes each element of `selector` that is drawn."""
FIRST_LETTER_JS = """cell => {
  const span = cell.querySelector(".cell-wrap > span") || cell;
  const text = span.firstChild && span.firstChild.nodeType === 3 ? span.firstChild : span.querySelector("*").firstChild;
  const range = document.createRange();
  range.setStart(text, 0); range.setEnd(text, 1);
  const letter = range.getBoundingClientRect(), box = cell.getBoundingClientRect();
  return {letterLeft: letter.left, letterRight: letter.right, left: box.left, right: box.right};
}"""
"""Where a cell's first letter is drawn, and the cell's edges."""


def run_id(model: str) -> str:
    return model.replace("/", "__") + "/main"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("item-views")
    assert len(SARAIKI_ID) == len(QA_ID) == 100
    apart(build_saraiki_runs, root, {**SARAIKI_MODELS, SARAIKI_ID: True})
    data = apart(build_qa_runs, root, (*QA_PROFILES, QaProfile(QA_ID, lambda question, golden: f"It is {golden}.")))
    with running_app(data.data_dir, root / "app.log") as server:
        yield server


@pytest.fixture
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, width_of(request))
    yield opened
    opened.context.close()


def open_score_link(page: Page, app: AppServer, query: dict[str, str]) -> None:
    """Open a score link's address as a new tab does, watching every frame for what it must not draw."""
    page.add_init_script(f"({NEVER_DRAWN_JS})({OTHER_VIEWS!r})")
    page.goto(f"{app.url}?{urlencode(query)}")


def assert_only_the_items_were_drawn(page: Page, tab: str) -> None:
    assert page.evaluate("() => window.__drawn") == [], "a score link drew another view before its items"
    browser = page.locator(f"#{tab}-item-browser").bounding_box()
    assert browser and browser["y"] < 200  # at the top of the window, nothing above it


@both_widths
def test_a_saraiki_score_link_draws_only_its_items_and_they_read_right(page: Page, app: AppServer) -> None:
    open_score_link(page, app, {"tab": "saraiki", "model": run_id(SARAIKI_ID), "task": "knowledge"})
    items = board_rows(page, "saraiki-items")
    expect(page.locator("#saraiki-linked-line")).to_contain_text(
        re.compile(r"\b\d+ items · mean \d+\.\d\d % \(the cell you clicked\) · the whole board"))
    expect(page.locator("#saraiki-model input")).to_have_value(SARAIKI_ID)  # 100 characters, never cut
    expect(page.locator("#saraiki-group input")).to_have_value("knowledge")
    expect(items.first).to_be_visible()
    names = headers(page, "saraiki-items")
    assert {row[names.index("Task")] for row in cells(items)} == {"knowledge"}
    assert_only_the_items_were_drawn(page, "saraiki")

    # A Shahmukhi question starts at its start: its first letter at the cell's right edge, inside the cell.
    question = items.first.locator("[role=gridcell]").nth(names.index("Question"))
    drawn = question.evaluate(FIRST_LETTER_JS)
    assert drawn["left"] - 1 <= drawn["letterLeft"] and drawn["letterRight"] <= drawn["right"] + 1, drawn
    assert drawn["right"] - drawn["letterRight"] < 24, f"the question does not start at the cell's right: {drawn}"

    # The item in full beside another model's answer to it.
    items.first.locator("[role=gridcell]").nth(2).click()
    expect(page.locator("#saraiki-panel-title textarea")).to_have_value(f"{SARAIKI_ID}")
    expect(page.locator("#saraiki-verdict textarea")).to_have_value(re.compile(r"^answer read: "))
    choose(page, "saraiki-compare", "acme/saraiki-chat-7b")
    expect(page.locator("#saraiki-second-panel-title textarea")).to_have_value("acme/saraiki-chat-7b")
    expect(page.locator("#saraiki-second-response .answer")).not_to_be_empty()
    expect(page.locator("#saraiki-paired")).to_contain_text("A − B")
    assert page.locator("#saraiki-item-browser").evaluate("el => el.scrollWidth <= el.clientWidth + 1")

    page.locator("#saraiki-linked-line a.whole-board").click()  # the whole board, drawn as usual
    expect(page).to_have_url(re.compile(r"/\?tab=saraiki$"))
    expect(page.locator("[role=tablist]").first).to_be_visible()


@both_widths
def test_a_qa_score_link_draws_only_its_items_filtered_by_language_and_domain(page: Page, app: AppServer) -> None:
    open_score_link(page, app, {"tab": "qa", "model": run_id(QA_ID), "config": "hindi"})
    items = board_rows(page, "qa-items")
    expect(page.locator("#qa-linked-line")).to_contain_text(
        re.compile(r"\b\d+ items · mean \d+\.\d\d % \(the cell you clicked\)"))
    expect(page.locator("#qa-model input")).to_have_value(QA_ID)
    expect(page.locator("#qa-group input")).to_have_value("hindi")
    expect(items.first).to_be_visible()
    names = headers(page, "qa-items")
    assert {row[names.index("Language")] for row in cells(items)} == {"hindi"}
    assert_only_the_items_were_drawn(page, "qa")
    items.first.locator("[role=gridcell]").nth(2).click()
    expect(page.locator("#qa-response .answer")).to_contain_text("It is ")
    expect(page.locator("#qa-verdict textarea")).to_have_value(re.compile(r"^Golden answer: "))
    choose(page, "qa-compare", "acme/reasoner-3b")
    expect(page.locator("#qa-second-panel-title textarea")).to_have_value("acme/reasoner-3b")
    expect(page.locator("#qa-second-response .answer")).not_to_be_empty()  # beside the first, as scored
    expect(page.locator("#qa-paired")).to_contain_text("A − B")
    page.wait_for_function("() => new URLSearchParams(location.search).get('qa_compare') === 'acme__reasoner-3b/main'")
