"""The board as users read it, in Chromium at a laptop's 1440×900, and a phone's 390×844 where a test is about layout.

Pinned model column, phone-first columns, sort and the CSV that follows it, filters, ranking on
chosen languages, shareable links, empty matches, number and revision formats, the criteria,
the plots and the submit form. Screenshots land in test-artifacts/ (not committed).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import parse_qs, urlparse

import pandas as pd
import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from leaderboard.submit_messages import REFUSED_LABEL
from tests.leaderboard.test_browser import (
    ARTIFACTS,
    DOWNLOAD_TRIES,
    UI_TIMEOUT_MS,
    board_rows,
    cells,
    choose,
    download,
    headers,
)
from tests.support.app_server import AppServer
from tests.support.browser_pages import LAPTOP, PHONE, both_widths, new_page, open_plots, width_of
from tests.support.browser_pages import open_filters as unfold
from tests.support.run_folders import SCRIPT_MODEL_ID, EvaluatedData

SCORE = re.compile(r"^\d+\.\d\d$")

TEXT_BOX_JS = """el => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, n => n.textContent.trim() ? 1 : 3);
  const node = walker.nextNode();
  if (!node) return null;
  const range = document.createRange();
  range.selectNodeContents(node);
  const r = range.getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
}"""
"""The box of an element's first text: where its characters are drawn, not the cell around them."""
SEEN_JS = f"""el => {{
  const r = ({TEXT_BOX_JS})(el);
  if (!r || r.left < 0 || r.top < 0 || r.right > window.innerWidth || r.bottom > window.innerHeight) return false;
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return hit !== null && el.contains(hit);
}}"""
"""Whether an element's text is inside the window and not covered by anything."""


@pytest.fixture(scope="module")
def app(board_app: AppServer) -> AppServer:
    return board_app


@pytest.fixture
def page(request: pytest.FixtureRequest, app: AppServer, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, width_of(request), app.url)
    expect(board_rows(opened)).to_have_count(3)
    yield opened
    opened.context.close()


def width(page: Page) -> int:
    return page.viewport_size["width"] if page.viewport_size else 0


def shot(page: Page, name: str, full_page: bool = False) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"board-{name}-{width(page)}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def on_top(page: Page, selector: str) -> bool:
    """Whether the element's text is what the user sees there (not scrolled away, not covered)."""
    return page.locator(selector).first.evaluate(SEEN_JS)


def open_tab(page: Page, name: str) -> None:
    """Open a tab by (part of) its name; on a phone most tabs sit in the "More tabs" menu."""
    pattern = re.compile(name, re.IGNORECASE)
    tab = page.get_by_role("tab", name=pattern)
    if tab.count() and tab.first.is_visible():
        tab.first.click()
        return
    page.get_by_label("More tabs").click()
    page.locator(".overflow-dropdown button", has_text=pattern).first.click()


def column(page: Page, label: str, elem_id: str = "leaderboard-table") -> list[str]:
    index = headers(page, elem_id).index(label)
    return [row[index] for row in cells(board_rows(page, elem_id))]


def seen_after_scrolling(page: Page, selectors: list[str]) -> None:
    """Wait until each selector's text is on top again after a sideways scroll (the grid redraws on its scroll
    event); fails naming those still hidden."""
    script = f"selectors => selectors.every(s => ({SEEN_JS})(document.querySelector(s)))"
    try:
        page.wait_for_function(script, arg=selectors)
    except PlaywrightTimeout:
        pytest.fail(f"scrolled away or covered: {[s for s in selectors if not on_top(page, s)]}")


@both_widths
def test_rank_and_model_stay_visible_after_scrolling_sideways(page: Page, evaluated: EvaluatedData) -> None:
    board = page.locator("#leaderboard-table")
    board.scroll_into_view_if_needed()
    viewport = page.locator("#leaderboard-table .virtual-table-viewport")
    viewport.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    assert viewport.evaluate("el => el.scrollLeft") > 0  # it did scroll: there are columns to the right
    first = evaluated.ranked_models()[0]
    model_cell = '#leaderboard-table [data-col="1"][data-row="0"]'
    seen_after_scrolling(page, [model_cell, '#leaderboard-table [data-col="0"][data-row="0"]'])
    assert page.locator(model_cell).inner_text().strip() == first
    assert on_top(page, '#leaderboard-table [data-heading="1"]')
    shot(page, "scrolled-sideways")


@both_widths
def test_rank_model_and_score_come_first_figures_read_short_and_the_model_links_to_the_hub(page: Page) -> None:
    assert headers(page, "leaderboard-table")[:4] == ["Rank", "Model", "Indic average (score 1–10)", "Rank range (95 %)"], "first columns"
    page.locator("#leaderboard-table").scroll_into_view_if_needed()
    score = '#leaderboard-table [data-col="2"][data-row="0"]'
    assert on_top(page, score), "the first score is on screen, not covered"
    assert SCORE.match(page.locator(score).inner_text().strip()), "the first score has two decimals"
    indic = column(page, "Indic average (score 1–10)")
    assert indic and all(SCORE.match(value) for value in indic), f"every score has two decimals: {indic}"
    assert all(re.match(r"^\d+\.\d\d – \d+\.\d\d$", value) for value in column(page, "95 % interval")), "intervals"
    assert {len(value) for value in column(page, "Dataset revision")} == {7}, "revisions are 7 characters"
    drops = column(page, "romanized drop %")
    assert drops and all(re.match(r"^-?\d+\.\d$", value) for value in drops), f"a rendering's drop in %: {drops}"
    link = board_rows(page).first.locator('[data-col="1"] a')  # the model cell (scores link to their items)
    assert link.get_attribute("href") == "https://huggingface.co/acme/strong-7b", "the model links to its Hub page"
    assert "Hub" not in headers(page, "leaderboard-table"), "no Hub column"
    expect(board_rows(page).get_by_text(SCRIPT_MODEL_ID, exact=True), "a script id as text").to_be_visible()
    assert page.locator("#leaderboard-table script").count() == 0, "no script element in the board"
    shot(page, "board")


def test_the_first_phone_screen_shows_a_score(browser: Browser, app: AppServer) -> None:
    phone = new_page(browser, PHONE, app.url)
    expect(board_rows(phone)).to_have_count(3, timeout=UI_TIMEOUT_MS)
    phone.evaluate("window.scrollTo(0, 0)")
    # A score's digits inside the first screen, not covered by anything (the side-by-side table loads apart).
    phone.wait_for_function(
        f"""() => Array.from(document.querySelectorAll("[role=gridcell]"))
             .filter(c => /^\\d+\\.\\d+$/.test(c.innerText.trim())).some({SEEN_JS})""", timeout=UI_TIMEOUT_MS)
    shot(phone, "first-screen")
    phone.context.close()


def test_sorting_is_a_control_and_the_csv_follows_it(page: Page, evaluated: EvaluatedData, tmp_path: Path) -> None:
    expect(page.locator("#leaderboard-table")).to_contain_text(
        "Rankings: complete runs by Indic average (score 1–10, higher is better; “Sort by” or a column header's menu")
    # One sort model on every tab: a header's own menu sorts the rows on screen, "Sort by" the rows and the CSV.
    model_header = page.locator('#leaderboard-table [data-heading="1"]')
    model_header.hover()
    model_header.locator(".cell-menu-button").click()
    page.get_by_text("Sort ascending", exact=True).click()
    expect(board_rows(page).first).to_contain_text(sorted(evaluated.ranked_models())[0])
    page.get_by_role("tab", name="Indic WritingBench v1").click()
    choose(page, "leaderboard-sort-by", "Model")
    expected = sorted(evaluated.ranked_models())
    expect(board_rows(page).first).to_contain_text(expected[0])
    assert column(page, "Model") == expected
    # The header's sort drew these rows already: the CSV comes with the server's render of "Sort by", maybe later.
    exported = csv_when(page, "leaderboard-download-view", tmp_path / "sorted.csv",
                        lambda frame: list(frame["model"])[:3] == expected)
    assert list(exported["model"])[:3] == expected


def csv_when(page: Page, elem_id: str, target: Path, ready: Callable[[pd.DataFrame], bool]) -> pd.DataFrame:
    """The CSV a download button serves, once `ready` holds of it (or the last one served, after DOWNLOAD_TRIES)."""
    for _ in range(DOWNLOAD_TRIES):
        frame = pd.read_csv(download(page, elem_id, target))
        if ready(frame):
            break
        page.wait_for_timeout(500)
    return frame


def test_no_match_says_so(page: Page) -> None:
    page.locator("#leaderboard-search textarea").fill("no-such-model")
    expect(page.locator("#leaderboard-no-match")).to_contain_text("No models match")
    expect(page.locator("#leaderboard-table")).to_be_hidden()
    expect(page.locator("#leaderboard-unranked")).to_be_hidden()


def test_filters_and_ranking_on_chosen_languages(page: Page, tmp_path: Path) -> None:
    open_filters(page)
    page.locator("#leaderboard-hide-unranked input").check()
    expect(page.locator("#leaderboard-unranked")).to_be_hidden()
    page.locator("#leaderboard-model-type").get_by_label("reasoning", exact=True).check()
    expect(board_rows(page)).to_have_count(1)
    assert column(page, "Model") == ["acme/reasoner-3b"]
    page.locator("#leaderboard-model-type").get_by_label("all", exact=True).check()
    page.locator("#leaderboard-rank-config").get_by_label("Tamil").check()
    expect(page.locator("#leaderboard-table [role=columnheader]", has_text="Indic average on the chosen groups (score 1–10)")).to_have_count(1)
    ranked = column(page, "Indic average on the chosen groups (score 1–10)")
    assert ranked == sorted(ranked, key=float, reverse=True) and column(page, "Rank") == ["1", "2", "3"]
    exported = pd.read_csv(download(page, "leaderboard-download-view", tmp_path / "subset.csv"))
    assert [f"{value:.2f}" for value in exported["subset"]] == ranked


def test_a_shared_link_restores_the_view_and_the_address_follows_changes(page: Page, app: AppServer) -> None:
    page.goto(f"{app.url}?q=acme&sort=model&ranked_only=1")
    expect(page.locator("#leaderboard-search textarea")).to_have_value("acme")
    expect(board_rows(page)).to_have_count(2)
    assert column(page, "Model") == ["acme/reasoner-3b", "acme/strong-7b"]
    expect(page.locator("#leaderboard-sort-by input")).to_have_value("Model")
    page.locator("#leaderboard-search textarea").fill("strong")
    expect(board_rows(page)).to_have_count(1)
    page.wait_for_function("() => new URLSearchParams(location.search).get('leaderboard_q') === 'strong'")
    params = parse_qs(urlparse(page.url).query)
    # The former parameters set the tab's own, which the address carries from then on.
    assert params["leaderboard_q"] == ["strong"] and params["leaderboard_sort"] == ["model"]
    assert params["leaderboard_ranked_only"] == ["1"]
    expect(page.locator("#leaderboard-last-updated")).to_contain_text(re.compile(r"Last updated: \d{4}-\d\d-\d\d \d\d:\d\d UTC"))


@both_widths
def test_criteria_read_without_scrolling_sideways(page: Page) -> None:
    open_tab(page, "Indic WritingBench")
    expect(page.locator("#leaderboard-model input")).to_have_value("acme/strong-7b")
    items = page.locator("#leaderboard-items [role=row][aria-rowindex]:not([aria-rowindex='1'])")
    items.first.locator("[role=gridcell]").nth(2).click()
    criteria = page.locator("#leaderboard-parts")
    expect(criteria.locator("section.criterion h4").first).to_have_text(re.compile(r"^1\. .+: \d+/10$"))
    assert criteria.evaluate("el => el.scrollWidth <= el.clientWidth")
    expect(criteria.locator("details li", has_text="9-10:")).to_have_count(5)
    shot(page, "criteria", full_page=True)


@both_widths
def test_plots_stay_readable_and_top_n_takes_a_typed_number(page: Page) -> None:
    open_tab(page, "Indic WritingBench")
    open_plots(page, "leaderboard")
    page.locator("#leaderboard-plot-variants").scroll_into_view_if_needed()  # plots draw when they come into view
    expect(page.locator("#leaderboard-plot-variants .main-svg").first).to_be_visible(timeout=2 * UI_TIMEOUT_MS)
    plot_area = page.locator("#leaderboard-plot-variants .nsewdrag").first.bounding_box()
    assert plot_area is not None and plot_area["height"] > 150  # not squeezed by rotated labels
    heatmap = page.locator("#leaderboard-plot-heatmap")
    heatmap.scroll_into_view_if_needed()
    expect(heatmap.locator(".main-svg").first).to_be_visible(timeout=2 * UI_TIMEOUT_MS)
    cells_area = heatmap.locator(".nsewdrag").first.bounding_box()
    assert cells_area is not None and cells_area["width"] >= 400  # on a phone too: it scrolls, it is not squeezed
    radar = page.locator("#leaderboard-plot-radar")
    radar.scroll_into_view_if_needed()
    expect(radar.locator("text", has_text="Literature & Arts").first).to_be_visible()
    number = page.locator("#leaderboard-top-n input[type=number]")
    number.fill("1")
    number.press("Enter")
    expect(page.locator("#leaderboard-plot-overall .main-svg").first.locator("g.ytick")).to_have_count(1)
    shot(page, "plots", full_page=True)


def test_a_pasted_hub_url_is_understood_and_a_refusal_looks_like_one(page: Page) -> None:
    open_tab(page, "submit")
    page.locator("#submit-model textarea").fill("https://huggingface.co/acme/strong-7b")
    page.locator("#submit-button").click()
    message = page.locator("#submit-message textarea")
    expect(message).not_to_have_value("")
    text = message.input_value()
    # The URL became the id (here the offline Hub refuses it, but not as a malformed id); the reason starts a sentence.
    assert "huggingface.co/acme" not in text and "must be 'org/name'" not in text and text[0].isupper()
    assert "/tmp" not in text and "data/runs" not in text  # no server path
    expect(page.locator("#submit-message")).to_contain_text(REFUSED_LABEL)
    shot(page, "submit")


@both_widths
def test_a_link_opens_its_tab_and_choosing_a_tab_updates_the_address(page: Page, app: AppServer) -> None:
    page.goto(f"{app.url}?tab=about")
    expect(page.locator("#about-text")).to_be_visible()
    open_tab(page, "submit")
    page.wait_for_function("() => new URLSearchParams(location.search).get('tab') === 'submit'")


def open_filters(page: Page) -> None:
    unfold(page, "leaderboard")


def address(page: Page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def test_the_license_filter_keeps_the_chosen_licenses_and_the_csv_and_link_follow(page: Page, tmp_path: Path) -> None:
    open_filters(page)
    page.locator("#leaderboard-license-filter input").click()
    options = page.get_by_role("option").all_inner_texts()
    assert [option.strip() for option in options] == ["apache-2.0", "mit", "other:acme-research", "unknown"]
    page.get_by_role("option", name="apache-2.0", exact=True).click()
    expect(board_rows(page)).to_have_count(1)
    assert column(page, "Model") == ["acme/strong-7b"]
    choose(page, "leaderboard-license-filter", "mit")
    expect(board_rows(page, "leaderboard-unranked")).to_have_count(1)  # the partial run, under MIT
    page.wait_for_function("() => new URLSearchParams(location.search).get('leaderboard_license') === 'apache-2.0,mit'")
    exported = pd.read_csv(download(page, "leaderboard-download-view", tmp_path / "licensed.csv"))
    assert list(exported["model"]) == ["acme/strong-7b", "bharat/partial-1b"]
    shot(page, "leaderboard-license-filter")


def test_open_weights_only_hides_gated_and_unknown_runs_and_a_link_restores_it(page: Page, app: AppServer) -> None:
    open_filters(page)
    page.locator("#leaderboard-open-weights-only input").check()
    expect(board_rows(page)).to_have_count(1)
    assert column(page, "Model") == ["acme/strong-7b"]  # the gated model and the one without the fact are left out
    page.wait_for_function("() => new URLSearchParams(location.search).get('leaderboard_open') === '1'")
    page.goto(f"{app.url}?open=1&groups=metadata")
    expect(board_rows(page)).to_have_count(1)
    assert column(page, "Open weights") == ["yes"] and column(page, "License") == ["apache-2.0"]
    open_filters(page)
    expect(page.locator("#leaderboard-open-weights-only input")).to_be_checked()


def test_ranking_on_chosen_variants_reranks_and_the_csv_and_link_follow(
    page: Page, evaluated: EvaluatedData, tmp_path: Path
) -> None:
    open_filters(page)
    page.locator("#leaderboard-rank-variant").get_by_label("romanized", exact=True).check()
    expect(page.locator("#leaderboard-table [role=columnheader]", has_text="Indic average on the chosen groups (score 1–10)")).to_have_count(1)
    # the subset's own rank range and interval (joint bootstrap on its items), and a footnote saying what is ranked
    assert headers(page, "leaderboard-table")[2:5] == ["Indic average on the chosen groups (score 1–10)", "Rank range (95 %)",
                                                   "95 % interval"]
    expect(page.locator("#leaderboard-ranking-rule")).to_contain_text("Indic average on the chosen groups (romanized) alone")
    ranked = column(page, "Indic average on the chosen groups (score 1–10)")
    assert ranked == sorted(ranked, key=float, reverse=True) and column(page, "Rank") == ["1", "2", "3"]
    page.wait_for_function("() => new URLSearchParams(location.search).get('leaderboard_on_variant') === 'romanized'")
    exported = pd.read_csv(download(page, "leaderboard-download-view", tmp_path / "romanized.csv"))
    assert [f"{value:.2f}" for value in exported["subset"][:3]] == ranked
    first = exported["model"][0]
    romanized = evaluated.summary(first)["config_variants"]
    assert exported["subset"][0] == pytest.approx(
        sum(variants["romanized"] for config, variants in romanized.items() if "english" not in config)
        / sum("english" not in config for config in romanized))
