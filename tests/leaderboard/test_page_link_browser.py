"""Every shape of link, opened in Chromium against the real app: the server logs no traceback for any.

A link is untrusted text that every tab reads as the page opens (`leaderboard.page_link`):
unknown tabs, a link without a Judgments model, an item index of 5,000 digits, values past
their bounds, a run id longer than a file name. They are opened a few at once, each in a fresh
context, as several visitors would; their events are left to finish (the network goes quiet once
every answer has come), and the part of the server's log written meanwhile must hold no
traceback and no error. When it does, each link is opened again alone, to name the one at fault.
"""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from playwright.sync_api import Browser, Request, expect

from tests.leaderboard.test_browser import UI_TIMEOUT_MS
from tests.support.app_server import AppServer

STRONG = "acme__strong-7b/main"
LONG_MODEL_ID = "ai4bharat-research-collective__" + "indic-gemma-instruct-long-context-" * 2 + "v2/main"
SHAHMUKHI = "سرائیکی وسیب"
NETWORK_QUIET_MS = 120_000
"""How long a link may take, from its opening, until its events are answered (a guard against a hang)."""
QUIET_S = 3.0
"""How long no request may start or end before the page's events count as answered."""
STREAMS = ("/gradio_api/queue/data", "/gradio_api/heartbeat/")
"""Gradio's server-sent event streams: a page keeps them open after its events are answered."""
VIEWPORT = {"width": 1400, "height": 1000}
AT_ONCE = 3
"""How many links are open at a time (more only queue behind each other on the server)."""
PAGE_SHOWN = "#leaderboard-table, #leaderboard-model, #qa-search, #saraiki-search, #compare-a"
"""Any of the tabs' first elements: the page has rendered."""

LINKS = {
    "plain": {},
    "qa-tab": {"tab": "qa"},
    "saraiki-tab-with-search": {"tab": "saraiki", "saraiki_q": f"{SHAHMUKHI};acme"},
    "unknown-tab": {"tab": "<script>alert(1)</script>"},
    "tab-of-5000-characters": {"tab": "x" * 5000},
    "languages-only": {"langs": "Hindi"},
    "board-values-malformed": {"langs": "Hindi,Klingon,,", "groups": "languages,<b>", "sort": "nope", "type": "?",
                               "min_b": "1e999", "max_b": "nan", "ranked_only": "yes", "license": "mit," * 400},
    "leaderboard-without-model": {"tab": "judgments"},
    "leaderboard-unknown-model": {"tab": "judgments", "model": "nobody__nothing/main", "item": "Hindi:1"},
    "leaderboard-model-id-longer-than-a-file-name": {"tab": "judgments", "model": "a" * 300 + "/main"},
    "leaderboard-100-character-model-id": {"tab": "judgments", "model": LONG_MODEL_ID, "compare": STRONG},
    "leaderboard-item-of-5000-digits": {"tab": "judgments", "model": STRONG, "item": "Tamil:" + "9" * 5000,
                                      "language": "Tamil"},
    "leaderboard-filters-malformed": {"tab": "judgments", "model": STRONG, "item": "Hindi:-1", "score_min": "abc",
                                    "score_max": "-1", "unscored": "maybe", "domain": "<b>x</b>"},
    "qa-search-past-its-bound": {"tab": "qa", "qa_q": "x" * 3000},
    "compare-two-models": {"tab": "compare", "a": STRONG, "b": "acme__reasoner-3b/main"},
    "compare-100-character-model-id": {"tab": "compare", "a": LONG_MODEL_ID, "b": STRONG},
    "compare-one-model-twice": {"tab": "compare", "a": STRONG, "b": STRONG},
    "compare-unknown-and-outside-the-runs": {"tab": "compare", "a": "nobody__nothing/main", "b": "../../../etc/passwd"},
    "compare-matrix-of-another-benchmark": {"tab": "compare", "matrix": "saraiki", "figure": "over_refusal_rate",
                                            "top": "2"},
    "compare-matrix-malformed": {"tab": "compare", "matrix": "<b>x</b>", "figure": "judge", "top": "1e999"},
    "compare-matrix-past-its-bound": {"tab": "compare", "top": "100000", "figure": "overall"},
}


@pytest.fixture(scope="module")
def app(board_app: AppServer) -> AppServer:
    return board_app


@pytest.fixture(scope="module")
def log(app: AppServer) -> Path:
    """The server's log: the shared board server writes it beside its data (only this test's part is read)."""
    return app.data_dir.parent / "app.log"


class OpenedLink:
    """A link opened in a page of its own context, with the requests of that page still in flight."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.context = browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()
        self.page.set_default_timeout(UI_TIMEOUT_MS)
        self.in_flight: dict[int, str] = {}
        self.opened_at = self.last_change = time.monotonic()
        self.page.on("request", lambda request: self._changed(request, True))
        self.page.on("requestfinished", lambda request: self._changed(request, False))
        self.page.on("requestfailed", lambda request: self._changed(request, False))
        self.page.goto(url, wait_until="commit")  # the others load meanwhile: each is waited for in `open_links`

    def _changed(self, request: Request, started: bool) -> None:
        if started:
            self.in_flight[id(request)] = request.url
        else:
            self.in_flight.pop(id(request), None)
        self.last_change = time.monotonic()

    def waiting(self) -> list[str]:
        """What the page still waits for, its event streams aside."""
        return [url for url in self.in_flight.values() if not any(stream in url for stream in STREAMS)]

    def answered(self) -> bool:
        """Rendered, nothing but the page's streams in flight, and no request started or ended for QUIET_S."""
        quiet = not self.waiting() and time.monotonic() - self.last_change >= QUIET_S
        return quiet and self.page.locator(PAGE_SHOWN).count() > 0

    def overdue(self) -> bool:
        return time.monotonic() - self.opened_at > NETWORK_QUIET_MS / 1000


def open_links(browser: Browser, urls: list[str]) -> None:
    """Open the urls, AT_ONCE at a time, each in a fresh context, and wait until every event each page sent
    is answered; a page answered is closed and the next link opened in its place.

    Our own count of requests, not Playwright's "networkidle": that state is reached once per navigation,
    and a web font fetched late (a script's face, when its text first renders) or an event stream Gradio
    keeps open can leave it never reached.
    """
    to_open, opened = deque(urls), []
    while to_open or opened:
        while to_open and len(opened) < AT_ONCE:
            opened.append(OpenedLink(browser, to_open.popleft()))
        for link in [link for link in opened if link.answered()]:
            link.context.close()
            opened.remove(link)
        overdue = [link for link in opened if link.overdue()]
        assert not overdue, f"not answered {NETWORK_QUIET_MS} ms after opening: " + "; ".join(
            f"{link.page.url}: {link.waiting() or 'nothing rendered'}" for link in overdue)
        if opened:
            opened[0].page.wait_for_timeout(100)  # lets every page's events through


def link_url(app: AppServer, params: dict[str, str]) -> str:
    return f"{app.url}?{urlencode(params, quote_via=quote)}" if params else app.url


def errors_written(log: Path, browser: Browser, urls: list[str]) -> str:
    """What the server logged of a traceback or an error while `urls` were opened ("" when nothing)."""
    start = log.stat().st_size
    open_links(browser, urls)
    written = log.read_bytes()[start:].decode("utf-8", "replace")
    return written if "Traceback" in written or "Error" in written else ""


def test_no_link_of_any_shape_leaves_an_error_in_the_server_log(app: AppServer, log: Path, browser: Browser) -> None:
    urls = {name: link_url(app, params) for name, params in LINKS.items()}
    written = errors_written(log, browser, list(urls.values()))
    if written:  # opened together, the log cannot say whose: each link is opened again alone to name it
        culprits = [name for name, url in urls.items() if errors_written(log, browser, [url])]
        pytest.fail(f"links that leave an error in the server log: {culprits or 'none alone'}\n{written[-3000:]}")


def test_a_judgments_link_s_good_parts_apply_when_its_item_is_malformed(app: AppServer, browser: Browser) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    page.goto(f"{app.url}?{urlencode(LINKS['leaderboard-item-of-5000-digits'])}")
    expect(page.locator("#leaderboard-model input")).to_have_value("acme/strong-7b", timeout=UI_TIMEOUT_MS)
    expect(page.locator("#leaderboard-group input")).to_have_value("Tamil", timeout=UI_TIMEOUT_MS)
    context.close()
