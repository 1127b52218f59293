"""The Saraiki tab in a real browser: the rankings with each task apart, and the item browser."""

from __future__ import annotations

import re
from typing import Iterator

import pytest
from playwright.sync_api import Page, expect

from eval_backend.benchmarks.saraiki.board import ACCURACY_METRICS
from tests.leaderboard.test_board_browser import open_tab
from tests.leaderboard.test_browser import BrowserPage, board_rows, cells, choose, headers, shot
from tests.leaderboard.test_qa_browser import (
    assert_reads_right,
    ticks,
    ui,  # noqa: F401 - a fixture, over this module's `app`
)
from tests.support.apart import apart
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import PHONE, open_plots, resize, wait_until_laid_out
from tests.support.saraiki_runs import SARAIKI_MODELS, SaraikiData, build_saraiki_runs

RAW_MODEL = "acme/base-<b>1b</b>"
LONG_ID = ("bharat-collective-for-indic-language-technology/saraiki-instruct-sft-dpo-merged-long-context-"
           "v2-0007")


@pytest.fixture(scope="module")
def saraiki(tmp_path_factory: pytest.TempPathFactory) -> SaraikiData:
    return apart(build_saraiki_runs, tmp_path_factory.mktemp("saraiki-board"), {**SARAIKI_MODELS, LONG_ID: True})


@pytest.fixture(scope="module")
def app(saraiki: SaraikiData) -> Iterator[AppServer]:
    with running_app(saraiki.data_dir, saraiki.data_dir.parent / "app.log", LEADERBOARD_REFRESH_S="2") as server:
        yield server


TAB = "the Saraiki tab ranks each task apart and browses items"
PLOTS = "the Saraiki plots follow the search and keep the safety rates apart"


def test_the_saraiki_tab_ranks_each_task_apart_browses_items_and_its_plots_follow_the_search(
    ui: BrowserPage, saraiki: SaraikiData  # noqa: F811 - `ui` is the imported fixture
) -> None:
    """One laptop page: the rankings (its search cleared again after use), the item browser, then the plots under a
    search, at a laptop's width and with the same page narrowed to a phone's (short labels, legends and a page no
    wider than the window are layout that must hold however the page got its width)."""
    page = ui.page
    _assert_the_tab_ranks_each_task_apart_and_browses_items(page, saraiki)
    _assert_the_plots_keep_the_safety_rates_apart(page, saraiki)
    page.locator("#saraiki-search textarea").fill("bharat-collective")
    expect(board_rows(page, "saraiki-table"), PLOTS).to_have_count(1)
    _assert_the_plots_follow_the_search(page)
    resize(page, PHONE)
    _assert_the_plots_follow_the_search(page)


def _assert_the_tab_ranks_each_task_apart_and_browses_items(page: Page, saraiki: SaraikiData) -> None:
    page.get_by_role("tab", name="Saraiki").click()
    expect(board_rows(page, "saraiki-table"), TAB).to_have_count(len(saraiki.folders))
    columns = headers(page, "saraiki-table")
    assert columns[:5] == ["Rank", "Model", "Knowledge (5-shot) %", "Rank range (95 %)", "95 % interval"], (
        TAB, columns)
    for label in ("Prompts", "Mode", "Knowledge hard (5-shot) %", "Commonsense (5-shot) %", "Reading (5-shot) %",
                  "Math (8-shot) %", "Instruction following (prompt, strict) %", "Truthfulness (0-shot) %",
                  "Refusal rate (harmful) %", "Over-refusal rate (benign) % ↓"):
        assert label in columns, (TAB, label)
    rows = {row[columns.index("Model")]: row for row in cells(board_rows(page, "saraiki-table"))}
    assert rows[RAW_MODEL][columns.index("Prompts")] == "raw" and rows[RAW_MODEL][columns.index("Mode")] == "server", (
        TAB, "the raw run's prompts and mode")
    assert rows[RAW_MODEL][columns.index("Math (8-shot) %")] == "50.0", (TAB, "a percentage: one decimal")
    assert rows[RAW_MODEL][columns.index("Rank range (95 %)")], (TAB, "ranked, with its range")
    assert page.locator("#saraiki-table b").count() == 0, (TAB, "a model id's markup stays text")
    page.locator("#saraiki-search textarea").fill("<b>1b</b>")  # the QA tab's search, shared
    expect(board_rows(page, "saraiki-table"), TAB).to_have_count(1)
    page.locator("#saraiki-search textarea").fill("no-such-model")
    expect(page.locator("#saraiki-no-match"), TAB).to_contain_text("No models match")
    page.locator("#saraiki-search textarea").fill("")
    expect(board_rows(page, "saraiki-table"), TAB).to_have_count(len(saraiki.folders))

    items = board_rows(page, "saraiki-items")
    expect(items.first, TAB).to_be_visible()  # the first model's items, chosen by default
    assert headers(page, "saraiki-items") == ["Item", "Task", "Question", "Reply", "Length (characters)", "Answer read",
                                              "Expected", "Right?", "Instructions", "Refusal"], TAB
    choose(page, "saraiki-group", "math")
    expect(items, TAB).to_have_count(4)
    chosen = cells(items)[1][0]  # the second row of the filtered list is the one opened
    items.nth(1).locator("[role=gridcell]").nth(2).click()
    expect(page.locator("#saraiki-verdict textarea"), TAB).to_have_value("answer read: 18 (wrong; expected 17)")
    expect(page.locator("#saraiki-question textarea"), TAB).to_have_value(re.compile(r"\nAnswer:$"))
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('saraiki_item') === '{chosen}'")
    expect(page.locator("#saraiki-shots textarea"), TAB).to_be_hidden()  # the few-shot examples are folded away
    page.locator("#saraiki-shots-panel").get_by_text("Few-shot examples of this item's prompt").click()
    expect(page.locator("#saraiki-shots textarea"), TAB).to_be_visible()
    assert page.locator("#saraiki-shots textarea").input_value().count("\nAnswer: ") == 8, (TAB, "eight shots")
    shot(page, "saraiki-tab")


def _assert_the_plots_keep_the_safety_rates_apart(page: Page, saraiki: SaraikiData) -> None:
    assert len(LONG_ID) == 100, (PLOTS, "a 100-character id")
    open_tab(page, "Saraiki")
    expect(board_rows(page, "saraiki-table"), PLOTS).to_have_count(len(saraiki.folders))
    open_plots(page, "saraiki")
    for plot in ("saraiki-plot-headline", "saraiki-plot-tasks", "saraiki-plot-refusals", "saraiki-plot-over-refusals"):
        expect(ticks(page, plot), f"{PLOTS}: {plot}").to_have_count(len(saraiki.folders))
    tasks = ticks(page, "saraiki-plot-tasks", "x")
    expect(tasks, PLOTS).to_have_count(len(ACCURACY_METRICS))  # every task named, no refusal rate among them
    assert not any("efusal" in label for label in tasks.all_text_contents()), (PLOTS, "no refusal rate as a task")
    expect(page.locator("#saraiki-plot-tasks"), PLOTS).not_to_contain_text("No figures")
    labels = ticks(page, "saraiki-plot-headline").all_text_contents()
    assert LONG_ID not in labels and any(label.startswith("bharat-coll…") for label in labels), (
        PLOTS, "short, whole on hover", labels)


def _assert_the_plots_follow_the_search(page: Page) -> None:
    width = (page.viewport_size or {})["width"]
    claim = f"{PLOTS} (at {width} px)"
    for plot in ("saraiki-plot-headline", "saraiki-plot-tasks", "saraiki-plot-over-refusals"):
        expect(ticks(page, plot), f"{claim}: {plot}").to_have_count(1)  # the plots follow the table
    wait_until_laid_out(page)
    for plot in ("saraiki-plot-headline", "saraiki-plot-tasks", "saraiki-plot-over-refusals"):
        assert_reads_right(page, plot)
    over = page.locator("#saraiki-plot-over-refusals")
    expect(over, claim).to_contain_text("lower is better")
    if width < 500:  # a phone: the heatmap keeps its width and scrolls inside the page
        assert page.locator("#saraiki-plot-tasks").evaluate("(block) => block.scrollWidth > block.clientWidth"), (
            claim, "the heatmap scrolls inside its block")
    shot(page, f"saraiki-plots-{width}")
