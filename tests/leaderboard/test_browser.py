"""The app in a real browser: `app.py` as a subprocess, Debian's Chromium driven by Playwright.

The read-only tests use the session's shared board server (`board_app`); the one test that writes into
its runs folder starts a server of its own. Screenshots land in test-artifacts/ (not committed).
"""

from __future__ import annotations

import json
import re
import shutil
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import httpx
import pandas as pd
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from eval_backend.consistency import ConsistencyReport, ScoredPair, write_report
from eval_backend.details import read_details
from eval_backend.run_folder import RunFolder
from eval_backend.submissions.model_facts import SubmissionRejected
from eval_backend.submissions.validation import check_model_id
from leaderboard.submit_messages import REFUSED_LABEL, readable
from tests.support.app_server import AppServer, running_app
from tests.support.browser_pages import UI_TIMEOUT_MS, open_plots
from tests.support.hub_dataset import read_rows
from tests.support.run_folders import SCRIPT_MODEL_ID, EvaluatedData
from tests.support.viewer_load import call_endpoint

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
DOWNLOAD_TRIES = 20


@dataclass
class BrowserPage:
    """A page and every JavaScript dialog it opened (an alert would mean injected script ran)."""

    page: Page
    dialogs: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def app(board_app: AppServer) -> AppServer:
    return board_app


@pytest.fixture(scope="module")
def writable_app(evaluated: EvaluatedData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """A server of its own over a private copy of the board, looking for new results every 2 s: a test writes there."""
    root = tmp_path_factory.mktemp("browser-writable")
    shutil.copytree(evaluated.data_dir, root / "data")
    with running_app(root / "data", root / "app.log", LEADERBOARD_REFRESH_S="2") as server:
        yield server


@contextmanager
def open_ui(browser: Browser, url: str) -> Iterator[BrowserPage]:
    """The app at `url` in a fresh 1400×1000 page; fails afterwards if any JavaScript dialog opened."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    opened = BrowserPage(page)
    page.on("dialog", lambda dialog: (opened.dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(url)
    yield opened
    context.close()
    assert opened.dialogs == [], f"a JavaScript dialog opened: {opened.dialogs}"


@pytest.fixture
def ui(app: AppServer, browser: Browser) -> Iterator[BrowserPage]:
    with open_ui(browser, app.url) as opened:
        # The complete runs; the partial and incomplete ones are in a table apart.
        expect(board_rows(opened.page)).to_have_count(3, timeout=UI_TIMEOUT_MS)
        expect(board_rows(opened.page, "leaderboard-unranked")).to_have_count(2, timeout=UI_TIMEOUT_MS)
        yield opened


def board_rows(page: Page, elem_id: str = "leaderboard-table"):
    return page.locator(f"#{elem_id} [role=row][aria-rowindex]:not([aria-rowindex='1'])")


def cells(rows) -> list[list[str]]:
    script = "rows => rows.map(r => Array.from(r.querySelectorAll('[role=gridcell]')).map(c => c.innerText.trim()))"
    return rows.evaluate_all(script)


def headers(page: Page, elem_id: str) -> list[str]:
    return page.locator(f"#{elem_id} [role=columnheader]").evaluate_all("hs => hs.map(h => h.innerText.trim())")


def linked_href(link: Locator) -> str:
    """Where a grid cell's link leads once pointed at: a score link written against its row's first
    (`cell_links.row_links`) is made whole by the page's script then."""
    link.hover()
    return str(link.get_attribute("href"))


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"browser-{name}.png"), full_page=True)


def choose(page: Page, elem_id: str, option: str) -> None:
    """Pick `option` in the dropdown `elem_id`: its own list, as another dropdown's may still be open."""
    page.locator(f"#{elem_id} input").click()
    page.locator(f"#{elem_id}").get_by_role("option", name=option, exact=True).click()


def download(page: Page, elem_id: str, target: Path, name_contains: str = "") -> Path:
    """Click a download button until it serves a file whose name contains `name_contains`.

    A button's file is replaced when a new model is chosen; until then it serves the last one.
    """
    for _ in range(DOWNLOAD_TRIES):
        with page.expect_download() as info:
            page.locator(f"#{elem_id}").click()
        if name_contains in info.value.suggested_filename:
            info.value.save_as(target)
            return target
        page.wait_for_timeout(500)
    pytest.fail(f"#{elem_id} never served a file named like {name_contains!r}")


def test_the_board_ranks_the_models_draws_escaped_plots_and_its_filters_and_view_download_follow(
    ui: BrowserPage, evaluated: EvaluatedData, tmp_path: Path
) -> None:
    """Read as the page opens (the ranking, its links, the runs apart, the plots), then filtered: the column groups
    and a search, then another search and the CSV of that view."""
    board_ranks_the_models_and_shows_a_script_id_as_text(ui.page, evaluated)
    plots_render_with_escaped_labels(ui.page)
    column_groups_toggle_and_search_filters(ui.page)
    view_download_is_the_filtered_view(ui.page, tmp_path)


def board_ranks_the_models_and_shows_a_script_id_as_text(page: Page, evaluated: EvaluatedData) -> None:
    """The complete runs ranked in order, a script id as text, Hub links on Hub ids only, the others apart."""
    rows = cells(board_rows(page))
    model = headers(page, "leaderboard-table").index("Model")
    assert [row[model] for row in rows] == evaluated.ranked_models(), "the models in ranking order"
    assert [row[0] for row in rows] == ["1", "2", "3"], "the ranks"
    expect(page.locator("#leaderboard-intro"), "what ranks them").to_contain_text("Ranked by the Indic average")
    expect(board_rows(page).get_by_text(SCRIPT_MODEL_ID, exact=True), "a script id as text").to_be_visible()
    assert page.locator("#leaderboard-table script").count() == 0, "no script element in the board"
    # the model name links to the Hub; the script id is no Hub id, so no link (scores link to their items)
    links = board_rows(page).locator("a[href^='https://huggingface.co']")
    assert links.count() == 2 and links.first.get_attribute("href") == f"https://huggingface.co/{rows[0][model]}", (
        "Hub links on the two Hub ids")
    apart = cells(board_rows(page, "leaderboard-unranked"))
    note = headers(page, "leaderboard-unranked").index("Why not ranked")
    assert [row[note] for row in apart] == ["partial: 2 of 4 configs", "incomplete: 21 of 24 items"], (
        "why the runs apart are not ranked")
    shot(page, "leaderboard")


def plots_render_with_escaped_labels(page: Page) -> None:
    """Every plot of the tab draws, its labels drawn as literal characters."""
    page.get_by_role("tab", name="Indic WritingBench v1").click()
    open_plots(page, "leaderboard")
    for plot in ("leaderboard-plot-overall", "leaderboard-plot-heatmap", "leaderboard-plot-variants",
                 "leaderboard-plot-radar", "leaderboard-plot-language-variants", "leaderboard-plot-subdomains"):
        page.locator(f"#{plot}").scroll_into_view_if_needed()
        expect(page.locator(f"#{plot} .main-svg").first, f"#{plot} drawn").to_be_visible(timeout=UI_TIMEOUT_MS)
    overall = page.locator("#leaderboard-plot-overall .main-svg").first.text_content() or ""
    assert "acme/strong-7b" in overall and SCRIPT_MODEL_ID in overall, "labels drawn as literal characters"
    shot(page, "plots")


def column_groups_toggle_and_search_filters(page: Page) -> None:
    """Column groups swap the board's columns; a search keeps the matching models."""
    assert "Hindi" in headers(page, "leaderboard-table"), "the language columns shown at first"
    assert "Literature & Arts" not in headers(page, "leaderboard-table"), "the domain columns hidden at first"
    page.locator("#leaderboard-filters").get_by_text("Column groups, filters").click()  # folded: the rows come first
    page.locator("#leaderboard-column-groups").get_by_label("Language", exact=True).uncheck()
    page.locator("#leaderboard-column-groups").get_by_label("Domain", exact=True).check()
    expect(page.locator("#leaderboard-table [role=columnheader]", has_text="Literature & Arts"),
           "the domain group shown").to_have_count(1)
    assert "Hindi" not in headers(page, "leaderboard-table"), "the language group hidden"
    page.locator("#leaderboard-search textarea").fill("acme")
    expect(board_rows(page), "the search's matches").to_have_count(2)
    model = headers(page, "leaderboard-table").index("Model")
    assert [row[model] for row in cells(board_rows(page))] == ["acme/strong-7b", "acme/reasoner-3b"], (
        "the search's matches, in ranking order")
    shot(page, "leaderboard-filtered")


def view_download_is_the_filtered_view(page: Page, tmp_path: Path) -> None:
    """The view's CSV holds the rows a search keeps (runs apart included), with every score column."""
    page.locator("#leaderboard-search textarea").fill("partial; flaky")
    expect(board_rows(page, "leaderboard-unranked"), "the matching runs apart").to_have_count(2)
    expect(board_rows(page), "no ranked run matches").to_have_count(0)
    exported = pd.read_csv(download(page, "leaderboard-download-view", tmp_path / "view.csv"))
    assert list(exported["model"]) == ["bharat/partial-1b", "flaky/judge-fails-2b"], "the CSV's rows: the view's"
    assert "language.Hindi" in exported.columns, "the CSV's columns: every score"


def test_an_item_s_judgment_opens_follows_the_chosen_model_keeps_a_script_as_text_and_downloads_match(
    ui: BrowserPage, evaluated: EvaluatedData, tmp_path: Path
) -> None:
    """On the benchmark's tab: an item's judgment with its query, rubric and a comparison; the same row after
    another model is chosen; a model whose id and answer are script; then every item of another model downloaded."""
    page = ui.page
    page.get_by_role("tab", name="Indic WritingBench v1").click()
    an_item_s_judgment_opens_with_query_rubric_and_comparison(page, evaluated)
    the_same_row_after_switching_model_shows_the_new_model_s_judgment(page)
    a_script_in_a_model_id_and_response_stays_text(page)
    judgment_downloads_match_the_run_folder(page, evaluated, tmp_path)


def an_item_s_judgment_opens_with_query_rubric_and_comparison(page: Page, evaluated: EvaluatedData) -> None:
    """A Hindi item of the first model shows its answer, query and criteria, and a second model's answer beside."""
    expect(page.locator("#leaderboard-model input"), "the first model chosen").to_have_value("acme/strong-7b")
    choose(page, "leaderboard-group", "Hindi")
    expect(items_of(page), "the Hindi items").to_have_count(6)
    items_of(page).first.locator("[role=gridcell]").nth(2).click()
    expect(page.locator("#leaderboard-response .answer"), "the item's answer").to_contain_text(
        "acme/strong-7b writes about Hindi-0000")
    query = read_rows(evaluated.dataset_dir, "Hindi")[0]["query"]
    expect(page.locator("#leaderboard-question textarea"), "the item's query").to_have_value(query)
    criteria = page.locator("#leaderboard-parts")
    expect(criteria.locator("section.criterion h4").first, "the first criterion's score").to_have_text(
        re.compile(r"^1\. Task Fulfilment: \d+/10$"))
    expect(criteria.locator("details li", has_text="9-10:"), "each criterion's rubric").to_have_count(5)
    choose(page, "leaderboard-compare", "acme/reasoner-3b")
    expect(page.locator("#leaderboard-second-response .answer"), "the compared model's answer").to_contain_text(
        "acme/reasoner-3b writes about Hindi-0000")
    page.locator("#leaderboard-second-reasoning-panel").get_by_text("Reasoning (removed before scoring)").click()
    expect(page.locator("#leaderboard-second-reasoning textarea"), "the compared model's reasoning").to_have_value(
        re.compile(r"<think>"))
    shot(page, "judgment")


def the_same_row_after_switching_model_shows_the_new_model_s_judgment(page: Page) -> None:
    """Choosing another model takes the old model's item down; the same row then shows the new model's."""
    expect(page.locator("#leaderboard-model input"), "the first model still chosen").to_have_value("acme/strong-7b")
    items_of(page).first.locator("[role=gridcell]").nth(2).click()
    expect(page.locator("#leaderboard-response .answer"), "the first model's answer").to_have_text(
        re.compile(r"^\[quality=\d+\] acme/strong-7b "))
    choose(page, "leaderboard-model", "acme/reasoner-3b")
    expect(page.locator("#leaderboard-response"), "the old model's item is not left up").to_be_hidden()
    items_of(page).first.locator("[role=gridcell]").nth(2).click()
    expect(page.locator("#leaderboard-response .answer"), "the new model's answer").to_contain_text(
        "acme/reasoner-3b writes about")
    expect(page.locator("#leaderboard-panel-title textarea"), "the new model's title").to_have_value(
        re.compile(r"^acme/reasoner-3b"))
    shot(page, "judgment-after-model-switch")


def a_script_in_a_model_id_and_response_stays_text(page: Page) -> None:
    """A model whose id and answer hold a script element: both shown as text, no element made."""
    choose(page, "leaderboard-model", SCRIPT_MODEL_ID)
    # The choice has gone through (its items listed, the address written) before an item is clicked: a click while
    # the table is redrawn lands on the old rows.
    page.wait_for_function("""() => {
      const params = new URLSearchParams(location.search);
      return (params.get('leaderboard_model') || '').startsWith('evil-org') && !params.has('leaderboard_item');
    }""")
    items_of(page).first.locator("[role=gridcell]").nth(2).click()
    expect(page.locator("#leaderboard-response .answer"), "the script answer as text").to_contain_text(
        "<script>alert(1)</script>")
    assert page.locator("#leaderboard-response script").count() == 0, "no script element in the answer"
    expect(page.locator("#leaderboard-panel-title textarea"), "the script id as text").to_have_value(
        re.compile(re.escape(SCRIPT_MODEL_ID)))
    shot(page, "judgment-script")


def judgment_downloads_match_the_run_folder(page: Page, evaluated: EvaluatedData, tmp_path: Path) -> None:
    """A model's items downloaded as JSONL, CSV and Parquet: the run folder's items, each with its status."""
    choose(page, "leaderboard-model", "flaky/judge-fails-2b")
    expected = read_details(evaluated.folders["flaky/judge-fails-2b"].details_path)
    for fmt in ("jsonl", "csv", "parquet"):
        path = download(page, f"leaderboard-download-{fmt}", tmp_path / f"judgments.{fmt}", "flaky__judge-fails-2b")
        if fmt == "jsonl":
            got = pd.DataFrame([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()])
        else:
            got = pd.read_csv(path) if fmt == "csv" else pd.read_parquet(path)
        assert got["model"].unique().tolist() == ["flaky/judge-fails-2b"], f"the {fmt} download's models"
        assert list(zip(got["config"], got["index"], got["status"])) == list(
            zip(expected["config"], expected["index"], expected["status"])), f"the {fmt} download's items"


def items_of(page: Page) -> Locator:
    """The rows of the benchmark tab's items table, its header row left out."""
    return page.locator("#leaderboard-items [role=row][aria-rowindex]:not([aria-rowindex='1'])")


@pytest.mark.parametrize("run_id", ["/advescape-test", "//advescape-test", "../../etc"])
def test_the_judgments_api_refuses_a_run_id_outside_the_runs_folder(app: AppServer, run_id: str) -> None:
    with httpx.Client(base_url=app.url, timeout=30) as client:
        with pytest.raises(ValueError, match="answered an error"):
            call_endpoint(client, "judgments", [run_id])
        assert len(call_endpoint(client, "judgments", ["acme__strong-7b/main"])[0]["items"]) > 0


def test_submit_refuses_with_the_engine_s_reason_the_chat_or_raw_choice_reaches_the_engine_and_about_explains_a_row(
    ui: BrowserPage
) -> None:
    """The Submit tab, then the About tab: neither changes what the other shows."""
    page = ui.page
    page.get_by_role("tab", name="Submit").click()
    with pytest.raises(SubmissionRejected) as rejected:
        check_model_id("not a model id")
    expect(page.get_by_label("Submitting as (local user, LOCAL_USER)"), "the local user").to_have_value(
        "browser-tester")
    # What a submission costs in judge tokens, measured on the board's complete runs, live and in batch mode.
    expect(page.locator("#submit-cost"), "the judge cost line").to_contain_text(
        re.compile(r"judge calls .* at live prices, .* in batch mode"))
    page.locator("#submit-model textarea").fill("not a model id")
    page.locator("#submit-button").click()
    expect(page.locator("#submit-message textarea"), "the engine's reason").to_have_value(
        readable(str(rejected.value)))
    expect(page.locator("#submit-message"), "the refusal label").to_contain_text(REFUSED_LABEL)
    shot(page, "submit")

    mode = page.locator("#submit-chat-mode")
    expect(mode.get_by_label("Auto: chat if the model has a chat template, else raw"),
           "auto is the default prompt mode").to_be_checked()
    mode.get_by_label("Raw text (base models)").check()
    page.locator("#submit-benchmarks").get_by_label("Saraiki").uncheck()  # raw, with no benchmark that offers it
    page.locator("#submit-model textarea").fill("org/base-model")
    page.locator("#submit-button").click()
    expect(page.locator("#submit-message textarea"), "the raw choice reached the engine").to_have_value(
        re.compile(r"^Raw prompts are offered by saraiki only; .*asks? prompts as chat turns\.$"))
    page.get_by_role("tab", name="About").click()
    expect(page.locator("#about-text"), "how to reproduce a row").to_contain_text("python -m eval_backend judge")
    expect(page.locator("#about-text"), "the prompt renderings").to_contain_text(
        "per prompt rendering (native / code mixed / romanized)")


def test_what_is_written_into_the_runs_folder_shows_without_a_restart(
    writable_app: AppServer, browser: Browser
) -> None:
    """A judge-consistency report shows in About as text, and a new run joins the board (LEADERBOARD_REFRESH_S)."""
    pairs = (ScoredPair("Hindi", 0, 0, 7, 7), ScoredPair("Hindi", 0, 1, 6, 8), ScoredPair("Tamil", 1, 0, 5, 4))
    judge = "<b>judge</b>-x"
    report = ConsistencyReport(judge, "stand-in-judge", seed=0, requested=3, sampled=3, failed=0, pairs=pairs)
    strong = next((writable_app.data_dir / "runs").rglob("acme__strong-7b"))  # whichever runs tree the app uses
    write_report(RunFolder(strong / "main"), report)
    with open_ui(browser, writable_app.url) as ui:
        page = ui.page
        expect(board_rows(page), "the complete runs before").to_have_count(3)
        page.get_by_role("tab", name="About").click()
        rows = page.locator("#judge-consistency [role=row][aria-rowindex]:not([aria-rowindex='1'])")
        expect(rows, "one judge's consistency").to_have_count(1)
        row = cells(rows)[0]
        assert row[:5] == ["Indic WritingBench v1", judge, "stand-in-judge", "1", "3"], (
            "benchmark, judge, judge model, runs, pairs")
        assert [float(value) for value in row[5:9]] == pytest.approx([0.33, 0.67, 0.5, 1.0], abs=0.01), "agreement"
        assert row[9] == "", "one run: no order of models to compare"
        assert page.locator("#judge-consistency b").count() == 0, "the judge's markup stays text"
        shot(page, "about-consistency")

        new = shutil.copytree(strong / "main", strong / "v2")
        request = json.loads((new / "request.json").read_text())
        (new / "request.json").write_text(json.dumps({**request, "revision": "v2"}))
        page.get_by_role("tab", name="Indic WritingBench v1").click()
        expect(board_rows(page), "the three complete runs and the new one").to_have_count(4)
        columns = headers(page, "leaderboard-table")
        model, revision = columns.index("Model"), columns.index("Revision")
        revisions = [(row[model], row[revision]) for row in cells(board_rows(page))]
        assert ("acme/strong-7b", "v2") in revisions and ("acme/strong-7b", "main") in revisions, revisions
