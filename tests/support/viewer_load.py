"""Simulated viewers: each opens the page, asks for the board and for one model's judgments over HTTP.

The page carries the board's first view (prerendered, `leaderboard.first_view`): a viewer has
the board when the page has arrived, and the step checks its rows are in it. The page's own board
event (`/leaderboard_view`; `/leaderboard` in apps before the documented API), with the page's control
values, then stands for a viewer's next view, and `/judgments_view` (`/judgments`) for opening a
model's judgments; both are called the way the page's
JavaScript does: POST the inputs, then read the event stream until the result.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx

BROWSER_ENCODINGS = {"accept-encoding": "gzip, deflate, br, zstd"}

STEPS = ("page", "static files", "leaderboard", "judgments")
BOARD_EVENTS = ("leaderboard_view", "board_view", "leaderboard")
"""The page's own board event: its name now (Indic WritingBench's tab, `leaderboard`, and its rankings' view), in
apps before the one tab (`board_view`), and before the documented API took `leaderboard` (a reference app)."""
JUDGMENTS_EVENTS = ("judgments_view", "judgments")
"""A visit: the page (which carries the board's first view), the scripts, styles and fonts a browser
fetches to draw it, another view of the board, a model's judgments."""


@dataclass(frozen=True)
class ViewerResult:
    """One viewer's visit: seconds per step, and the error that ended it (None if it went through).

    `board_s` is how long the viewer waited for the board: the page alone when the page
    carries it (`rows_in_page` > 0), else the page and then the board's endpoint.
    """

    seconds: dict[str, float]
    board_rows: int = 0
    judgment_rows: int = 0
    rows_in_page: int = 0
    static_files: int = 0
    error: str | None = None

    @property
    def total_s(self) -> float:
        return sum(self.seconds.values())

    @property
    def board_s(self) -> float:
        return self.seconds["page"] + (0.0 if self.rows_in_page else self.seconds["leaderboard"])

    @property
    def drawn_s(self) -> float:
        """Until a browser could draw the board: the page, its static files and (if not in the page) the board."""
        return self.board_s + self.seconds["static files"]


@dataclass(frozen=True)
class FirstPage:
    """The page as the first viewer got it: its bytes, the board rows it carries, the board's inputs."""

    body: bytes
    rows: int
    board_inputs: list
    static_files: tuple[str, ...] = ()
    board_event: str = "leaderboard_view"
    judgments_event: str = "judgments_view"


def simulate_viewers(base_url: str, clients: int, run_id: str, timeout_s: float = 120.0,
                     static_files: tuple[str, ...] = ()) -> list[ViewerResult]:
    """One viewer alone (who warms the caches and reads the page), then `clients` viewers starting together.

    The crowd's pages are compared byte for byte with the first viewer's, which was parsed:
    parsing half a megabyte of config per viewer would load the machine the server runs on.
    Each viewer then fetches `static_files` (paths, as `first_visit_files` lists them) one
    after another over one connection, as compressed as a browser accepts.
    """
    base_url = base_url.rstrip("/")
    with httpx.Client(base_url=base_url, timeout=timeout_s) as client:
        body = client.get("/").raise_for_status().content
    config = page_config(body.decode())
    table = component_value(config, "leaderboard-table")
    board_event, judgments_event = (page_event(config, names) for names in (BOARD_EVENTS, JUDGMENTS_EVENTS))
    first = FirstPage(body, len(table["data"]) if isinstance(table, dict) else 0,
                      endpoint_inputs(config, board_event), static_files, board_event, judgments_event)
    _visit(base_url, run_id, timeout_s, first, threading.Barrier(1))
    start = threading.Barrier(clients)
    with ThreadPoolExecutor(max_workers=clients) as pool:
        futures = [pool.submit(_visit, base_url, run_id, timeout_s, first, start) for _ in range(clients)]
        return [future.result() for future in futures]


def percentile(values: list[float], share: float) -> float:
    """The `share` quantile (0–1) of `values`, interpolated."""
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def _visit(base_url: str, run_id: str, timeout_s: float, first: FirstPage, start: threading.Barrier) -> ViewerResult:
    seconds: dict[str, float] = {}
    with httpx.Client(base_url=base_url, timeout=timeout_s) as client:
        start.wait()
        try:
            began = time.perf_counter()
            page = client.get("/")
            page.raise_for_status()
            seconds["page"] = time.perf_counter() - began
            if page.content != first.body:
                raise ValueError("the page differs from the first viewer's")
            began = time.perf_counter()
            for path in first.static_files:
                _fetch_raw(client, path)
            seconds["static files"] = time.perf_counter() - began
            began = time.perf_counter()
            board = call_endpoint(client, first.board_event, first.board_inputs)
            seconds["leaderboard"] = time.perf_counter() - began
            began = time.perf_counter()
            judgments = call_endpoint(client, first.judgments_event, [run_id])
            seconds["judgments"] = time.perf_counter() - began
        except (httpx.HTTPError, ValueError) as exc:
            return ViewerResult(seconds, error=f"{type(exc).__name__}: {exc}")
    return ViewerResult(seconds, _table_rows(board[0]), _table_rows(judgments[0]), first.rows, len(first.static_files))


def _fetch_raw(client: httpx.Client, path: str) -> int:
    """Fetch one file as a browser asks for it, without decompressing it: that is the viewer's machine's work,
    and here it would run on the cores the server needs. Its size on the wire."""
    with client.stream("GET", path, headers=BROWSER_ENCODINGS) as response:
        response.raise_for_status()
        return sum(len(chunk) for chunk in response.iter_raw())


def first_visit_files(url: str, chromium: str) -> tuple[str, ...]:
    """The paths of the static files (scripts, styles, fonts) Chromium fetches to draw the page at `url`."""
    from playwright.sync_api import sync_playwright  # only the benches need a browser here

    base = url.rstrip("/")
    fetched: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.on("requestfinished", lambda request: fetched.append(request.url) if request.method == "GET" else None)
        page.goto(url, timeout=120_000)
        page.wait_for_selector("#leaderboard-table [role=gridcell]", timeout=120_000)  # the board is drawn
        page.wait_for_timeout(1_000)
        browser.close()
    paths = [address[len(base):] for address in fetched if address.startswith(base)]
    return tuple(path for path in paths if path not in ("", "/") and "/gradio_api/" not in path)


def page_config(html: str) -> dict:
    """The Gradio config a page carries (`window.gradio_config = {...}`): what the browser draws first."""
    marker = "window.gradio_config = "
    start = html.find(marker)
    if start < 0:
        raise ValueError("the page carries no Gradio config")
    config, _ = json.JSONDecoder().raw_decode(html, start + len(marker))
    return config


def component_value(config: dict, elem_id: str) -> object:
    """The value the page's config gives the component with this `elem_id`."""
    for component in config["components"]:
        if component.get("props", {}).get("elem_id") == elem_id:
            return component["props"].get("value")
    raise ValueError(f"the page has no component #{elem_id}")


def page_event(config: dict, names: tuple[str, ...]) -> str:
    """The first of `names` that the page's config lists as an event (an older app's name comes after)."""
    listed = {dependency.get("api_name") for dependency in config["dependencies"]}
    return next(name for name in names if name in listed)


def endpoint_inputs(config: dict, api_name: str) -> list:
    """The inputs a page would send to the named endpoint before anything is touched: its controls' values."""
    values = {component["id"]: component.get("props", {}).get("value") for component in config["components"]}
    for dependency in config["dependencies"]:
        if dependency.get("api_name") == api_name:
            return [values.get(block_id) for block_id in dependency["inputs"]]
    raise ValueError(f"the page has no endpoint /{api_name}")


def _table_rows(output: dict) -> int:
    """Rows of a Dataframe output, sent as a value or as an update carrying one; or the items of the documented
    `/judgments` answer (plain records), which apps without the Judgments tab's own event are read through."""
    if "items" in output:
        return len(output["items"])
    return len(output.get("value", output)["data"])


def call_endpoint(client: httpx.Client, api_name: str, data: list | str) -> list:
    """One Gradio API call: POST the inputs (or a request body as written, JSON's rules or not), then read the
    event stream to its `complete` event."""
    body = {"content": data, "headers": {"content-type": "application/json"}} if isinstance(data, str) else {
        "json": {"data": data}}
    posted = client.post(f"/gradio_api/call/{api_name}", **body)
    posted.raise_for_status()
    event_id = posted.json()["event_id"]
    event = None
    with client.stream("GET", f"/gradio_api/call/{api_name}/{event_id}") as stream:
        for line in stream.iter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event in ("complete", "error"):
                payload = json.loads(line.split(":", 1)[1])
                if event == "error":
                    raise ValueError(f"/{api_name} answered an error: {payload}")
                return payload
    raise ValueError(f"/{api_name}: the event stream ended without a result")
