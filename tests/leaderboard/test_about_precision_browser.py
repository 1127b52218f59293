"""In Chromium: About shows how precise each figure is, measured on the board's runs, as text."""

from __future__ import annotations

import shutil
from typing import Iterator

import pytest
from playwright.sync_api import Browser, expect

from leaderboard.precision import ALL_CONFIGS
from tests.leaderboard.test_browser import cells, open_ui, shot
from tests.support.app_server import AppServer, running_app
from tests.support.run_folders import EvaluatedData


@pytest.fixture(scope="module")
def app(evaluated: EvaluatedData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("about-precision")
    shutil.copytree(evaluated.data_dir, root / "data")
    with running_app(root / "data", root / "app.log", LOCAL_USER="browser-tester") as server:
        yield server


def test_about_shows_the_clusters_design_effect_and_detectable_difference_of_each_figure(
    app: AppServer, browser: Browser
) -> None:
    with open_ui(browser, f"{app.url}?tab=about") as ui:
        page = ui.page
        rows = page.locator("#figure-precision [role=row][aria-rowindex]:not([aria-rowindex='1'])")
        # Indic average: all configs + 3 languages; Overall: all configs + English (outside the Indic average)
        expect(rows).to_have_count(6, timeout=20_000)
        by_scope = {(row[1], row[2]): row for row in cells(rows)}
        indic = by_scope[("Indic average", ALL_CONFIGS)]
        assert indic[0] == "Indic WritingBench v1" and indic[3:6] == ["3", "18", "18"]  # runs, items, clusters
        assert float(indic[6]) == pytest.approx(1.0) and float(indic[8]) > 0  # each rubric its own here
        assert ("Indic average", "Hindi") in by_scope and ("Overall (every config)", "english_original") in by_scope
        expect(page.locator("#precision-text")).to_contain_text("Detectable difference (80 % power)")
        shot(page, "about-precision")
