"""A first visit: the board arrives inside the page, and the page asks the server for nothing.

The first view is prerendered (`leaderboard.first_view`) and the page is served from memory
(`leaderboard.page_cache`), so a crowd of new visitors costs no event each. Checked in Chromium
at a laptop's and a phone's width, and over HTTP against the board's own API. The page's timers are
driven by Playwright's clock (`page.clock`): what a page would send within a period is seen at once.
"""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, Request, expect

from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.app_factory import DOCUMENTED_ENDPOINTS
from leaderboard.scored_tables import tab_id
from leaderboard.tabs.submit_tab import QUEUE_REFRESH_S
from tests.leaderboard.test_board_browser import SCORE
from tests.leaderboard.test_browser import UI_TIMEOUT_MS, board_rows, cells
from tests.support.app_server import AppServer
from tests.support.browser_pages import LAPTOP, PHONE, open_breakdowns, open_plots
from tests.support.viewer_load import call_endpoint, component_value, endpoint_inputs, page_config

EVENT_PATHS = re.compile(r"/gradio_api/(queue/join|run/|call/)")
"""Where the page sends events to the server (queued, direct and API calls)."""
PLOTTING_SCRIPT = re.compile(r"/assets/PlotlyPlot-[^/]*\.js")
"""Gradio's plotting library (1.1 MB): a page fetches it when a plot it mounts has a figure."""


QUIET_PERIOD_MS = int((QUEUE_REFRESH_S + 2) * 1_000)
"""A span of the page's time longer than its shortest timer (the queue poll), shorter than the board's refresh
(LEADERBOARD_REFRESH_S, 60 s by default: an open page then asks whether new results came, as it should)."""


@pytest.fixture(scope="module")
def app(board_app: AppServer) -> AppServer:
    """The shared board: it runs with the default refresh period, so a page's own timers stay quiet for a minute."""
    return board_app


def visit(browser: Browser, url: str, viewport: dict) -> tuple[Page, list[str]]:
    """Open `url` with the page's clock in the test's hands; the list of events it sends, filled as the page runs
    (each test waits for what it needs).

    Not "network idle": a page with a link holds the event streams of its answers open for a while.
    """
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    page.clock.install()  # time still flows; `let_time_pass` runs the page's timers ahead of it
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if EVENT_PATHS.search(request.url) else None)
    page.goto(url)
    return page, sent


def let_time_pass(page: Page, milliseconds: int) -> None:
    """Run every timer the page would fire within `milliseconds`, now; the requests they start are reported
    before this returns (one more round trip to the page, whose messages come in order)."""
    page.clock.run_for(milliseconds)
    page.evaluate("() => document.readyState")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1440", "390"])
def test_a_first_visit_shows_scores_without_sending_an_event(app: AppServer, browser: Browser, viewport: dict) -> None:
    page, sent = visit(browser, app.url, viewport)

    expect(board_rows(page)).to_have_count(3)
    assert any(SCORE.match(cell) for row in cells(board_rows(page)) for cell in row)
    let_time_pass(page, QUIET_PERIOD_MS)  # anything the page would send on its own, its timers' ticks too
    assert sent == []
    assert page.evaluate("window.location.search") == ""  # nothing changed, so nothing to write in the address
    page.context.close()


def queue_poll(url: str) -> int:
    """The id of the event that polls the queue: a timer's tick whose outputs are the queue tables."""
    config = page_config(httpx.get(url, timeout=60).text)
    pending = next(c["id"] for c in config["components"] if c.get("props", {}).get("elem_id") == "queue-pending")
    return next(d["id"] for d in config["dependencies"]
                if pending in d["outputs"] and any(event == "tick" for _, event in d["targets"]))


def test_a_page_reading_the_board_does_not_poll_the_queue(app: AppServer, browser: Browser) -> None:
    poll = queue_poll(app.url)

    def polls_the_queue(request: Request) -> bool:
        return bool(EVENT_PATHS.search(request.url) and request.post_data
                    and json.loads(request.post_data).get("fn_index") == poll)

    page, _ = visit(browser, app.url, LAPTOP)
    polls: list[Request] = []
    page.on("request", lambda request: polls.append(request) if polls_the_queue(request) else None)
    expect(board_rows(page)).to_have_count(3)

    let_time_pass(page, QUIET_PERIOD_MS)  # a whole polling period on the board
    assert polls == [], "the board polled the queue"
    # Once its tab is open the queue is polled within a period: its timer, mounted with the tab, run ahead.
    page.get_by_role("tab", name="Submit").click()
    expect(page.locator("#queue-pending")).to_be_visible()
    with page.expect_request(polls_the_queue):
        page.clock.run_for(QUIET_PERIOD_MS)
    page.context.close()


def test_a_shared_link_asks_only_for_the_view_it_names(app: AppServer, browser: Browser) -> None:
    page, sent = visit(browser, app.url + "?tab=leaderboard&q=strong", LAPTOP)

    expect(board_rows(page)).to_have_count(1)
    assert cells(board_rows(page))[0][1].startswith("acme/strong-7b")
    assert sent, "a link's view is asked for"
    page.context.close()


@pytest.mark.parametrize("address", ["?tab=about", "?model=acme/strong-7b"])
def test_a_link_to_another_view_asks_nothing_of_the_benchmark_tabs(app: AppServer, browser: Browser,
                                                                    address: str) -> None:
    config = page_config(httpx.get(app.url, timeout=60).text)
    elem_ids = {c["id"]: c.get("props", {}).get("elem_id") or "" for c in config["components"]}
    outputs = {d["id"]: [elem_ids.get(output, "") for output in d["outputs"]] for d in config["dependencies"]}
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    sent: list[int] = []
    page.on("request", lambda request: sent.append(json.loads(request.post_data)["fn_index"])
            if "/gradio_api/queue/join" in request.url and request.post_data else None)
    page.goto(app.url + address)
    if "about" in address:
        expect(page.locator("#about-text")).to_be_visible()
    else:
        expect(page.locator("#model-page")).to_contain_text("acme/strong-7b")
    page.evaluate("() => document.readyState")  # the requests the page started are reported by now
    written = {elem_id for fn_index in sent for elem_id in outputs[fn_index]}
    tabs = [tab_id(benchmark) for benchmark in BENCHMARKS.values()]
    assert sent, "the link's view is asked for"
    assert not {elem_id for elem_id in written if elem_id.startswith(tuple(f"{tab}-" for tab in tabs))}, written
    page.context.close()


def test_the_plots_and_figures_per_group_stay_folded_and_undrawn_until_opened(app: AppServer,
                                                                             browser: Browser) -> None:
    config = page_config(httpx.get(app.url, timeout=60).text)
    plots = [c for c in config["components"] if c["type"] == "plot"]
    assert plots and all(plot["props"].get("value") is None for plot in plots), "a figure in the page"
    breakdown = component_value(config, "leaderboard-breakdown")["data"]
    assert not any(cell not in ("", None) for row in breakdown for cell in row), "figures per group in the page"
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if PLOTTING_SCRIPT.search(request.url) else None)
    page.goto(app.url)
    expect(board_rows(page)).to_have_count(3)
    expect(page.locator("#leaderboard-top-n")).to_be_hidden()  # folded
    assert fetched == [], "the first view fetched the plotting library"

    open_plots(page, "leaderboard")
    expect(page.locator("#leaderboard-plot-overall .main-svg").first).to_be_visible()
    assert fetched, "opened plots are drawn with the plotting library"
    open_breakdowns(page, "leaderboard")
    expect(board_rows(page, "leaderboard-breakdown").first).to_be_visible()
    page.context.close()


def test_the_page_carries_the_board_the_api_serves(app: AppServer) -> None:
    with httpx.Client(base_url=app.url, timeout=60) as client:
        pages = [client.get("/").text for _ in range(3)]
        from_api = call_endpoint(client, "leaderboard_view", endpoint_inputs(page_config(pages[0]), "leaderboard_view"))[0]

    assert pages[0] == pages[1] == pages[2]  # one prerendered page for everyone
    in_page = component_value(page_config(pages[0]), "leaderboard-table")
    assert in_page["headers"] == from_api["value"]["headers"]
    assert in_page["data"] == from_api["value"]["data"]
    assert len(in_page["data"]) == 3


def test_the_page_documents_only_the_board_s_own_api(app: AppServer) -> None:
    html = httpx.get(app.url, timeout=60).text
    marker = "window.gradio_api_info = "
    info, _ = json.JSONDecoder().raw_decode(html, html.index(marker) + len(marker))
    # the page's own wiring stays callable (every browser test runs on it) but is not described in every page
    assert sorted(info["named_endpoints"]) == sorted(f"/{name}" for name in DOCUMENTED_ENDPOINTS)
