"""A benchmark with no tab code of its own gets its tab, in Chromium at 1440×900 (and 390×844 for its first screen).

The toy translation benchmark exists only in tests (`tests.support.toy_translation`): its run
folders are written by the engine's CLI, the app is `app.py` with the toy in the registry
(`tests.support.toy_app`), and the tab it shows is built from the toy's declarations alone:
ranked rows with rank ranges from the joint bootstrap, the incomplete run apart with why, its
items opened by a click and by a link. Screenshots land in test-artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, urlparse

import pandas as pd
import pytest
from playwright.sync_api import Browser, Page, expect

from leaderboard.row_flags import FEW_ITEMS, FEW_ITEMS_INTERVAL

from tests.leaderboard.test_board_browser import SEEN_JS, open_tab, shot
from tests.leaderboard.test_browser import UI_TIMEOUT_MS, board_rows, cells, choose, headers
from tests.leaderboard.test_readable_browser import misaligned
from tests.support.apart import apart
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import (LAPTOP, PHONE, new_page, open_breakdowns, open_filters, open_plots, resize,
                                         wait_until_laid_out)
from tests.support.toy_runs import ECHO, LIMITED, LONG_ID, TRANSLATOR, ToyData, build_toy_runs

TAB = "toy_translation"
TOY_APP = ("-m", "tests.support.toy_app")
LEAD_HEADERS = ["Rank", "Model", "Adequacy %", "Rank range (95 %)", "95 % interval"]


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> ToyData:
    return apart(build_toy_runs, tmp_path_factory.mktemp("toy-board"))


@pytest.fixture(scope="module")
def app(toy: ToyData) -> Iterator[AppServer]:
    with running_app(toy.data_dir, toy.data_dir.parent / "app.log", script=TOY_APP,
                     TOY_DATASET=str(toy.dataset_dir)) as server:
        yield server


def opened(browser: Browser, url: str, viewport: dict) -> Page:
    page = new_page(browser, viewport, url)
    expect(page.get_by_role("tab").first).to_be_visible(timeout=UI_TIMEOUT_MS)  # drawn: a tab may be opened
    return page


@pytest.fixture
def page(app: AppServer, browser: Browser) -> Iterator[Page]:
    page = opened(browser, app.url, LAPTOP)
    open_tab(page, "Toy translation")
    expect(board_rows(page, f"{TAB}-table")).to_have_count(3)
    yield page
    page.context.close()


RANKS = "its tab ranks the complete runs with rank ranges and lists the limited one apart"
FIRST_SCORE = "the first score is on screen and every header lies over its column"


def test_its_tab_ranks_the_complete_runs_lists_the_limited_one_apart_and_its_first_score_is_on_screen(
    page: Page, tmp_path: Path
) -> None:
    """One laptop page: the ranking, the run apart and the CSV; then where the first score lies, at this width and
    with the same page narrowed to a phone's (at 390 px the rank, the 100-character model and the headline fit
    without scrolling sideways: a layout that must hold however the page got its width)."""
    _assert_it_ranks_the_complete_runs(page, tmp_path)
    _assert_the_first_score_is_on_screen(page)
    resize(page, PHONE)
    _assert_the_first_score_is_on_screen(page)


def _assert_it_ranks_the_complete_runs(page: Page, tmp_path: Path) -> None:
    columns = headers(page, f"{TAB}-table")
    assert columns[:5] == LEAD_HEADERS and "chrF (score 0–100)" in columns, (RANKS, columns)
    rows = cells(board_rows(page, f"{TAB}-table"))
    assert [(row[0], row[1], row[3]) for row in rows] == [("1", LONG_ID, "1"), ("2", TRANSLATOR, "2"),
                                                           ("3", ECHO, "3")], (RANKS, rows)
    # 4 of 7 adequate; 3.5 items per language are too few for the interval ("57.1 – 57.1": each language's
    # verdicts are uniform) to mean anything, so it is not shown as a number.
    assert rows[1][2] == "57.1" and rows[1][4] == FEW_ITEMS_INTERVAL and rows[1][5] == FEW_ITEMS.badge, (
        RANKS, "the few-items run's score, interval and badge", rows[1])
    unranked = board_rows(page, f"{TAB}-unranked")
    expect(unranked, RANKS).to_have_count(1)
    assert cells(unranked)[0][:1] == [LIMITED], (RANKS, "the limited run apart")
    assert "incomplete: 2 of 7 items" in cells(unranked)[0], (RANKS, "and why")
    with page.expect_download() as info:
        page.locator(f"#{TAB}-download-view").click()
    info.value.save_as(tmp_path / "ranking.csv")
    ranking = pd.read_csv(tmp_path / "ranking.csv", encoding="utf-8-sig")
    ranked = ranking[ranking["standing"] == "ranked"]
    # The three runs share the dataset's revision.
    assert set(ranked["rank_rule"]) == {"joint bootstrap"}, (RANKS, "the CSV's rank rule")
    assert list(ranking["model"]) == [LONG_ID, TRANSLATOR, ECHO, LIMITED], (RANKS, "the CSV's runs")
    shot(page, "toy-tab")


def _assert_the_first_score_is_on_screen(page: Page) -> None:
    width = (page.viewport_size or {})["width"]
    claim = f"{FIRST_SCORE} (at {width} px)"
    page.locator(f"#{TAB}-table").scroll_into_view_if_needed()
    assert misaligned(page, f"{TAB}-table") == [], claim
    score = page.locator(f'#{TAB}-table [data-col="2"][data-row="0"]')
    box = score.bounding_box()
    assert box and box["x"] + box["width"] <= width, (claim, "the first score within the window", box)
    assert score.evaluate(SEEN_JS), f"{claim}: the first score is scrolled away or covered"
    shot(page, f"toy-first-score-{width}")


def test_an_item_opens_by_clicking_its_row_and_the_address_opens_it_again(page: Page, app: AppServer) -> None:
    choose(page, f"{TAB}-model", TRANSLATOR)
    items = board_rows(page, f"{TAB}-items")
    expect(items).to_have_count(7)
    answer = items.nth(4).locator("[role=gridcell]").nth(4)
    expect(answer).to_have_text("The sky is blue.")  # the chosen model's answer (echoed), not the first model's
    assert headers(page, f"{TAB}-items") == ["Item", "Config", "Source", "Reference", "Answer", "Length (characters)",
                                             "Adequacy", "chrF",
                                             "Adequacy reason"]
    choose(page, f"{TAB}-group", "tamil")
    expect(items).to_have_count(3)
    items.nth(1).locator("[role=gridcell]").nth(2).click()  # the second row of the filtered list: tamil:1
    expect(page.locator(f"#{TAB}-question textarea")).to_have_value("source: She sings well.\n"
                                                                   "reference: அவள் நன்றாகப் பாடுகிறாள்.")
    expect(page.locator(f"#{TAB}-response .answer")).to_have_text("She sings well.")  # echoed, not translated
    expect(page.locator(f"#{TAB}-verdict textarea")).to_have_value(re.compile(r"^Adequacy: 0\.0\nchrF: 1\.9\n"))
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('{TAB}_item') === 'tamil:1'")
    query = parse_qs(urlparse(page.url).query)
    assert query[f"{TAB}_model"] == ["acme__translator-1b/main"]
    link = page.url
    page.goto(app.url)
    page.goto(link)
    expect(page.locator(f"#{TAB}-response .answer")).to_have_text("She sings well.", timeout=UI_TIMEOUT_MS)
    shot(page, "toy-item")


@pytest.fixture(scope="module")
def empty_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The toy app over a data folder with no runs and no TOY_DATASET: nothing here writes."""
    root = tmp_path_factory.mktemp("empty")
    with running_app(root / "empty-data", root / "app.log", script=TOY_APP) as server:
        yield server


def test_with_no_runs_and_no_dataset_its_grids_show_their_headers_and_it_says_what_to_set(
    browser: Browser, empty_app: AppServer
) -> None:
    page = opened(browser, empty_app.url, LAPTOP)
    open_tab(page, "Toy translation")
    expect(page.locator(f"#{TAB}-intro")).to_contain_text("set TOY_DATASET")
    for table, first in ((f"{TAB}-table", LEAD_HEADERS), (f"{TAB}-items", ["Item", "Config", "Source"])):
        titles = page.locator(f"#{table} [role=columnheader]")
        expect(titles.first).to_have_attribute("title", first[0])
        assert titles.evaluate_all("hs => hs.map(h => h.title)")[:len(first)] == first
    shot(page, "toy-empty")
    page.context.close()


def test_its_two_breakdowns_rank_on_chosen_groups_and_its_plots_follow_the_search(page: Page) -> None:
    """Declared only (`toy_translation.TOY_BOARD`): both breakdowns, a ranking on one's groups that is the subset's,
    and every plot following the search, with the 100-character id shortened (whole on hover); at a laptop's width,
    then the same page narrowed to a phone's, where every plot still reads right."""
    from tests.leaderboard.test_qa_browser import ticks

    open_breakdowns(page, TAB)
    choices = page.locator(f"#{TAB}-breakdown-group")
    expect(choices.get_by_label("Sentence length", exact=True)).to_be_visible()
    choices.get_by_label("Sentence length", exact=True).check()
    expect(page.locator(f"#{TAB}-breakdown [role=columnheader]", has_text="Sentence length")).to_have_count(1)
    open_plots(page, TAB)
    expect(ticks(page, f"{TAB}-plot-headline")).to_have_count(3)
    expect(ticks(page, f"{TAB}-plot-languages", "x")).to_have_count(2)  # every language named
    expect(ticks(page, f"{TAB}-plot-lengths")).to_have_count(3)  # one bar group per run
    # Rank on the long sentences alone: the subset's figure, rank range and interval, and a line saying so.
    open_filters(page, TAB)  # the "rank on" boxes are folded with the filters
    page.locator(f"#{TAB}-rank-length").get_by_label("long", exact=True).check()
    lead = page.locator(f"#{TAB}-table [role=columnheader]", has_text="Adequacy on the chosen groups %")
    expect(lead).to_have_count(1)
    assert headers(page, f"{TAB}-table")[2:5] == ["Adequacy on the chosen groups %", "Rank range (95 %)",
                                                  "95 % interval"]
    expect(page.locator(f"#{TAB}-ranking-rule")).to_contain_text("on the chosen groups (long) alone")
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('{TAB}_on_length') === 'long'")
    # The translator renders Hindi only: on the long sentences (three Hindi, one Tamil) it has 75 %.
    rows = {row[1]: row[2] for row in cells(board_rows(page, f"{TAB}-table"))}
    assert any(TRANSLATOR in model for model in rows) and rows[next(m for m in rows if TRANSLATOR in m)] == "75.0"
    page.locator(f"#{TAB}-search textarea").fill("translat")
    expect(board_rows(page, f"{TAB}-table")).to_have_count(2)
    _assert_the_plots_follow_the_search(page)
    resize(page, PHONE)
    _assert_the_plots_follow_the_search(page)


def _assert_the_plots_follow_the_search(page: Page) -> None:
    from tests.leaderboard.test_qa_browser import assert_reads_right, ticks

    for plot in ("headline", "languages", "lengths"):  # each run a row of every plot
        expect(ticks(page, f"{TAB}-plot-{plot}")).to_have_count(2)
    wait_until_laid_out(page)
    for plot in ("headline", "languages", "lengths"):
        assert_reads_right(page, f"{TAB}-plot-{plot}")
    shot(page, f"toy-subset-{page.viewport_size['width']}")
