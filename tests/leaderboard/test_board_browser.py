"""The board as users read it, in Chromium at a laptop's 1440×900, and a phone's 390×844 where a test is about layout
(the same page resized, or loaded at a phone's width where the test is about what a phone shows as the page opens).

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
from tests.support.browser_pages import LAPTOP, PHONE, new_page, open_plots, resize
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
def page(app: AppServer, browser: Browser) -> Iterator[Page]:
    opened = new_page(browser, LAPTOP, app.url)
    expect(board_rows(opened)).to_have_count(3)
    yield opened
    opened.context.close()


@pytest.fixture
def open_at(app: AppServer, browser: Browser) -> Iterator[Callable[..., Page]]:
    """Opens the app at a query (a shared link) in a fresh page at a viewport, the laptop's unless given: one load;
    closes each page afterwards."""
    opened: list[Page] = []

    def at(query: str, viewport: dict = LAPTOP) -> Page:
        opened.append(new_page(browser, viewport, f"{app.url}{query}"))
        return opened[-1]

    yield at
    for page in opened:
        page.context.close()


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


def test_rank_model_and_score_come_first_read_short_and_stay_visible_after_scrolling_sideways_at_both_widths(
    page: Page, evaluated: EvaluatedData
) -> None:
    """At a laptop's width, then in the same page narrowed to a phone's: the pinned and phone-first columns are CSS
    (@media rules), so they must hold however the page got its width."""
    first_columns_read_short(page)
    rank_and_model_stay_visible_after_scrolling_sideways(page, evaluated.ranked_models()[0])
    resize(page, PHONE)
    page.locator("#leaderboard-table .virtual-table-viewport").evaluate("el => { el.scrollLeft = 0; }")
    seen_after_scrolling(page, [FIRST_SCORE])  # where a page opens, drawn again
    first_columns_read_short(page)
    rank_and_model_stay_visible_after_scrolling_sideways(page, evaluated.ranked_models()[0])


FIRST_SCORE = '#leaderboard-table [data-col="2"][data-row="0"]'


def first_columns_read_short(page: Page) -> None:
    """Rank, model and score come first, the figures read short, and the model (not a Hub column) links to the Hub."""
    at = f"at {width(page)} px"
    assert headers(page, "leaderboard-table")[:4] == [
        "Rank", "Model", "Indic average (score 1–10)", "Rank range (95 %)"], f"first columns {at}"
    page.locator("#leaderboard-table").scroll_into_view_if_needed()
    assert on_top(page, FIRST_SCORE), f"the first score is on screen, not covered, {at}"
    assert SCORE.match(page.locator(FIRST_SCORE).inner_text().strip()), f"the first score has two decimals {at}"
    indic = column(page, "Indic average (score 1–10)")
    assert indic and all(SCORE.match(value) for value in indic), f"every score has two decimals: {indic}"
    assert all(re.match(r"^\d+\.\d\d – \d+\.\d\d$", value) for value in column(page, "95 % interval")), "intervals"
    assert {len(value) for value in column(page, "Dataset revision")} == {7}, "revisions are 7 characters"
    drops = column(page, "romanized drop %")
    assert drops and all(re.match(r"^-?\d+\.\d$", value) for value in drops), f"a rendering's drop in %: {drops}"
    link = board_rows(page).first.locator('[data-col="1"] a')  # the model cell (scores link to their items)
    assert link.get_attribute("href") == "https://huggingface.co/acme/strong-7b", "the model links to its Hub page"
    assert "Hub" not in headers(page, "leaderboard-table"), "no Hub column"
    expect(board_rows(page).get_by_text(SCRIPT_MODEL_ID, exact=True), f"a script id as text {at}").to_be_visible()
    assert page.locator("#leaderboard-table script").count() == 0, "no script element in the board"
    shot(page, "board")


def rank_and_model_stay_visible_after_scrolling_sideways(page: Page, first_model: str) -> None:
    """Scrolled to the last column, the pinned rank and model cells and the model's header are still on top."""
    at = f"at {width(page)} px"
    page.locator("#leaderboard-table").scroll_into_view_if_needed()
    viewport = page.locator("#leaderboard-table .virtual-table-viewport")
    viewport.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    assert viewport.evaluate("el => el.scrollLeft") > 0, f"it did scroll: there are columns to the right {at}"
    model_cell = '#leaderboard-table [data-col="1"][data-row="0"]'
    seen_after_scrolling(page, [model_cell, '#leaderboard-table [data-col="0"][data-row="0"]'])
    assert page.locator(model_cell).inner_text().strip() == first_model, f"the pinned model cell's text {at}"
    assert on_top(page, '#leaderboard-table [data-heading="1"]'), f"the model's header on top {at}"
    shot(page, "scrolled-sideways")


def test_the_first_phone_screen_shows_a_score(open_at: Callable[..., Page]) -> None:
    """Loaded at a phone's width: what a phone shows as the page opens."""
    phone = open_at("", PHONE)
    expect(board_rows(phone)).to_have_count(3, timeout=UI_TIMEOUT_MS)
    phone.evaluate("window.scrollTo(0, 0)")
    # A score's digits inside the first screen, not covered by anything (the side-by-side table loads apart).
    phone.wait_for_function(
        f"""() => Array.from(document.querySelectorAll("[role=gridcell]"))
             .filter(c => /^\\d+\\.\\d+$/.test(c.innerText.trim())).some({SEEN_JS})""", timeout=UI_TIMEOUT_MS)
    shot(phone, "first-screen")


def test_sorting_is_a_control_the_csv_follows_it_and_a_search_without_match_says_so(
    page: Page, evaluated: EvaluatedData, tmp_path: Path
) -> None:
    """Sorted by a header's menu, then by "Sort by" (the CSV follows); then a search nothing matches, sorted as
    it is."""
    expect(page.locator("#leaderboard-table"), "the ranking's caption names the sort controls").to_contain_text(
        "Rankings: complete runs by Indic average (score 1–10, higher is better; “Sort by” or a column header's menu")
    # One sort model on every tab: a header's own menu sorts the rows on screen, "Sort by" the rows and the CSV.
    model_header = page.locator('#leaderboard-table [data-heading="1"]')
    model_header.hover()
    model_header.locator(".cell-menu-button").click()
    page.get_by_text("Sort ascending", exact=True).click()
    expect(board_rows(page).first, "a header's menu sorts the rows").to_contain_text(
        sorted(evaluated.ranked_models())[0])
    page.get_by_role("tab", name="Indic WritingBench v1").click()
    choose(page, "leaderboard-sort-by", "Model")
    expected = sorted(evaluated.ranked_models())
    expect(board_rows(page).first, '"Sort by" sorts the rows').to_contain_text(expected[0])
    assert column(page, "Model") == expected, '"Sort by" sorts the rows'
    # The header's sort drew these rows already: the CSV comes with the server's render of "Sort by", maybe later.
    exported = csv_when(page, "leaderboard-download-view", tmp_path / "sorted.csv",
                        lambda frame: list(frame["model"])[:3] == expected)
    assert list(exported["model"])[:3] == expected, 'the CSV follows "Sort by"'
    no_match_says_so(page)


def csv_when(page: Page, elem_id: str, target: Path, ready: Callable[[pd.DataFrame], bool]) -> pd.DataFrame:
    """The CSV a download button serves, once `ready` holds of it (or the last one served, after DOWNLOAD_TRIES)."""
    for _ in range(DOWNLOAD_TRIES):
        frame = pd.read_csv(download(page, elem_id, target))
        if ready(frame):
            break
        page.wait_for_timeout(500)
    return frame


def no_match_says_so(page: Page) -> None:
    """A search no model matches says so, and neither table is left up."""
    expect(page.locator("#leaderboard-unranked"), "the unranked runs before the search").to_be_visible()
    page.locator("#leaderboard-search textarea").fill("no-such-model")
    expect(page.locator("#leaderboard-no-match"), "no match says so").to_contain_text("No models match")
    expect(page.locator("#leaderboard-table"), "no ranking left up").to_be_hidden()
    expect(page.locator("#leaderboard-unranked"), "no unranked runs left up").to_be_hidden()


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


def test_a_shared_link_restores_the_view_and_the_address_follows_changes(open_at: Callable[..., Page]) -> None:
    page = open_at("?q=acme&sort=model&ranked_only=1")
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


def test_criteria_read_without_scrolling_sideways_and_plots_stay_readable_at_both_widths(page: Page) -> None:
    """At a laptop's width, then in the same page narrowed to a phone's: the criteria wrap by CSS and the plots are
    responsive (Plotly redraws them for the new width), so both must hold however the page got its width. A typed
    top N applies at each width."""
    open_tab(page, "Indic WritingBench")
    expect(page.locator("#leaderboard-model input"), "the first model's judgments").to_have_value("acme/strong-7b")
    items = page.locator("#leaderboard-items [role=row][aria-rowindex]:not([aria-rowindex='1'])")
    items.first.locator("[role=gridcell]").nth(2).click()
    criteria_read_without_scrolling_sideways(page)
    open_plots(page, "leaderboard")
    plots_stay_readable(page)
    resize(page, PHONE)
    criteria_read_without_scrolling_sideways(page)
    plots_stay_readable(page)
    top_n_takes_a_typed_number(page, 1)
    resize(page, LAPTOP)
    top_n_takes_a_typed_number(page, 2)


def criteria_read_without_scrolling_sideways(page: Page) -> None:
    """The chosen item's criteria and their rubrics fit the page's width."""
    at = f"at {width(page)} px"
    criteria = page.locator("#leaderboard-parts")
    expect(criteria.locator("section.criterion h4").first, f"a criterion's score {at}").to_have_text(
        re.compile(r"^1\. .+: \d+/10$"))
    assert criteria.evaluate("el => el.scrollWidth <= el.clientWidth"), f"no sideways scroll {at}"
    expect(criteria.locator("details li", has_text="9-10:"), f"each rubric's top level {at}").to_have_count(5)
    shot(page, "criteria", full_page=True)


PLOT_AT_ITS_WIDTH_JS = """id => {
  const plot = document.querySelector(`#${id} .js-plotly-plot`), svg = document.querySelector(`#${id} .main-svg`);
  return plot !== null && svg !== null && Math.abs(svg.getBoundingClientRect().width - plot.clientWidth) <= 1;
}"""
"""Whether a plot is drawn at its box's present width (Plotly redraws a responsive plot a moment after a resize)."""


def plots_stay_readable(page: Page) -> None:
    """The variants' plot area is not squeezed by rotated labels, the heatmap keeps a readable width (on a phone it
    scrolls), and the radar labels its axes."""
    at = f"at {width(page)} px"
    page.locator("#leaderboard-plot-variants").scroll_into_view_if_needed()  # plots draw when they come into view
    expect(page.locator("#leaderboard-plot-variants .main-svg").first, f"the variants' plot {at}").to_be_visible(
        timeout=2 * UI_TIMEOUT_MS)
    page.wait_for_function(PLOT_AT_ITS_WIDTH_JS, arg="leaderboard-plot-variants")
    plot_area = page.locator("#leaderboard-plot-variants .nsewdrag").first.bounding_box()
    assert plot_area is not None and plot_area["height"] > 150, f"not squeezed by rotated labels {at}: {plot_area}"
    heatmap = page.locator("#leaderboard-plot-heatmap")
    heatmap.scroll_into_view_if_needed()
    expect(heatmap.locator(".main-svg").first, f"the heatmap {at}").to_be_visible(timeout=2 * UI_TIMEOUT_MS)
    page.wait_for_function(PLOT_AT_ITS_WIDTH_JS, arg="leaderboard-plot-heatmap")
    cells_area = heatmap.locator(".nsewdrag").first.bounding_box()
    assert cells_area is not None and cells_area["width"] >= 400, f"it scrolls, it is not squeezed {at}: {cells_area}"
    radar = page.locator("#leaderboard-plot-radar")
    radar.scroll_into_view_if_needed()
    expect(radar.locator("text", has_text="Literature & Arts").first, f"the radar's axis label {at}").to_be_visible()
    shot(page, "plots", full_page=True)


def top_n_takes_a_typed_number(page: Page, top_n: int) -> None:
    """A number typed into the top-N box is how many models the overall plot shows."""
    number = page.locator("#leaderboard-top-n input[type=number]")
    number.fill(str(top_n))
    number.press("Enter")
    expect(page.locator("#leaderboard-plot-overall .main-svg").first.locator("g.ytick"),
           f"the top {top_n} at {width(page)} px").to_have_count(top_n)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1440", "390"])
def test_a_link_opens_its_tab_choosing_a_tab_updates_the_address_and_a_pasted_hub_url_is_understood(
    open_at: Callable[..., Page], viewport: dict
) -> None:
    """Loaded at the link at each width (on a phone the linked tab sits in the "More tabs" menu as the page opens);
    the Submit tab chosen then takes a pasted Hub URL."""
    page = open_at("?tab=about", viewport)
    expect(page.locator("#about-text"), "the linked tab open").to_be_visible()
    open_tab(page, "submit")
    page.wait_for_function("() => new URLSearchParams(location.search).get('tab') === 'submit'")
    a_pasted_hub_url_is_understood_and_a_refusal_looks_like_one(page)


def a_pasted_hub_url_is_understood_and_a_refusal_looks_like_one(page: Page) -> None:
    """A Hub URL pasted for a model id is read as the id; the refusal starts a sentence and shows no server path."""
    page.locator("#submit-model textarea").fill("https://huggingface.co/acme/strong-7b")
    page.locator("#submit-button").click()
    message = page.locator("#submit-message textarea")
    expect(message, "a reason given").not_to_have_value("")
    text = message.input_value()
    # The URL became the id (here the offline Hub refuses it, but not as a malformed id); the reason starts a sentence.
    assert "huggingface.co/acme" not in text and "must be 'org/name'" not in text, f"the URL read as an id: {text}"
    assert text[0].isupper(), f"the reason starts a sentence: {text}"
    assert "/tmp" not in text and "data/runs" not in text, f"no server path: {text}"
    expect(page.locator("#submit-message"), "the refusal label").to_contain_text(REFUSED_LABEL)
    shot(page, "submit")


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
