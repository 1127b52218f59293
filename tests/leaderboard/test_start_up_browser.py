"""Bind first, render after: `app.py` answers before the board's first render, whatever it costs or however
it fails, and the page says so, then fills in by itself (Chromium).

The app is started as a Space starts it, through `app.main`, with the board's first table build made slow
or failing (`tests.support.slow_board_app`): the render Gradio once waited for inside its five seconds
of server start.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from leaderboard.board_readiness import PREPARING
from tests.leaderboard.test_board_browser import LAPTOP
from tests.leaderboard.test_browser import board_rows
from tests.support.app_server import running_app
from tests.support.run_folders import EvaluatedData
from tests.support.viewer_load import component_value, page_config

SLOW_APP = ("-m", "tests.support.slow_board_app")
BUILD_DELAY_S = 25
"""Longer than Gradio's five seconds of server start, which the first render used to count against."""
FILL_IN_MS = 120_000


def data_copy(evaluated: EvaluatedData, tmp_path: Path) -> Path:
    shutil.copytree(evaluated.data_dir, tmp_path / "data")
    return tmp_path / "data"


def test_a_slow_first_render_does_not_hold_the_server_and_the_page_fills_in_by_itself(
    evaluated: EvaluatedData, browser: Browser, tmp_path: Path,
) -> None:
    log = tmp_path / "app.log"
    with running_app(data_copy(evaluated, tmp_path), log, script=SLOW_APP, wait_for_board=False,
                     BOARD_BUILD_DELAY_S=str(BUILD_DELAY_S)) as app:
        early = page_config(httpx.get(app.url, timeout=30).text)
        # Served while the board was still being built: the page says so and holds no rows yet.
        assert str(component_value(early, "board-readiness")).startswith(PREPARING)
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.goto(app.url)
        expect(page.locator("#board-readiness")).to_contain_text("Preparing the board")
        expect(board_rows(page)).to_have_count(0)

        expect(board_rows(page)).to_have_count(len(evaluated.ranked_models()), timeout=FILL_IN_MS)  # no reload
        expect(page.locator("#board-readiness")).to_be_hidden()
        later = page_config(httpx.get(app.url, timeout=30).text)
        assert len(component_value(later, "leaderboard-table")["data"]) == len(evaluated.ranked_models())
        page.context.close()
    assert re.search(r"board ready: first view rendered \d+\.\d s after start", log.read_text())


def test_a_first_render_that_raises_leaves_a_serving_app_whose_page_names_the_problem(
    evaluated: EvaluatedData, browser: Browser, tmp_path: Path,
) -> None:
    with running_app(data_copy(evaluated, tmp_path), tmp_path / "app.log", script=SLOW_APP, wait_for_board=False,
                     BOARD_BUILD_FAILS="the board table could not be built") as app:
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.goto(app.url)
        note = page.locator("#board-readiness")
        expect(note).to_contain_text("Part of the board could not be shown", timeout=FILL_IN_MS)
        expect(note).to_contain_text("BoardBuildFailed: the board table could not be built")
        expect(page.locator("#intro")).to_be_visible()  # the rest of the page is served
        assert httpx.get(app.url, timeout=30).status_code == 200
        page.context.close()
