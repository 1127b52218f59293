"""Every shape of link, opened in Chromium against the real app: the server logs no traceback for any.

A link is untrusted text that every tab reads as the page opens (`leaderboard.page_link`):
unknown tabs, a link without a Judgments model, an item index of 5,000 digits, values past
their bounds, a run id longer than a file name. Each is opened in a fresh page, the page's
events are left to finish (the network goes quiet once every answer has come), and the part
of the server's log written meanwhile must hold no traceback and no error.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from playwright.sync_api import Browser, Request, expect

from tests.leaderboard.test_browser import UI_TIMEOUT_MS
from tests.leaderboard.test_first_visit_browser import app  # noqa: F401 - the app fixture, as a fresh server
from tests.support.app_server import AppServer

STRONG = "acme__strong-7b/main"
LONG_MODEL_ID = "ai4bharat-research-collective__" + "indic-gemma-instruct-long-context-" * 2 + "v2/main"
SHAHMUKHI = "سرائیکی وسیب"
NETWORK_QUIET_MS = 60_000
"""How long a page may take until its events are answered (a guard against a hang, not a measure)."""
QUIET_S = 3.0
"""How long no request may start or end before the page's events count as answered."""
STREAMS = ("/gradio_api/queue/data", "/gradio_api/heartbeat/")
"""Gradio's server-sent event streams: a page keeps them open after its events are answered."""

LINKS = {
    "plain": {},
    "qa-tab": {"tab": "qa"},
    "saraiki-tab-with-search": {"tab": "saraiki", "saraiki_q": f"{SHAHMUKHI};acme"},
    "unknown-tab": {"tab": "<script>alert(1)</script>"},
    "tab-of-5000-characters": {"tab": "x" * 5000},
    "languages-only": {"langs": "Hindi"},
    "board-values-malformed": {"langs": "Hindi,Klingon,,", "groups": "languages,<b>", "sort": "nope", "type": "?",
                               "min_b": "1e999", "max_b": "nan", "ranked_only": "yes", "license": "mit," * 400},
    "judgments-without-model": {"tab": "judgments"},
    "judgments-unknown-model": {"tab": "judgments", "model": "nobody__nothing/main", "item": "Hindi:1"},
    "judgments-model-id-longer-than-a-file-name": {"tab": "judgments", "model": "a" * 300 + "/main"},
    "judgments-100-character-model-id": {"tab": "judgments", "model": LONG_MODEL_ID, "compare": STRONG},
    "judgments-item-of-5000-digits": {"tab": "judgments", "model": STRONG, "item": "Tamil:" + "9" * 5000,
                                      "language": "Tamil"},
    "judgments-filters-malformed": {"tab": "judgments", "model": STRONG, "item": "Hindi:-1", "score_min": "abc",
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
def log(app: AppServer) -> Path:
    """The server's log: `app` (the first-visit tests' server, one for this module) writes it beside its data."""
    return app.data_dir.parent / "app.log"


def open_link(browser: Browser, url: str) -> None:
    """Open `url` in a fresh page and wait until every event the page sent is answered."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    in_flight: dict[int, str] = {}
    last_change = [time.monotonic()]

    def changed(request: Request, started: bool) -> None:
        if started:
            in_flight[id(request)] = request.url
        else:
            in_flight.pop(id(request), None)
        last_change[0] = time.monotonic()

    page.on("request", lambda request: changed(request, True))
    page.on("requestfinished", lambda request: changed(request, False))
    page.on("requestfailed", lambda request: changed(request, False))
    page.goto(url)
    expect(page.locator("#leaderboard-table, #judgments-model, #qa-search, #saraiki-search, #compare-a").first
           ).to_be_attached()
    # Our own count of requests, not Playwright's "networkidle": that state is reached once per navigation,
    # and a web font fetched late (a script's face, when its text first renders) or an event stream Gradio
    # keeps open can leave it never reached. The page is done when nothing but its streams is in flight
    # and no request has started or ended for QUIET_S.
    deadline = time.monotonic() + NETWORK_QUIET_MS / 1000

    def waiting() -> list[str]:
        return [url for url in in_flight.values() if not any(stream in url for stream in STREAMS)]

    while waiting() or time.monotonic() - last_change[0] < QUIET_S:
        assert time.monotonic() < deadline, f"still in flight after {NETWORK_QUIET_MS} ms: {waiting()}"
        page.wait_for_timeout(100)
    context.close()


@pytest.mark.parametrize("params", LINKS.values(), ids=LINKS.keys())
def test_a_link_of_any_shape_leaves_no_error_in_the_server_log(app: AppServer, log: Path, browser: Browser,
                                                               params: dict[str, str]) -> None:
    start = log.stat().st_size
    open_link(browser, f"{app.url}?{urlencode(params, quote_via=quote)}" if params else app.url)
    written = log.read_bytes()[start:].decode("utf-8", "replace")
    assert "Traceback" not in written and "Error" not in written, written[-3000:]


def test_a_judgments_link_s_good_parts_apply_when_its_item_is_malformed(app: AppServer, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(UI_TIMEOUT_MS)
    page.goto(f"{app.url}?{urlencode(LINKS['judgments-item-of-5000-digits'])}")
    expect(page.locator("#judgments-model input")).to_have_value("acme/strong-7b", timeout=UI_TIMEOUT_MS)
    expect(page.locator("#filter-language input")).to_have_value("Tamil", timeout=UI_TIMEOUT_MS)
    context.close()
