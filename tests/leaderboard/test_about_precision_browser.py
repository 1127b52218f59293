"""In Chromium: About shows how precise each figure is, measured on the board's runs, as text."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from leaderboard.precision import ALL_CONFIGS
from tests.leaderboard.test_browser import cells, open_ui, shot
from tests.support.app_server import AppServer


def test_about_shows_the_clusters_design_effect_and_detectable_difference_of_each_figure(
    board_app: AppServer, browser: Browser
) -> None:
    with open_ui(browser, f"{board_app.url}?tab=about") as ui:
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
