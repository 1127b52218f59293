"""Answer length and the style-controlled view on the QA tab, in Chromium at 1440 and 390 px.

The app (`app.py`) serves three QA runs the real engine scored (`qa_style_runs`): the verbose model's
100-character id, right only when it answers at length. The page must show each run's median length
in tokens in the ranking, a point per model on the length figure, the controlled ranking with the
engine's scores and rank ranges when chosen (and from a link), and About's section with the fit's
coefficients. Screenshots land in test-artifacts/.
"""

from __future__ import annotations

from typing import Iterator
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from gradio_client import Client
from playwright.sync_api import Browser, Page, expect

from eval_backend.statistics.style_control import Coefficient
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.style_ranking import style_board
from leaderboard.display import format_rank_range
from leaderboard.style_view import coefficient_text
from tests.leaderboard.test_board_browser import open_tab, shot
from tests.leaderboard.test_browser import UI_TIMEOUT_MS, board_rows, cells, headers
from tests.support.apart import apart
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import both_widths, new_page, open_plots, width_of
from tests.support.qa_runs import QaData
from tests.support.viewer_load import call_endpoint
from tests.support.qa_style_runs import STYLE_PROFILES, VERBOSE_ID, build_qa_style_runs

TAB = "qa"
ORDER = [profile.model_id for profile in STYLE_PROFILES]


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QaData:
    return apart(build_qa_style_runs, tmp_path_factory.mktemp("qa-style"))


@pytest.fixture(scope="module")
def app(qa: QaData) -> Iterator[AppServer]:
    with running_app(qa.data_dir, qa.data_dir.parent / "app.log", QA_DATASET=str(qa.dataset_dir)) as server:
        yield server


@pytest.fixture(scope="module")
def engine(qa: QaData):
    """The engine's own fit of the three runs, in STYLE_PROFILES' order."""
    return style_board([qa.folders[model] for model in ORDER])


@pytest.fixture
def page(request: pytest.FixtureRequest, app: AppServer, browser: Browser) -> Iterator[Page]:
    page = new_page(browser, width_of(request), app.url)
    expect(page.get_by_role("tab").first).to_be_visible(timeout=UI_TIMEOUT_MS)
    open_tab(page, "Indic QA")
    expect(board_rows(page, f"{TAB}-table")).to_have_count(3)
    yield page
    page.context.close()


def _rows(page: Page) -> dict[str, dict[str, str]]:
    names = headers(page, f"{TAB}-table")
    return {row[names.index("Model")]: dict(zip(names, row)) for row in cells(board_rows(page, f"{TAB}-table"))}


def _headline(page: Page, model: str):
    """The headline cell of `model`'s row (the third column: rank, model, headline lead every ranking)."""
    return board_rows(page, f"{TAB}-table").filter(has_text=model).locator("[role=gridcell]").nth(2)


def _shown(value: float) -> str:
    """A percentage as the board writes it: one decimal (31.0 reads 31.0)."""
    return f"{value:.1f}"


@both_widths
def test_the_ranking_shows_each_run_s_median_length_and_the_figure_a_point_per_model(page: Page, engine) -> None:
    rows = _rows(page)
    assert set(rows) == set(ORDER) and len(VERBOSE_ID) == 100
    for model, lengths in zip(ORDER, engine.lengths):
        assert rows[model]["Answer length (median)"] == f"{lengths.overall.median:g}"
        assert rows[model]["Length unit"] == "tokens"
    open_plots(page, TAB)
    plot = page.locator(f"#{TAB}-plot-length")
    plot.scroll_into_view_if_needed()
    expect(plot.locator(".main-svg").first).to_be_visible(timeout=UI_TIMEOUT_MS)
    expect(plot.locator(".scatterlayer .point")).to_have_count(3)
    expect(plot.locator(".xtitle")).to_have_text("median answer length (tokens)")
    box = plot.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= (page.viewport_size or {})["width"] + 1
    shot(page, "style-length-figure")


@both_widths
def test_choosing_the_controlled_view_shows_the_engine_s_scores_and_rank_ranges(
    page: Page, app: AppServer, engine
) -> None:
    control = engine.control.controlled
    page.locator(f"#{TAB}-style").get_by_text("controlled for answer length and style").click()
    note = page.locator(f"#{TAB}-style-note")
    expect(note).to_contain_text("Controlled for log answer length")
    verbose = ORDER.index(VERBOSE_ID)
    expect(_headline(page, VERBOSE_ID)).to_have_text(_shown(control.headlines[verbose]))
    rows = _rows(page)
    for position, model in enumerate(ORDER):
        row = rows[model]
        assert row["Judge accuracy %"] == _shown(control.headlines[position])
        assert row["Rank"] == str(control.rank[position])
        assert row["Rank range (95 %)"] == format_rank_range(control.rank_best[position], control.rank_worst[position])
    page.wait_for_function("() => new URLSearchParams(location.search).get('style') === 'controlled'")
    assert parse_qs(urlparse(page.url).query)["tab"] == [TAB]
    shot(page, "style-controlled")
    link = page.url
    page.goto(app.url)  # the seed's view again, then the link back to the controlled one
    page.goto(link)
    expect(page.locator(f"#{TAB}-style-note")).to_contain_text("Controlled for log answer length")
    expect(_headline(page, VERBOSE_ID)).to_have_text(_shown(control.headlines[verbose]))


@both_widths
def test_about_states_the_features_the_fit_and_its_coefficients_from_the_board(
    page: Page, app: AppServer, engine
) -> None:
    page.goto(f"{app.url}?tab=about#h-answer-length-and-style-control")
    heading = page.locator("#h-answer-length-and-style-control")
    expect(heading).to_be_visible(timeout=UI_TIMEOUT_MS)
    expect(page.locator("#style-text")).to_contain_text(f"{INDIC_QA.title}: log answer length")
    table = "style-coefficients"
    expect(board_rows(page, table)).to_have_count(4)  # all configs, then english, hindi, tamil
    names = headers(page, table)
    rows = [dict(zip(names, row)) for row in cells(board_rows(page, table))]
    assert [row["Configs"] for row in rows] == ["all configs", "english", "hindi", "tamil"]
    overall: Coefficient = engine.control.coefficients[0]
    assert rows[0]["Effect on the score (95 % interval)"] == coefficient_text(
        overall, "log-length unit", "percentage points")
    shot(page, "style-about")


def test_the_api_gives_either_reading_as_records(app: AppServer, engine) -> None:
    """`/benchmark_rankings`, called as an outside program would (gradio_client), and refused bad input by name."""
    client = Client(app.url, verbose=False)
    seed = client.predict(benchmark="indic_qa", api_name="/benchmark_rankings")
    controlled = client.predict(benchmark="indic_qa", style="controlled", api_name="/benchmark_rankings")
    assert (seed["style"], controlled["style"], controlled["uncontrolled"]) == ("seed", "controlled", "")
    control = engine.control.controlled
    by_model = {run["model"]: run for run in controlled["runs"]}
    for position, model in enumerate(ORDER):
        run = by_model[model]
        assert run["judge"] == pytest.approx(control.headlines[position])
        assert (run["rank"], run["rank_best"], run["rank_worst"]) == (
            control.rank[position], control.rank_best[position], control.rank_worst[position])
        assert run["median_length"] == engine.lengths[position].overall.median and run["length_unit"] == "tokens"
    assert {run["model"]: run["judge"] for run in seed["runs"]}[VERBOSE_ID] == pytest.approx(100 * 5 / 9)
    searched = client.predict(benchmark="indic_qa", search="terse", style="controlled", api_name="/benchmark_rankings")
    assert [run["model"] for run in searched["runs"]] == ["terse-lab/exact-7b"]
    with httpx.Client(base_url=app.url, timeout=60) as http:
        with pytest.raises(ValueError, match="style must be one of 'seed', 'controlled'"):
            call_endpoint(http, "benchmark_rankings", ["indic_qa", "", None, "sideways"])
        with pytest.raises(ValueError, match="benchmark must be one of"):
            call_endpoint(http, "benchmark_rankings", ["<b>nope</b>", "", None, "seed"])
