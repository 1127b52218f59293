"""Bad run folders beside good ones, in Chromium: every view still renders for every visitor and lists them.

The flagged board (all three benchmarks, 100-character ids, Shahmukhi and Indic text) with issue 40's cases
added: a WritingBench request.json written before `dataset_resolved_at` existed (a good folder), a
WritingBench details.parquet without `item_score`, a folder holding only a summary.json of `{}`, and a QA
run whose details.parquet holds an item twice. The ranking, All benchmarks, Plots and the QA tab render;
each bad folder is named, with its file and field, under "Run folders that could not be read".
"""

from __future__ import annotations

from typing import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.details import read_details, write_details
from eval_backend.run_folder import RunFolder
from tests.leaderboard.test_board_browser import open_tab, shot
from tests.leaderboard.test_browser import board_rows, cells, headers
from tests.support.apart import apart
from tests.support.app_server import AppServer, assert_no_traceback, running_app
from tests.support.browser_pages import LAPTOP, new_page, open_plots
from tests.support.flagged_runs import build_flagged_board
from tests.support.readable_runs import LONG_IDS

RANKED_RUNS = 7 - 1
"""The flagged board's ranked runs, less the one whose details.parquet lost its scores."""
NO_SCORES = "acme/short-1b"
EMPTY_SUMMARY = f"{LONG_IDS[1].replace('/', '__')}/sha-of-nothing"
PROBLEMS = "Run folders that could not be read"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("bad-folders")
    board = apart(build_flagged_board, root)  # Playwright's loop runs on this thread: the engine builds apart
    writing = board.data_dir / "runs" / DEFAULT_BENCHMARK
    old = RunFolder.for_model(writing, LONG_IDS[1], "main")
    old.write_request({k: v for k, v in old.read_request().items() if k != "dataset_resolved_at"})
    broken = RunFolder.for_model(writing, NO_SCORES, "main")
    write_details(read_details(broken.details_path).drop(columns="item_score"), broken.details_path)
    (writing / EMPTY_SUMMARY).mkdir(parents=True)
    (writing / EMPTY_SUMMARY / "summary.json").write_text("{}", encoding="utf-8")
    qa = sorted((board.data_dir / "runs" / INDIC_QA.name).glob("*/main"))[0]
    details = read_details(qa / "details.parquet")
    write_details(details.iloc[[*range(len(details)), 0]], qa / "details.parquet")
    with running_app(board.data_dir, root / "app.log", QA_DATASET=str(board.qa_dataset_dir)) as server:
        yield server
    assert_no_traceback(root / "app.log")  # no view raised on the server


@pytest.fixture
def page(app: AppServer, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, LAPTOP, app.url)
    opened.wait_for_selector("#leaderboard-table [role=gridcell]", timeout=60_000)  # a loaded machine renders late
    yield opened
    opened.context.close()


def _problems(page: Page) -> str:
    box = page.get_by_label(PROBLEMS).filter(visible=True).first
    expect(box).to_be_visible()
    return box.input_value()


def test_the_ranking_renders_without_the_bad_folders_and_names_them(page: Page) -> None:
    expect(board_rows(page)).to_have_count(RANKED_RUNS)
    models = [row[headers(page, "leaderboard-table").index("Model")] for row in cells(board_rows(page))]
    assert NO_SCORES not in models and LONG_IDS[1] in models  # the old request reads as before
    problems = _problems(page)
    assert "details.parquet" in problems and "'item_score'" in problems and NO_SCORES.replace("/", "__") in problems
    assert EMPTY_SUMMARY in problems and "'benchmark'" in problems
    shot(page, "bad-folders-ranking")


def test_all_benchmarks_plots_and_the_qa_tab_render_and_qa_names_its_bad_folder(page: Page) -> None:
    open_tab(page, "All benchmarks")
    expect(board_rows(page, "overview-table").first).to_be_visible()
    open_tab(page, "Indic WritingBench v1")
    open_plots(page, "leaderboard")
    expect(page.locator("#leaderboard-plot-overall .js-plotly-plot")).to_be_visible()
    open_tab(page, "Indic QA")
    expect(board_rows(page, "qa-table").first).to_be_visible()
    problems = _problems(page)
    assert "details.parquet" in problems and "appears 2 times" in problems
    shot(page, "bad-folders-qa")
