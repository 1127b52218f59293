"""Answer length and the style-controlled view on the QA and WritingBench tabs, in Chromium at 1440 and 390 px.

One app (`app.py`) serves one data folder holding both benchmarks' runs, each scored by the real engine:
three QA runs (`qa_style_runs`: the verbose model's 100-character id, right only when it answers at
length) and four WritingBench runs (`writing_bench_style_runs`: answers in Devanagari, Tamil and Bengali
whose length and markdown vary item by item, a judge that rewards length, the verbose model's
100-character id first as judged and third once controlled). Each tab must show each run's median length
in the ranking, a point per model on the length figure, the controlled ranking with the engine's scores
and rank ranges when chosen (and from a link); About, the fit's coefficients of both benchmarks.
Screenshots land in test-artifacts/.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from gradio_client import Client
from playwright.sync_api import Browser, Page, expect

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from eval_backend.run_folder import RunFolder
from eval_backend.statistics.style_control import Coefficient
from eval_backend.style_ranking import StyleBoard, style_board
from leaderboard.display import format_rank_range
from leaderboard.style_view import ALL_CONFIGS, coefficient_text
from tests.leaderboard.test_board_browser import open_tab, shot
from tests.leaderboard.test_browser import UI_TIMEOUT_MS, board_rows, cells, headers
from tests.support.apart import apart
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import LAPTOP, PHONE, new_page, open_plots, resize
from tests.support.qa_runs import QaData
from tests.support.qa_style_runs import STYLE_PROFILES, VERBOSE_ID, build_qa_style_runs
from tests.support.run_folders import EvaluatedData
from tests.support.viewer_load import call_endpoint
from tests.support.writing_bench_style_runs import CONCISE_ID, WB_STYLE_PROFILES, build_writing_bench_style_runs
from tests.support.writing_bench_style_runs import VERBOSE_ID as WB_VERBOSE_ID

TAB = "qa"
ORDER = [profile.model_id for profile in STYLE_PROFILES]
CONTROLLED_NOTE = "Controlled for log answer length"
LINKED_TIMEOUT_MS = 3 * UI_TIMEOUT_MS
"""A view opened from an address waits on the server's first render of the whole board (both benchmarks' tabs,
figures and About) before the link's tab and reading apply: a loaded machine takes tens of seconds."""


@dataclass(frozen=True)
class Side:
    """One benchmark of the board as a reader sees it: its tab, its runs (in the engine fit's order), the verbose
    model's 100-character id, the headline's column header and decimals, the board's length unit."""

    benchmark: Benchmark
    tab: str
    order: tuple[str, ...]
    verbose: str
    headline: str
    decimals: int
    unit: str

    def shown(self, value: float) -> str:
        """A headline as the board writes it (QA's percentage one decimal: 31.0; WritingBench's score two: 6.60)."""
        return f"{value:.{self.decimals}f}"


SIDES = {
    INDIC_QA.name: Side(INDIC_QA, TAB, tuple(ORDER), VERBOSE_ID, "Judge accuracy %", 1, "tokens"),
    INDIC_WRITING_BENCH.name: Side(INDIC_WRITING_BENCH, "leaderboard",
                                   tuple(profile.model_id for profile in WB_STYLE_PROFILES), WB_VERBOSE_ID,
                                   "Indic average (score 1–10)", 2, "characters"),
}
"""The QA runs report token counts; WritingBench's were imported as text: its board reads in characters."""


@dataclass(frozen=True)
class StyleData:
    """The one data folder holding both benchmarks' runs, and each benchmark's run folders by model id."""

    qa: QaData
    writing: EvaluatedData

    def folders(self, benchmark: str) -> Mapping[str, RunFolder]:
        return self.qa.folders if benchmark == INDIC_QA.name else self.writing.folders


def _build(root: Path) -> StyleData:
    """Both benchmarks' runs under `root/data` (their datasets beside it: `qa-dataset/`, `dataset/`)."""
    qa = build_qa_style_runs(root)
    writing = build_writing_bench_style_runs(root)
    assert qa.data_dir == writing.data_dir
    return StyleData(qa, writing)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> StyleData:
    return apart(_build, tmp_path_factory.mktemp("style"))


@pytest.fixture(scope="module")
def app(data: StyleData) -> Iterator[AppServer]:
    with running_app(data.qa.data_dir, data.qa.data_dir.parent / "app.log",
                     QA_DATASET=str(data.qa.dataset_dir)) as server:
        yield server


@pytest.fixture(scope="module")
def engines(data: StyleData) -> dict[str, StyleBoard]:
    """The engine's own fit of each benchmark's runs, in its Side's order."""
    return {name: style_board([data.folders(name)[model] for model in side.order]) for name, side in SIDES.items()}


@pytest.fixture(params=list(SIDES), ids=["qa", "writing-bench"])
def side(request: pytest.FixtureRequest) -> Side:
    return SIDES[request.param]


@pytest.fixture
def engine(side: Side, engines: dict[str, StyleBoard]) -> StyleBoard:
    return engines[side.benchmark.name]


@pytest.fixture
def page(app: AppServer, browser: Browser, side: Side) -> Iterator[Page]:
    """The side's tab at a laptop's width, its ranking drawn."""
    page = new_page(browser, LAPTOP, app.url)
    expect(page.get_by_role("tab").first).to_be_visible(timeout=UI_TIMEOUT_MS)
    open_tab(page, side.benchmark.title)
    expect(board_rows(page, f"{side.tab}-table")).to_have_count(len(side.order))
    yield page
    page.context.close()


@pytest.fixture
def about(app: AppServer, browser: Browser) -> Iterator[Page]:
    """About's style section, opened from its address at a laptop's width."""
    page = new_page(browser, LAPTOP, f"{app.url}?tab=about#h-answer-length-and-style-control")
    yield page
    page.context.close()


def _rows(page: Page, side: Side) -> dict[str, dict[str, str]]:
    names = headers(page, f"{side.tab}-table")
    return {row[names.index("Model")]: dict(zip(names, row)) for row in cells(board_rows(page, f"{side.tab}-table"))}


def _headline(page: Page, side: Side, model: str):
    """The headline cell of `model`'s row (the third column: rank, model, headline lead every ranking)."""
    return board_rows(page, f"{side.tab}-table").filter(has_text=model).locator("[role=gridcell]").nth(2)


def _check_lengths_and_figure(page: Page, side: Side, engine: StyleBoard) -> None:
    rows = _rows(page, side)
    assert set(rows) == set(side.order) and len(side.verbose) == 100
    for model, lengths in zip(side.order, engine.lengths):
        assert rows[model]["Answer length (median)"] == f"{lengths.overall.median:g}"
        assert rows[model]["Length unit"] == side.unit
    open_plots(page, side.tab)
    plot = page.locator(f"#{side.tab}-plot-length")
    plot.scroll_into_view_if_needed()
    expect(plot.locator(".main-svg").first).to_be_visible(timeout=UI_TIMEOUT_MS)
    expect(plot.locator(".scatterlayer .point")).to_have_count(len(side.order))
    expect(plot.locator(".xtitle")).to_have_text(f"median answer length ({side.unit})")
    # A page narrowed after it was drawn lays its figure out again when the resize event reaches it.
    page.wait_for_function("plot => { const box = plot.getBoundingClientRect();"
                           " return box.x >= 0 && box.right <= window.innerWidth + 1; }", arg=plot.element_handle())
    box = plot.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= (page.viewport_size or {})["width"] + 1
    hovers = _hover_texts(page, plot)
    assert all(sum(model in text for text in hovers) == 1 for model in side.order), "\n".join(hovers)  # whole ids, each once
    shot(page, f"style-length-figure-{side.tab}")


def _hover_texts(page: Page, plot) -> list[str]:
    """What the figure's hover label says over each of its points, pointed at in turn."""
    texts = []
    label = plot.locator(".hoverlayer .hovertext")
    for point in plot.locator(".scatterlayer .point").all():
        point.scroll_into_view_if_needed()  # the plots draw once unfolded: the page below them may still be moving
        box = point.bounding_box()
        assert box, "a point the pointer cannot reach"
        page.mouse.move(0, 0)  # away first: the last point's label goes, so the next one read is this point's
        expect(label).to_have_count(0)
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(label).to_have_count(1)
        texts.append(label.text_content() or "")
    return texts


def _check_seed_s(page: Page, side: Side, engine: StyleBoard) -> None:
    """The verbose model's headline as the seed scores it (the engine's raw reading), not controlled."""
    verbose = side.order.index(side.verbose)
    expect(_headline(page, side, side.verbose)).to_have_text(side.shown(engine.control.raw.headlines[verbose]))
    expect(page.locator(f"#{side.tab}-style-note")).to_be_hidden()


def _check_controlled(page: Page, side: Side, engine: StyleBoard) -> None:
    """The table as the engine's controlled ranking has it: scores, ranks and rank ranges, best first."""
    control = engine.control.controlled
    verbose = side.order.index(side.verbose)
    expect(_headline(page, side, side.verbose)).to_have_text(side.shown(control.headlines[verbose]))
    rows = _rows(page, side)
    assert list(rows) == sorted(side.order, key=lambda model: (control.rank[side.order.index(model)], model))
    for position, model in enumerate(side.order):
        row = rows[model]
        assert row[side.headline] == side.shown(control.headlines[position])
        assert row["Rank"] == str(control.rank[position])
        assert row["Rank range (95 %)"] == format_rank_range(control.rank_best[position], control.rank_worst[position])


def test_the_tab_shows_lengths_the_figure_and_the_controlled_view_when_chosen_and_from_its_link(
    page: Page, browser: Browser, side: Side, engine: StyleBoard
) -> None:
    """At a laptop's width, then the same page narrowed to a phone's (the figure must fit and its points tell their
    whole ids however the page got its width); the link opened afresh at a phone's width."""
    _check_lengths_and_figure(page, side, engine)
    _check_seed_s(page, side, engine)
    page.locator(f"#{side.tab}-style").get_by_text("controlled for answer length and style").click()
    expect(page.locator(f"#{side.tab}-style-note")).to_contain_text(CONTROLLED_NOTE)
    _check_controlled(page, side, engine)
    page.wait_for_function("() => new URLSearchParams(location.search).get('style') === 'controlled'")
    assert parse_qs(urlparse(page.url).query)["tab"] == [side.tab]
    shot(page, f"style-controlled-{side.tab}")
    resize(page, PHONE)
    _check_lengths_and_figure(page, side, engine)
    _check_controlled(page, side, engine)
    linked = new_page(browser, PHONE, page.url)  # the address alone, in a fresh context
    try:
        expect(linked.locator(f"#{side.tab}-style-note")).to_contain_text(CONTROLLED_NOTE, timeout=LINKED_TIMEOUT_MS)
        _check_controlled(linked, side, engine)
    finally:
        linked.context.close()


def test_writing_bench_s_judge_rewards_length_so_the_controlled_order_differs_from_the_seed_s(
    engines: dict[str, StyleBoard],
) -> None:
    """The WritingBench runs are what the browser test needs: the verbose model first as judged, the concise one
    first once controlled, and the fit finds the judge's reward of length (1.5 points per log-length unit)."""
    board = engines[INDIC_WRITING_BENCH.name]
    order = list(SIDES[INDIC_WRITING_BENCH.name].order)
    raw, controlled = board.control.raw, board.control.controlled
    assert order[list(raw.rank).index(1)] == WB_VERBOSE_ID
    assert order[list(controlled.rank).index(1)] == CONCISE_ID
    length = board.control.coefficients[0]
    assert length.feature == "log_length" and length.low < 1.5 < length.high
    assert {lengths.unit for lengths in board.lengths} == {"characters"}


def _coefficient_rows(page: Page) -> list[dict[str, str]]:
    names = headers(page, "style-coefficients")
    return [dict(zip(names, row)) for row in cells(board_rows(page, "style-coefficients"))]


def _expected_coefficients(board: StyleBoard, scopes: list[str]) -> list[tuple[str, str, str]]:
    """(configs, feature, effect) as About writes them from the engine's fit: all configs, then per config."""
    units = {feature.name: feature.unit for feature in board.features}
    fits = [board.control.coefficients, *board.control.stratum_coefficients]
    return [(scope, coefficient.feature, coefficient_text(coefficient, units[coefficient.feature],
                                                          board.figure.difference_unit))
            for scope, coefficients in zip(scopes, fits) for coefficient in coefficients]


def test_about_states_the_features_the_fit_and_its_coefficients_from_the_board(
    about: Page, engines: dict[str, StyleBoard]
) -> None:
    """Opened from its address at a laptop's width, then the same page narrowed to a phone's: what About states
    is the same at any width."""
    _check_about(about, engines)
    resize(about, PHONE)
    _check_about(about, engines)


def _check_about(about: Page, engines: dict[str, StyleBoard]) -> None:
    expect(about.locator("#h-answer-length-and-style-control")).to_be_visible(timeout=LINKED_TIMEOUT_MS)
    text = about.locator("#style-text")
    expect(text).to_contain_text(f"{INDIC_QA.title}: log answer length")
    features = "; ".join(feature.label for feature in engines[INDIC_WRITING_BENCH.name].features)
    expect(text).to_contain_text(f"{INDIC_WRITING_BENCH.title}: {features}")
    table = "style-coefficients"
    expect(board_rows(about, table)).to_have_count(4 + 4 * 2)  # QA: one feature; WritingBench: two; 4 scopes each
    rows = _coefficient_rows(about)
    qa = [row for row in rows if row["Benchmark"] == INDIC_QA.title]
    assert [row["Configs"] for row in qa] == [ALL_CONFIGS, "english", "hindi", "tamil"]
    overall: Coefficient = engines[INDIC_QA.name].control.coefficients[0]
    assert qa[0]["Effect on the score (95 % interval)"] == coefficient_text(
        overall, "log-length unit", "percentage points")
    writing = [(row["Configs"], row["Feature"], row["Effect on the score (95 % interval)"])
               for row in rows if row["Benchmark"] == INDIC_WRITING_BENCH.title]
    assert writing == _expected_coefficients(engines[INDIC_WRITING_BENCH.name],
                                             [ALL_CONFIGS, "Hindi", "Tamil", "Bengali"])
    shot(about, "style-about")


def test_the_api_gives_either_reading_as_records(app: AppServer, engines: dict[str, StyleBoard]) -> None:
    """`/benchmark_rankings`, called as an outside program would (gradio_client), and refused bad input by name."""
    client = Client(app.url, verbose=False)
    seed = client.predict(benchmark="indic_qa", api_name="/benchmark_rankings")
    controlled = client.predict(benchmark="indic_qa", style="controlled", api_name="/benchmark_rankings")
    assert (seed["style"], controlled["style"], controlled["uncontrolled"]) == ("seed", "controlled", "")
    engine = engines[INDIC_QA.name]
    control = engine.control.controlled
    by_model = {run["model"]: run for run in controlled["runs"]}
    for position, model in enumerate(ORDER):
        run = by_model[model]
        assert run["judge"] == pytest.approx(control.headlines[position])
        assert (run["rank"], run["rank_best"], run["rank_worst"]) == (
            control.rank[position], control.rank_best[position], control.rank_worst[position])
        assert run["median_length"] == engine.lengths[position].overall.median and run["length_unit"] == "tokens"
    assert {run["model"]: run["judge"] for run in seed["runs"]}[VERBOSE_ID] == pytest.approx(100 * 5 / 9)
    writing = engines[INDIC_WRITING_BENCH.name].control.controlled
    runs = client.predict(benchmark=INDIC_WRITING_BENCH.name, style="controlled", api_name="/benchmark_rankings")["runs"]
    by_model = {run["model"]: run for run in runs}
    for position, model in enumerate(SIDES[INDIC_WRITING_BENCH.name].order):
        run = by_model[model]
        assert (run[INDIC_WRITING_BENCH.headline], run["rank"], run["length_unit"]) == (
            pytest.approx(writing.headlines[position]), writing.rank[position], "characters")
    searched = client.predict(benchmark="indic_qa", search="terse", style="controlled", api_name="/benchmark_rankings")
    assert [run["model"] for run in searched["runs"]] == ["terse-lab/exact-7b"]
    with httpx.Client(base_url=app.url, timeout=60) as http:
        with pytest.raises(ValueError, match="style must be one of 'seed', 'controlled'"):
            call_endpoint(http, "benchmark_rankings", ["indic_qa", "", None, "sideways"])
        with pytest.raises(ValueError, match="benchmark must be one of"):
            call_endpoint(http, "benchmark_rankings", ["<b>nope</b>", "", None, "seed"])
