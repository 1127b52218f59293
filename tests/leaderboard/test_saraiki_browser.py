"""The Saraiki tab in a real browser: the rankings with each task apart, and the item browser."""

from __future__ import annotations

import re
from typing import Iterator

import pytest
from playwright.sync_api import Page, expect

from eval_backend.benchmarks.saraiki.board import ACCURACY_METRICS
from tests.leaderboard.test_board_browser import open_tab
from tests.leaderboard.test_browser import BrowserPage, board_rows, cells, choose, headers, shot
from tests.leaderboard.test_qa_browser import assert_reads_right, sized, ticks, ui  # noqa: F401 - fixtures, over `app`
from tests.support.apart import apart
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import open_plots
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


def test_the_saraiki_tab_ranks_each_task_apart_and_browses_items(
    ui: BrowserPage, saraiki: SaraikiData  # noqa: F811 - `ui` is the imported fixture
) -> None:
    page = ui.page
    page.get_by_role("tab", name="Saraiki").click()
    expect(board_rows(page, "saraiki-table")).to_have_count(len(saraiki.folders))
    columns = headers(page, "saraiki-table")
    assert columns[:5] == ["Rank", "Model", "Knowledge (5-shot) %", "Rank range (95 %)", "95 % interval"]
    for label in ("Prompts", "Mode", "Knowledge hard (5-shot) %", "Commonsense (5-shot) %", "Reading (5-shot) %",
                  "Math (8-shot) %", "Instruction following (prompt, strict) %", "Truthfulness (0-shot) %",
                  "Refusal rate (harmful) %", "Over-refusal rate (benign) % ↓"):
        assert label in columns
    rows = {row[columns.index("Model")]: row for row in cells(board_rows(page, "saraiki-table"))}
    assert rows[RAW_MODEL][columns.index("Prompts")] == "raw" and rows[RAW_MODEL][columns.index("Mode")] == "server"
    assert rows[RAW_MODEL][columns.index("Math (8-shot) %")] == "50.0"  # a percentage: one decimal
    assert rows[RAW_MODEL][columns.index("Rank range (95 %)")]  # ranked, with its range
    assert page.locator("#saraiki-table b").count() == 0  # a model id's markup stays text
    page.locator("#saraiki-search textarea").fill("<b>1b</b>")  # the QA tab's search, shared
    expect(board_rows(page, "saraiki-table")).to_have_count(1)
    page.locator("#saraiki-search textarea").fill("no-such-model")
    expect(page.locator("#saraiki-no-match")).to_contain_text("No models match")
    page.locator("#saraiki-search textarea").fill("")
    expect(board_rows(page, "saraiki-table")).to_have_count(len(saraiki.folders))

    items = board_rows(page, "saraiki-items")
    expect(items.first).to_be_visible()  # the first model's items, chosen by default
    assert headers(page, "saraiki-items") == ["Item", "Task", "Question", "Reply", "Length (characters)", "Answer read", "Expected", "Right?",
                                              "Instructions", "Refusal"]
    choose(page, "saraiki-group", "math")
    expect(items).to_have_count(4)
    chosen = cells(items)[1][0]  # the second row of the filtered list is the one opened
    items.nth(1).locator("[role=gridcell]").nth(2).click()
    expect(page.locator("#saraiki-verdict textarea")).to_have_value("answer read: 18 (wrong; expected 17)")
    expect(page.locator("#saraiki-question textarea")).to_have_value(re.compile(r"\nAnswer:$"))
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('saraiki_item') === '{chosen}'")
    expect(page.locator("#saraiki-shots textarea")).to_be_hidden()  # the few-shot examples are folded away
    page.locator("#saraiki-shots-panel").get_by_text("Few-shot examples of this item's prompt").click()
    expect(page.locator("#saraiki-shots textarea")).to_be_visible()
    assert page.locator("#saraiki-shots textarea").input_value().count("\nAnswer: ") == 8
    shot(page, "saraiki-tab")


def test_the_saraiki_plots_follow_the_search_and_keep_the_safety_rates_apart(
    sized: Page, saraiki: SaraikiData  # noqa: F811 - `sized` is the imported fixture
) -> None:
    page = sized
    assert len(LONG_ID) == 100
    open_tab(page, "Saraiki")
    expect(board_rows(page, "saraiki-table")).to_have_count(len(saraiki.folders))
    open_plots(page, "saraiki")
    for plot in ("saraiki-plot-headline", "saraiki-plot-tasks", "saraiki-plot-refusals", "saraiki-plot-over-refusals"):
        expect(ticks(page, plot)).to_have_count(len(saraiki.folders))
    tasks = ticks(page, "saraiki-plot-tasks", "x")
    expect(tasks).to_have_count(len(ACCURACY_METRICS))  # every task named, no refusal rate among them
    assert not any("efusal" in label for label in tasks.all_text_contents())
    expect(page.locator("#saraiki-plot-tasks")).not_to_contain_text("No figures")
    labels = ticks(page, "saraiki-plot-headline").all_text_contents()
    assert LONG_ID not in labels and any(label.startswith("bharat-coll…") for label in labels)  # short, whole on hover
    page.locator("#saraiki-search textarea").fill("bharat-collective")
    expect(board_rows(page, "saraiki-table")).to_have_count(1)
    for plot in ("saraiki-plot-headline", "saraiki-plot-tasks", "saraiki-plot-over-refusals"):
        expect(ticks(page, plot)).to_have_count(1)  # the plots follow the table
        assert_reads_right(page, plot)
    over = page.locator("#saraiki-plot-over-refusals")
    expect(over).to_contain_text("lower is better")
    if page.viewport_size["width"] < 500:  # a phone: the heatmap keeps its width and scrolls inside the page
        assert page.locator("#saraiki-plot-tasks").evaluate("(block) => block.scrollWidth > block.clientWidth")
    shot(page, f"saraiki-plots-{page.viewport_size['width']}")
