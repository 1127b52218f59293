"""The suite in a real browser: the landing view, the QA tab, and the submit form's benchmarks.

The app starts on a data folder in the one-benchmark layout (WritingBench runs directly under
`runs/`) plus QA runs in their own tree: the app moves the old folders into their tree at start,
and both boards show them.
"""

from __future__ import annotations

import re
import shutil
from typing import Iterator

import pandas as pd
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.short_labels import MAX_LABEL_CHARS
from tests.leaderboard.test_board_browser import LAPTOP, PHONE, open_tab
from tests.leaderboard.test_browser import UI_TIMEOUT_MS, BrowserPage, board_rows, cells, headers, open_ui, shot
from tests.support.apart import apart
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import open_breakdowns, open_plots
from tests.support.qa_runs import QaData, build_qa_runs
from tests.support.run_folders import EvaluatedData

SCRIPT_MODEL = "evil-org/<script>alert(1)</script>"


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QaData:
    return apart(build_qa_runs, tmp_path_factory.mktemp("qa"))


@pytest.fixture(scope="module")
def app(evaluated: EvaluatedData, qa: QaData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("suite-browser")
    runs = root / "data" / "runs"
    shutil.copytree(evaluated.runs_dir, runs)  # the old layout: runs/<org>__<name>/<revision>/
    shutil.copytree(qa.runs_dir, runs / INDIC_QA.name)
    env = {"LEADERBOARD_REFRESH_S": "2", "QA_DATASET": str(qa.dataset_dir)}
    with running_app(root / "data", root / "app.log", **env) as server:
        yield server


@pytest.fixture
def ui(app: AppServer, browser: Browser) -> Iterator[BrowserPage]:
    with open_ui(browser, app.url) as opened:
        yield opened


def test_the_landing_view_shows_each_benchmark_side_by_side_and_old_runs_still_load(
    ui: BrowserPage, app: AppServer, evaluated: EvaluatedData
) -> None:
    page = ui.page
    page.get_by_role("tab", name="All benchmarks").click()  # the ranking comes first; the overview is a click away
    # The 3 ranked WritingBench runs (partial and incomplete ones are not headlined) + weak-1b, QA only.
    expect(board_rows(page, "overview-table")).to_have_count(4)
    columns = headers(page, "overview-table")
    assert columns[:2] == ["Model", "Revision"]
    assert any(column.startswith("Indic WritingBench v1: Indic average") for column in columns)
    assert any(column.startswith("Indic QA: Judge accuracy") for column in columns)
    rows = {row[0]: row for row in cells(board_rows(page, "overview-table"))}
    assert rows["acme/strong-7b"][3] == "100.0"  # a percentage, one decimal
    assert rows["acme/strong-7b"][2] == f"{evaluated.summary('acme/strong-7b')['config_groups']['indic']:.2f}"
    assert rows["acme/weak-1b"][2] == ""  # not evaluated on WritingBench: blank, never zero
    assert "bharat/partial-1b" not in rows
    assert page.locator("#overview-table script").count() == 0 and SCRIPT_MODEL in rows
    # The WritingBench board reads the migrated folders as before.
    page.get_by_role("tab", name="Indic WritingBench v1").click()
    expect(board_rows(page)).to_have_count(3)
    assert not list((app.data_dir / "runs").glob("acme__*"))
    assert list((app.data_dir / "runs" / "indic_writing_bench").glob("acme__*/main/summary.json"))
    shot(page, "suite-landing")


def test_the_qa_tab_has_rankings_breakdowns_plots_items_and_downloads(ui: BrowserPage, qa: QaData, tmp_path) -> None:
    page = ui.page
    page.get_by_role("tab", name="Indic QA").click()
    expect(board_rows(page, "qa-table")).to_have_count(len(qa.folders))
    columns = headers(page, "qa-table")
    assert columns[:5] == ["Rank", "Model", "Judge accuracy %", "Rank range (95 %)", "95 % interval"]
    for label in ("Exact substring %", "Word overlap %", "Blank responses", "Overlap only (review)"):
        assert label in columns
    weak = next(row for row in cells(board_rows(page, "qa-table")) if row[columns.index("Model")] == "acme/weak-1b")
    assert weak[columns.index("Blank responses")] == "4" and weak[columns.index("Exact substring %")] == "55.6"
    assert weak[columns.index("Rank range (95 %)")] == "3"  # 0 % on the items the others answer right: surely 3rd

    open_breakdowns(page, "qa")
    expect(board_rows(page, "qa-breakdown")).to_have_count(len(qa.folders) * 3)  # three languages each
    page.locator("#qa-breakdown-group").get_by_label("Domain").check()
    expect(board_rows(page, "qa-breakdown")).to_have_count(len(qa.folders) * 5)
    open_plots(page, "qa")
    for plot in ("qa-plot-metrics", "qa-plot-languages"):
        expect(page.locator(f"#{plot} .main-svg").first).to_be_visible(timeout=UI_TIMEOUT_MS)

    items = board_rows(page, "qa-items")
    expect(items).to_have_count(9)  # the best model's items, chosen by default
    item_columns = headers(page, "qa-items")
    assert item_columns == ["Item", "Language", "Question", "Golden answer", "Answer", "Length (characters)", "Judge",
                            "Exact", "Overlap", "Judge's reason"]
    reasons = [row[item_columns.index("Judge's reason")] for row in cells(items)]
    assert all(reason.startswith("States ") for reason in reasons)

    page.locator("#qa-model input").click()
    page.get_by_role("option", name=SCRIPT_MODEL, exact=True).click()
    expect(items.first).to_contain_text("<script>alert(1)</script>")  # the chosen model's items replace the others
    expect(items).to_have_count(9)
    responses = [row[item_columns.index("Answer")] for row in cells(items)]
    assert set(responses) == {"<script>alert(1)</script>"}  # shown as text, never run
    assert page.locator("#qa-items script").count() == 0
    items.first.locator("[role=gridcell]").nth(2).click()  # a row opens its item
    expect(page.locator("#qa-response .answer")).to_have_text("<script>alert(1)</script>")  # markdown, HTML as text
    assert page.locator("#qa-response script").count() == 0
    expect(page.locator("#qa-verdict textarea")).to_have_value(re.compile(r"^Golden answer: .+\nJudge: wrong"))

    with page.expect_download() as info:
        page.locator("#qa-download-csv").click()
    saved = tmp_path / "items.csv"
    info.value.save_as(saved)
    assert len(pd.read_csv(saved, encoding="utf-8-sig")) == 9
    with page.expect_download() as info:
        page.locator("#qa-download-view").click()
    assert info.value.suggested_filename == "indic_qa-leaderboard.csv"
    shot(page, "qa-tab")


def test_the_submit_form_ticks_every_benchmark_with_a_dataset(ui: BrowserPage) -> None:
    page = ui.page
    page.get_by_role("tab", name="Submit").click()
    boxes = page.locator("#submit-benchmarks input[type=checkbox]")
    expect(boxes).to_have_count(len(BENCHMARKS))  # QA_DATASET is set; the others have a default
    assert all(boxes.nth(i).is_checked() for i in range(len(BENCHMARKS)))
    expect(page.locator("#submit-benchmarks")).to_contain_text("Indic QA")


def test_the_qa_rankings_search_filters_says_no_match_and_the_csv_and_link_follow(
    ui: BrowserPage, app: AppServer, qa: QaData, tmp_path
) -> None:
    page = ui.page
    page.get_by_role("tab", name="Indic QA").click()
    rows = board_rows(page, "qa-table")
    expect(rows).to_have_count(len(qa.folders))
    page.locator("#qa-search textarea").fill("WEAK; <script>")  # `;` between models, any case, markup as text
    expect(rows).to_have_count(2)
    model = headers(page, "qa-table").index("Model")
    assert sorted(row[model] for row in cells(rows)) == ["acme/weak-1b", SCRIPT_MODEL]
    page.wait_for_function("() => new URLSearchParams(location.search).get('qa_q') === 'WEAK; <script>'")
    with page.expect_download() as info:
        page.locator("#qa-download-view").click()
    saved = tmp_path / "searched.csv"
    info.value.save_as(saved)
    assert sorted(pd.read_csv(saved, encoding="utf-8-sig")["model"]) == ["acme/weak-1b", SCRIPT_MODEL]

    page.locator("#qa-search textarea").fill("no-such-model")
    expect(page.locator("#qa-no-match")).to_contain_text("No models match")
    expect(page.locator("#qa-table")).to_be_hidden()
    expect(page.locator("#qa-download-view")).to_be_visible()  # the empty view's CSV stays, as WritingBench's did
    expect(page.locator("#qa-filters-active")).to_contain_text("search")  # and the filter is named, with its reset
    shot(page, "qa-no-match")

    page.goto(f"{app.url}?tab=qa&qa_q=strong")  # the address as a link
    expect(page.locator("#qa-search textarea")).to_have_value("strong", timeout=UI_TIMEOUT_MS)
    expect(rows).to_have_count(1)
    assert cells(rows)[0][model] == "acme/strong-7b"


@pytest.fixture(params=[LAPTOP, PHONE], ids=["1440", "390"])
def sized(request: pytest.FixtureRequest, app: AppServer, browser: Browser) -> Iterator[Page]:
    """The app in a fresh page at a laptop's or a phone's width."""
    page = browser.new_context(viewport=request.param).new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    page.goto(app.url)
    expect(page.get_by_role("tab").first).to_be_visible(timeout=UI_TIMEOUT_MS)
    yield page
    page.context.close()


def ticks(page: Page, plot: str, axis: str = "y") -> Locator:
    """A drawn plot's tick labels on one axis (scrolled into view: plots draw when they come into view)."""
    page.locator(f"#{plot}").scroll_into_view_if_needed()
    expect(page.locator(f"#{plot} .main-svg").first).to_be_visible(timeout=UI_TIMEOUT_MS)
    return page.locator(f"#{plot} .{axis}tick text")


def assert_reads_right(page: Page, plot: str) -> None:
    """Labels short (the whole id is in the hover), a legend above the plot area, and on a phone a wide plot
    scrolling inside its block while the page does not scroll sideways."""
    labels = ticks(page, plot).all_text_contents()  # SVG text has no innerText
    assert labels and all(len(label) <= MAX_LABEL_CHARS + 8 for label in labels), labels
    area = page.locator(f"#{plot} .nsewdrag").first.bounding_box()
    legend = page.locator(f"#{plot} .legend")
    if legend.count():
        box = legend.first.bounding_box()
        assert area and box and box["y"] + box["height"] <= area["y"] + 1, (box, area)  # above, never over
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth + 1")


def test_the_qa_plots_follow_the_search_and_read_right(sized: Page, qa: QaData) -> None:
    page = sized
    open_tab(page, "Indic QA")
    expect(board_rows(page, "qa-table")).to_have_count(len(qa.folders))
    open_plots(page, "qa")
    expect(ticks(page, "qa-plot-headline")).to_have_count(len(qa.folders))
    languages = ticks(page, "qa-plot-languages", "x")
    expect(languages).to_have_count(3)  # every language named
    assert languages.all_text_contents() == ["english", "hindi", "tamil"]
    expect(ticks(page, "qa-plot-domains", "x")).to_have_count(5)
    page.locator("#qa-search textarea").fill("WEAK; <script>")
    expect(board_rows(page, "qa-table")).to_have_count(2)
    expect(ticks(page, "qa-plot-headline")).to_have_count(2)  # the plots follow the table
    expect(ticks(page, "qa-plot-languages")).to_have_count(2)
    expect(ticks(page, "qa-plot-metrics")).to_have_count(2)
    for plot in ("qa-plot-headline", "qa-plot-languages", "qa-plot-metrics"):
        assert_reads_right(page, plot)
    assert page.locator("#qa-plot-headline script").count() == 0
    heatmap = page.locator("#qa-plot-languages")
    if page.viewport_size["width"] < 500:  # a phone: the heatmap keeps its width and scrolls inside the page
        assert heatmap.evaluate("(block) => block.scrollWidth > block.clientWidth")
    shot(page, f"qa-plots-{page.viewport_size['width']}")


def test_a_link_ranks_qa_on_a_domain_with_the_subset_s_own_interval(sized: Page, app: AppServer, qa: QaData) -> None:
    page = sized
    details = pd.read_parquet(next(iter(qa.folders.values())).details_path)
    domain = str(details["domain"].value_counts().index[0])
    page.goto(f"{app.url}?tab=qa&qa_on_domain={domain}")
    lead = page.locator("#qa-table [role=columnheader]", has_text="Judge accuracy on the chosen groups %")
    expect(lead).to_have_count(1, timeout=UI_TIMEOUT_MS)
    assert headers(page, "qa-table")[2:5] == ["Judge accuracy on the chosen groups %", "Rank range (95 %)",
                                            "95 % interval"]
    expect(page.locator("#qa-ranking-rule")).to_contain_text(f"on the chosen groups ({domain}) alone")
    expect(page.locator("#qa-rank-domain").get_by_label(domain, exact=True)).to_be_checked()
    shown = [float(row[2]) for row in cells(board_rows(page, "qa-table"))]
    assert shown == sorted(shown, reverse=True) and len(shown) == len(qa.folders)
    page.locator("#qa-rank-domain").get_by_label(domain, exact=True).uncheck()  # back to the standard ranking
    expect(lead).to_have_count(0)
    expect(page.locator("#qa-ranking-rule")).to_have_text("")
    shot(page, f"qa-subset-{page.viewport_size['width']}")
