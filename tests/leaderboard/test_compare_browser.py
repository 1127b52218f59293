"""The Compare view, the pairwise matrix and the Judgments comparison in Chromium at 1440×900, each page then
narrowed to 390×844 (nothing may overflow a phone's screen).

The runs have 100-character model ids and prompts in Devanagari, Tamil and Bengali. Every
figure on screen is checked against the engine's `compare_paired` on the same run folders, the
downloads against the screen and the CLI's `compare --json`, links restore the view, and nothing
is wider than a phone's screen. Screenshots land in test-artifacts/.
"""

from __future__ import annotations

import json
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, quote, urlencode, urlparse

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from eval_backend.cli import main as cli
from eval_backend.run_items import read_run_items
from eval_backend.statistics import PairedComparison, compare_paired, item_design
from leaderboard.comparison_tables import format_difference, format_interval, format_p
from leaderboard.short_labels import short_labels
from tests.leaderboard.test_board_browser import shot
from tests.leaderboard.test_browser import board_rows, cells, choose, download
from tests.support.app_server import AppServer
from tests.support.browser_pages import LAPTOP, PHONE, new_page, resize
from tests.support.readable_runs import LONG_IDS
from tests.support.run_folders import EvaluatedData

WRITING_TABLE = "compare-table-indic_writing_bench"
COMPUTE_TIMEOUT_MS = 120_000
"""How long a first comparison may take on a loaded machine (computed once, then served from memory)."""
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
"""How far the page reaches past the window's right edge (0: nothing overflows sideways)."""
FIGURES = "the compare view shows the engine's paired figures"
DOWNLOADS = "the downloads hold the figures on screen and those the CLI prints"
VERDICTS = "a compare row never says better where its corrected p-value says otherwise"
"""What each part of the merged compare-view test checks (the claims of the tests it replaced), in its messages."""


def run_id(model: str) -> str:
    return model.replace("/", "__") + "/main"


A, B, SHORT = run_id(LONG_IDS[0]), run_id(LONG_IDS[1]), "acme__short-1b/main"


@pytest.fixture(scope="module")
def data(readable_data: EvaluatedData) -> EvaluatedData:
    return readable_data


@pytest.fixture(scope="module")
def app(readable_app: AppServer) -> AppServer:
    """The readable runs' shared server (it checks at the session's end that no view raised)."""
    return readable_app


@pytest.fixture
def page(app: AppServer, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, LAPTOP)
    yield opened
    opened.context.close()


def engine_comparison(data: EvaluatedData, a: str, b: str, figure: str, configs: tuple[str, ...] = ()
                      ) -> PairedComparison:
    """The engine's own paired comparison of two run folders on one figure (all configs, or those given)."""
    items = [read_run_items(data.folders[model]).items for model in (a, b)]
    keep = np.isfinite(items[0][figure]) & (items[0]["config"].isin(configs) if configs else True)
    counted = items[0][keep]
    design = item_design(counted["config"].tolist(), counted["cluster"].tolist(),
                         read_run_items(data.folders[a]).statistics.figures[0].weighting)
    return compare_paired(*(frame.loc[counted.index, figure].to_numpy() for frame in items), design)


def open_compare(page: Page, app: AppServer, **params: str) -> None:
    page.goto(f"{app.url}?{urlencode({'tab': 'compare', **params}, quote_via=quote)}")


def overflow(page: Page) -> int:
    return page.evaluate(OVERFLOW_JS)


def fits_a_phone(page: Page, shown: str) -> None:
    """Narrow the page to a phone's width; fails when it still reaches past the window's right edge once laid out
    again (a plot redraws for its new width after the window's resize event), naming by how far."""
    resize(page, PHONE)
    page.locator(shown).scroll_into_view_if_needed()
    try:
        page.wait_for_function(f"() => ({OVERFLOW_JS})() <= 0")
    except PlaywrightTimeout:
        pytest.fail(f"at {PHONE['width']} px the page overflows by {overflow(page)} px with {shown} in view")


def test_choosing_two_models_writes_the_link(page: Page, app: AppServer) -> None:
    open_compare(page, app)
    expect(page.locator("#compare-a")).to_be_visible(timeout=COMPUTE_TIMEOUT_MS)
    choose(page, "compare-a", "acme/short-1b")
    choose(page, "compare-b", LONG_IDS[1])
    expect(board_rows(page, WRITING_TABLE).first).to_be_visible(timeout=COMPUTE_TIMEOUT_MS)
    page.wait_for_function(f"() => new URLSearchParams(window.location.search).get('b') === {B!r}")
    assert parse_qs(urlparse(page.url).query)["a"] == [SHORT]
    assert overflow(page) <= 0
    fits_a_phone(page, f"#{WRITING_TABLE}")


def test_the_matrix_colours_only_what_holds_after_holm(page: Page, app: AppServer, data: EvaluatedData) -> None:
    open_compare(page, app, figure="overall", top="3")
    matrix = page.locator("#pairwise-matrix table.pairwise-matrix")
    expect(matrix).to_be_visible(timeout=COMPUTE_TIMEOUT_MS)
    expect(page.locator("#matrix-note")).to_contain_text("Holm")
    expect(page.locator("#matrix-note")).to_contain_text("Overall (every config)")
    ranked = [LONG_IDS[0], LONG_IDS[1], "acme/short-1b"]  # qualities 9, 7, 5
    # The axes carry short names (no numbered legend), the whole id on hover, and every name is told apart.
    heads = matrix.locator("thead th[title]")
    assert heads.evaluate_all("cells => cells.map(c => c.title)") == ranked
    names = heads.all_inner_texts()
    assert names == short_labels(ranked, ["main"] * 3) and len(set(names)) == 3
    assert all(len(name) < len(model) for name, model in zip(names[:2], ranked[:2]))
    assert matrix.locator("tbody th[title]").evaluate_all("cells => cells.map(c => c.title)") == ranked
    expect(page.locator("#pairwise-matrix ol")).to_have_count(0)
    body = matrix.locator("tbody tr")
    expect(body).to_have_count(3)
    best_minus_second = body.nth(0).locator("td").nth(1)
    expected = engine_comparison(data, ranked[0], ranked[1], "overall")
    assert best_minus_second.inner_text() == f"{expected.difference.estimate:+.2f}"
    assert f"[{expected.difference.low:+.3f}, {expected.difference.high:+.3f}]" in best_minus_second.get_attribute(
        "title")
    states = matrix.locator("td[data-significant]").evaluate_all("cells => cells.map(c => c.dataset.significant)")
    coloured = matrix.locator("td[data-significant]").evaluate_all(
        "cells => cells.map(c => getComputedStyle(c).backgroundColor !== 'rgba(0, 0, 0, 0)')")
    assert len(states) == 6 and coloured == [state != "none" for state in states]
    page.locator("#pairwise-matrix").scroll_into_view_if_needed()
    assert overflow(page) <= 0
    shot(page, "compare-matrix")
    fits_a_phone(page, "#pairwise-matrix")
    shot(page, "compare-matrix")


def test_the_judgments_side_by_side_compares_the_items_listed(page: Page, app: AppServer, data: EvaluatedData) -> None:
    page.goto(f"{app.url}?{urlencode({'tab': 'judgments', 'model': A, 'compare': B, 'language': 'Tamil'})}")
    paired = page.locator("#leaderboard-paired")
    expect(paired).to_contain_text("A − B", timeout=COMPUTE_TIMEOUT_MS)
    expected = engine_comparison(data, LONG_IDS[0], LONG_IDS[1], "overall", ("Tamil",))
    expect(paired).to_contain_text(f"Overall (every config): A − B = {expected.difference.estimate:+.3f}")
    expect(paired).to_contain_text(f"A won {expected.wins}, tied {expected.ties}, lost {expected.losses} "
                                   f"of {expected.n_items} items")
    paired.scroll_into_view_if_needed()
    assert overflow(page) <= 0
    shot(page, "leaderboard-paired")
    fits_a_phone(page, "#leaderboard-paired")
    shot(page, "leaderboard-paired")


def test_the_compare_view_s_figures_verdicts_and_downloads_are_the_engine_s_and_the_cli_s(
    page: Page, app: AppServer, data: EvaluatedData, tmp_path: Path
) -> None:
    """One view (`a`, `b` from the address) read three ways: the figures against the engine's `compare_paired`,
    every verdict against the stated rule (issue 42), the downloads against the screen and `compare --json`;
    then narrowed to a phone's width."""
    open_compare(page, app, a=A, b=B)
    rows = board_rows(page, WRITING_TABLE)
    expect(rows.first, FIGURES).to_be_visible(timeout=COMPUTE_TIMEOUT_MS)
    shown = cells(rows)
    _assert_verdicts_follow_the_rule(page, shown)
    _assert_downloads_match(page, data, tmp_path, shown)
    _assert_figures_are_the_engine_s(page, data, shown)
    fits_a_phone(page, "#compare-forest-indic_writing_bench")
    shot(page, "compare-view")


def _assert_verdicts_follow_the_rule(page: Page, shown: list[list[str]]) -> None:
    """Issue 42: "significant" was read from the interval alone (Assamese "B better" at p = 0.125). Every row's
    verdict on screen follows the one stated rule, and each benchmark answers in one line."""
    tested = [row for row in shown if row[6] != "—"]
    assert tested and any(not row[7].endswith("better") for row in tested), VERDICTS
    for row in shown:
        figure, interval, holm, verdict = row[0], row[4], row[6], row[7]
        if holm == "—":  # no p-value: no interval, no verdict, and why
            assert interval == "—" and verdict.startswith("no verdict: rests on"), (VERDICTS, row)
            continue
        low, high = (float(end) for end in interval.strip("[]").split(", "))
        significant = float(holm) <= 0.05 and (low > 0 or high < 0)
        if not significant:
            assert verdict == "no significant difference", (VERDICTS, row)
        else:
            a_higher = low > 0
            assert verdict == ("A better" if a_higher != figure.endswith("(lower is better)") else "B better"), (
                VERDICTS, row)
    headline = page.locator("#compare-headline-indic_writing_bench")
    first = shown[0]
    expect(headline, VERDICTS).to_contain_text(f"Indic average: A − B = {first[3].replace('-', '−')} "
                                               f"{first[4].replace('-', '−')}: {first[7]} (p = ")
    expect(headline, VERDICTS).to_contain_text(f"Holm-adjusted over {len(tested)} rows")
    expect(headline, VERDICTS).to_contain_text("interval excludes 0")
    # Each language once: the forest plot's rows are the table's rows on all items, none repeated.
    forest = page.locator("#compare-forest-indic_writing_bench .yaxislayer-above text")
    expect(forest.first, VERDICTS).to_be_attached(timeout=COMPUTE_TIMEOUT_MS)  # the forest is drawn after the table
    labels = forest.evaluate_all("texts => texts.map(t => t.textContent)")
    assert labels and len(labels) == len(set(labels)) == sum(1 for row in shown if row[1] == "all items"), (
        VERDICTS, "the forest's rows are the table's on all items, each once", labels)
    headline.scroll_into_view_if_needed()
    assert overflow(page) <= 0, (VERDICTS, "nothing overflows beside the headline")
    shot(page, "compare-verdicts")


def _assert_downloads_match(page: Page, data: EvaluatedData, tmp_path: Path, on_screen: list[list[str]]) -> None:
    """The JSON and CSV downloads hold the rows on screen, and the JSON the figures the CLI prints."""
    stem = "compare-indic_writing_bench-"
    downloaded = json.loads(download(page, "compare-download-json-indic_writing_bench", tmp_path / "pair.json",
                                     stem).read_text(encoding="utf-8"))
    printed = StringIO()
    with redirect_stdout(printed):  # the CLI's own entry point, in this process
        assert cli(["compare", str(data.folders[LONG_IDS[0]].path), str(data.folders[LONG_IDS[1]].path),
                    "--json"]) == 0, (DOWNLOADS, "the CLI's compare exits 0")
    cli_figures = json.loads(printed.getvalue())
    # The same figures; the verdicts' family differs (the board's table adjusts over its subset rows too).
    family = ("adjusted_p_value", "family_size", "verdict")
    assert [{k: v for k, v in row.items() if k not in family} for row in downloaded["comparisons"]] == [
        {k: v for k, v in row.items() if k not in family} for row in cli_figures["comparisons"]], (
        DOWNLOADS, "the JSON's figures are the CLI's")
    assert cli_figures["a"] == LONG_IDS[0] and downloaded["subsets"], (DOWNLOADS, "the variants' and domains' rows")
    records = downloaded["comparisons"] + downloaded["subsets"]
    assert [row[3:10] for row in on_screen] == [[
        format_difference(record["difference"]), format_interval(record), format_p(record["p_value"]),
        format_p(record["adjusted_p_value"]), row[7], f"{record['wins']} / {record['ties']} / {record['losses']}",
        f"{record['n_items']} ({record['n_clusters']})"] for row, record in zip(on_screen, records)], (
        DOWNLOADS, "the JSON's rows are the screen's")
    assert [row[7].split(":")[0] for row in on_screen] == [record["verdict"] for record in records], (
        DOWNLOADS, "the JSON's verdicts are the screen's")
    table = pd.read_csv(download(page, "compare-download-csv-indic_writing_bench", tmp_path / "pair.csv", stem),
                        encoding="utf-8-sig", float_precision="round_trip")
    assert table[["Figure", "Items", "Language"]].values.tolist() == [[row[0], row[1], row[2]] for row in on_screen], (
        DOWNLOADS, "the CSV's rows are the screen's")
    assert table["Verdict"].tolist() == [record["verdict"] for record in records], (DOWNLOADS, "the CSV's verdicts")
    assert table["A − B"].tolist() == [record["difference"] for record in records], (DOWNLOADS, "the CSV's A − B")
    assert table["p-value"].fillna(-1).tolist() == [-1 if record["p_value"] is None else record["p_value"]
                                                    for record in records], (DOWNLOADS, "the CSV's p-values")
    page.locator("#compare-download-csv-indic_writing_bench").scroll_into_view_if_needed()
    assert overflow(page) <= 0, (DOWNLOADS, "nothing overflows beside the downloads")


def _assert_figures_are_the_engine_s(page: Page, data: EvaluatedData, shown: list[list[str]]) -> None:
    """The first row (every item) and the Hindi row are the engine's paired comparison of the same run folders."""
    first = dict(zip(["figure", "items", "language", "difference", "interval", "p", "holm", "verdict", "wtl", "n"],
                     shown[0]))
    expected = engine_comparison(data, LONG_IDS[0], LONG_IDS[1], "indic")
    assert (first["figure"], first["items"], first["language"]) == ("Indic average", "all items", "all languages"), (
        FIGURES, "the first row")
    assert first["difference"] == f"{expected.difference.estimate:+.3f}", (FIGURES, "the difference")
    assert first["interval"] == f"[{expected.difference.low:+.3f}, {expected.difference.high:+.3f}]", (
        FIGURES, "the interval")
    assert first["p"] == f"{expected.p_value:.4f}", (FIGURES, "the p-value")
    assert first["wtl"] == f"{expected.wins} / {expected.ties} / {expected.losses}", (FIGURES, "wins, ties, losses")
    hindi = next(row for row in shown if row[0] == "Indic average" and row[2] == "Hindi")
    hindi_expected = engine_comparison(data, LONG_IDS[0], LONG_IDS[1], "indic", ("Hindi",))
    assert hindi[3] == f"{hindi_expected.difference.estimate:+.3f}", (FIGURES, "the Hindi row's difference")
    summary = page.locator("#compare-summary")
    expect(summary, FIGURES).to_contain_text(LONG_IDS[0])
    expect(summary, FIGURES).to_contain_text(LONG_IDS[1])
    expect(page.locator("#compare-forest-indic_writing_bench .js-plotly-plot"), FIGURES).to_be_visible()
    page.locator("#compare-forest-indic_writing_bench").scroll_into_view_if_needed()
    assert overflow(page) <= 0, (FIGURES, "nothing overflows beside the forest plot")
    shot(page, "compare-view")
