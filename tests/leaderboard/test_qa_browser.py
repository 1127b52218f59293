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
from tests.support.browser_pages import new_page, open_breakdowns, open_plots, resize, wait_until_laid_out
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


LANDING = "the landing view shows each benchmark side by side and old runs still load"
SUBMIT = "the submit form ticks every benchmark with a dataset"
QA_TAB = "the QA tab has rankings, breakdowns, plots, items and downloads"


def test_the_landing_view_the_submit_form_and_the_qa_tab_show_every_benchmark_s_runs(
    ui: BrowserPage, app: AppServer, evaluated: EvaluatedData, qa: QaData, tmp_path
) -> None:
    """One page read tab by tab: the overview and WritingBench's board (reading only), the submit form (reading
    only), then the QA tab, whose breakdowns, plots and items it drives."""
    _assert_the_landing_view_shows_each_benchmark(ui.page, app, evaluated)
    _assert_the_submit_form_ticks_every_benchmark(ui.page)
    _assert_the_qa_tab_has_its_views(ui.page, qa, tmp_path)


def _assert_the_landing_view_shows_each_benchmark(page: Page, app: AppServer, evaluated: EvaluatedData) -> None:
    page.get_by_role("tab", name="All benchmarks").click()  # the ranking comes first; the overview is a click away
    # The 3 ranked WritingBench runs (partial and incomplete ones are not headlined) + weak-1b, QA only.
    expect(board_rows(page, "overview-table"), LANDING).to_have_count(4)
    columns = headers(page, "overview-table")
    assert columns[:2] == ["Model", "Revision"], (LANDING, columns)
    assert any(column.startswith("Indic WritingBench v1: Indic average") for column in columns), (LANDING, columns)
    assert any(column.startswith("Indic QA: Judge accuracy") for column in columns), (LANDING, columns)
    rows = {row[0]: row for row in cells(board_rows(page, "overview-table"))}
    assert rows["acme/strong-7b"][3] == "100.0", (LANDING, "a percentage, one decimal")
    assert rows["acme/strong-7b"][2] == f"{evaluated.summary('acme/strong-7b')['config_groups']['indic']:.2f}", (
        LANDING, "WritingBench's Indic average")
    assert rows["acme/weak-1b"][2] == "", (LANDING, "not evaluated on WritingBench: blank, never zero")
    assert "bharat/partial-1b" not in rows, (LANDING, "a partial run is not headlined")
    assert page.locator("#overview-table script").count() == 0 and SCRIPT_MODEL in rows, (LANDING, "an id as text")
    # The WritingBench board reads the migrated folders as before.
    page.get_by_role("tab", name="Indic WritingBench v1").click()
    expect(board_rows(page), LANDING).to_have_count(3)
    assert not list((app.data_dir / "runs").glob("acme__*")), (LANDING, "the old folders moved")
    assert list((app.data_dir / "runs" / "indic_writing_bench").glob("acme__*/main/summary.json")), (
        LANDING, "into WritingBench's tree")
    shot(page, "suite-landing")


def _assert_the_submit_form_ticks_every_benchmark(page: Page) -> None:
    page.get_by_role("tab", name="Submit").click()
    boxes = page.locator("#submit-benchmarks input[type=checkbox]")
    expect(boxes, SUBMIT).to_have_count(len(BENCHMARKS))  # QA_DATASET is set; the others have a default
    assert all(boxes.nth(i).is_checked() for i in range(len(BENCHMARKS))), (SUBMIT, "every box ticked")
    expect(page.locator("#submit-benchmarks"), SUBMIT).to_contain_text("Indic QA")


def _assert_the_qa_tab_has_its_views(page: Page, qa: QaData, tmp_path) -> None:
    page.get_by_role("tab", name="Indic QA").click()
    expect(board_rows(page, "qa-table"), QA_TAB).to_have_count(len(qa.folders))
    columns = headers(page, "qa-table")
    assert columns[:5] == ["Rank", "Model", "Judge accuracy %", "Rank range (95 %)", "95 % interval"], (QA_TAB, columns)
    for label in ("Exact substring %", "Word overlap %", "Blank responses", "Overlap only (review)"):
        assert label in columns, (QA_TAB, label)
    weak = next(row for row in cells(board_rows(page, "qa-table")) if row[columns.index("Model")] == "acme/weak-1b")
    assert weak[columns.index("Blank responses")] == "4" and weak[columns.index("Exact substring %")] == "55.6", (
        QA_TAB, weak)
    # 0 % on the items the others answer right: surely 3rd.
    assert weak[columns.index("Rank range (95 %)")] == "3", (QA_TAB, "the weak run's rank range")

    open_breakdowns(page, "qa")
    expect(board_rows(page, "qa-breakdown"), QA_TAB).to_have_count(len(qa.folders) * 3)  # three languages each
    page.locator("#qa-breakdown-group").get_by_label("Domain").check()
    expect(board_rows(page, "qa-breakdown"), QA_TAB).to_have_count(len(qa.folders) * 5)
    open_plots(page, "qa")
    for plot in ("qa-plot-metrics", "qa-plot-languages"):
        expect(page.locator(f"#{plot} .main-svg").first, f"{QA_TAB}: {plot}").to_be_visible(timeout=UI_TIMEOUT_MS)

    items = board_rows(page, "qa-items")
    expect(items, QA_TAB).to_have_count(9)  # the best model's items, chosen by default
    item_columns = headers(page, "qa-items")
    assert item_columns == ["Item", "Language", "Question", "Golden answer", "Answer", "Length (characters)", "Judge",
                            "Exact", "Overlap", "Judge's reason"], (QA_TAB, item_columns)
    reasons = [row[item_columns.index("Judge's reason")] for row in cells(items)]
    assert all(reason.startswith("States ") for reason in reasons), (QA_TAB, reasons)

    page.locator("#qa-model input").click()
    page.get_by_role("option", name=SCRIPT_MODEL, exact=True).click()
    # The chosen model's items replace the others.
    expect(items.first, QA_TAB).to_contain_text("<script>alert(1)</script>")
    expect(items, QA_TAB).to_have_count(9)
    responses = [row[item_columns.index("Answer")] for row in cells(items)]
    assert set(responses) == {"<script>alert(1)</script>"}, (QA_TAB, "shown as text, never run")
    assert page.locator("#qa-items script").count() == 0, (QA_TAB, "no script element in the items")
    items.first.locator("[role=gridcell]").nth(2).click()  # a row opens its item
    # Markdown, HTML as text.
    expect(page.locator("#qa-response .answer"), QA_TAB).to_have_text("<script>alert(1)</script>")
    assert page.locator("#qa-response script").count() == 0, (QA_TAB, "no script element in the answer")
    expect(page.locator("#qa-verdict textarea"), QA_TAB).to_have_value(re.compile(r"^Golden answer: .+\nJudge: wrong"))

    with page.expect_download() as info:
        page.locator("#qa-download-csv").click()
    saved = tmp_path / "items.csv"
    info.value.save_as(saved)
    assert len(pd.read_csv(saved, encoding="utf-8-sig")) == 9, (QA_TAB, "the items' CSV")
    with page.expect_download() as info:
        page.locator("#qa-download-view").click()
    assert info.value.suggested_filename == "indic_qa-leaderboard.csv", (QA_TAB, "the ranking's CSV")
    shot(page, "qa-tab")


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


@pytest.fixture
def laptop(app: AppServer, browser: Browser) -> Iterator[Page]:
    """The app in a fresh page at a laptop's width (a test narrows it to a phone's where it checks layout)."""
    page = new_page(browser, LAPTOP, app.url)
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


PLOTS = "the QA plots follow the search and read right"
SUBSET = "a link ranks QA on a domain with the subset's own interval"


def test_the_qa_plots_follow_the_search_and_read_right_at_a_laptop_s_and_a_phone_s_width(
    laptop: Page, qa: QaData
) -> None:
    """Drawn at a laptop's width, then the same page narrowed to a phone's: labels, legends and the page's width
    are layout that must hold however the page got its width (the plots redraw on the window's resize)."""
    page = laptop
    open_tab(page, "Indic QA")
    expect(board_rows(page, "qa-table"), PLOTS).to_have_count(len(qa.folders))
    open_plots(page, "qa")
    expect(ticks(page, "qa-plot-headline"), PLOTS).to_have_count(len(qa.folders))
    languages = ticks(page, "qa-plot-languages", "x")
    expect(languages, PLOTS).to_have_count(3)  # every language named
    assert languages.all_text_contents() == ["english", "hindi", "tamil"], (PLOTS, "every language named")
    expect(ticks(page, "qa-plot-domains", "x"), PLOTS).to_have_count(5)
    page.locator("#qa-search textarea").fill("WEAK; <script>")
    expect(board_rows(page, "qa-table"), PLOTS).to_have_count(2)
    _assert_the_searched_plots_read_right(page)
    resize(page, PHONE)
    _assert_the_searched_plots_read_right(page)


def _assert_the_searched_plots_read_right(page: Page) -> None:
    width = (page.viewport_size or {})["width"]
    claim = f"{PLOTS} (at {width} px)"
    expect(ticks(page, "qa-plot-headline"), claim).to_have_count(2)  # the plots follow the table
    expect(ticks(page, "qa-plot-languages"), claim).to_have_count(2)
    expect(ticks(page, "qa-plot-metrics"), claim).to_have_count(2)
    wait_until_laid_out(page)
    for plot in ("qa-plot-headline", "qa-plot-languages", "qa-plot-metrics"):
        assert_reads_right(page, plot)
    assert page.locator("#qa-plot-headline script").count() == 0, (claim, "a label's markup stays text")
    heatmap = page.locator("#qa-plot-languages")
    if width < 500:  # a phone: the heatmap keeps its width and scrolls inside the page
        assert heatmap.evaluate("(block) => block.scrollWidth > block.clientWidth"), (claim, "the heatmap scrolls")
    shot(page, f"qa-plots-{width}")


def test_a_link_ranks_qa_on_a_domain_with_the_subset_s_own_interval(
    app: AppServer, browser: Browser, qa: QaData
) -> None:
    """The link opened at a laptop's width, then the same page narrowed to a phone's (what it checks is the same
    at any width: the link's reading, then the standard ranking back)."""
    details = pd.read_parquet(next(iter(qa.folders.values())).details_path)
    domain = str(details["domain"].value_counts().index[0])
    page = new_page(browser, LAPTOP, f"{app.url}?tab=qa&qa_on_domain={domain}")
    try:
        _assert_ranked_on_the_domain(page, qa, domain)
        resize(page, PHONE)
        _assert_ranked_on_the_domain(page, qa, domain)
        page.locator("#qa-rank-domain").get_by_label(domain, exact=True).uncheck()  # back to the standard ranking
        lead = page.locator("#qa-table [role=columnheader]", has_text="Judge accuracy on the chosen groups %")
        expect(lead, SUBSET).to_have_count(0)
        expect(page.locator("#qa-ranking-rule"), SUBSET).to_have_text("")
    finally:
        page.context.close()


def _assert_ranked_on_the_domain(page: Page, qa: QaData, domain: str) -> None:
    width = (page.viewport_size or {})["width"]
    claim = f"{SUBSET} (at {width} px)"
    lead = page.locator("#qa-table [role=columnheader]", has_text="Judge accuracy on the chosen groups %")
    expect(lead, claim).to_have_count(1, timeout=UI_TIMEOUT_MS)
    assert headers(page, "qa-table")[2:5] == ["Judge accuracy on the chosen groups %", "Rank range (95 %)",
                                            "95 % interval"], claim
    expect(page.locator("#qa-ranking-rule"), claim).to_contain_text(f"on the chosen groups ({domain}) alone")
    expect(page.locator("#qa-rank-domain").get_by_label(domain, exact=True), claim).to_be_checked()
    shown = [float(row[2]) for row in cells(board_rows(page, "qa-table"))]
    assert shown == sorted(shown, reverse=True) and len(shown) == len(qa.folders), (claim, shown)
    shot(page, f"qa-subset-{width}")
