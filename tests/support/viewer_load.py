"""Simulated viewers: each opens the page, loads the board and one model's judgments over HTTP.

The board and the judgments view are the app's named Gradio endpoints (`/leaderboard`,
`/judgments`), called the way the page's own JavaScript does: POST the inputs, then read
the event stream until the result.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx

STEPS = ("page", "leaderboard", "judgments")
BOARD_FIRST_VIEW = [["languages", "variants"], "", [], "rank", None, None, "all", False]
"""The board's inputs as a first visit sends them: column groups, search, languages, sort, sizes, type, ranked only."""


@dataclass(frozen=True)
class ViewerResult:
    """One viewer's visit: seconds per step, and the error that ended it (None if it went through)."""

    seconds: dict[str, float]
    board_rows: int = 0
    judgment_rows: int = 0
    error: str | None = None

    @property
    def total_s(self) -> float:
        return sum(self.seconds.values())


def simulate_viewers(base_url: str, clients: int, run_id: str, timeout_s: float = 120.0) -> list[ViewerResult]:
    """`clients` viewers starting together; each call bounded by `timeout_s`."""
    start = threading.Barrier(clients)
    with ThreadPoolExecutor(max_workers=clients) as pool:
        futures = [pool.submit(_visit, base_url.rstrip("/"), run_id, timeout_s, start) for _ in range(clients)]
        return [future.result() for future in futures]


def percentile(values: list[float], share: float) -> float:
    """The `share` quantile (0–1) of `values`, interpolated."""
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def _visit(base_url: str, run_id: str, timeout_s: float, start: threading.Barrier) -> ViewerResult:
    seconds: dict[str, float] = {}
    with httpx.Client(base_url=base_url, timeout=timeout_s) as client:
        start.wait()
        try:
            began = time.perf_counter()
            client.get("/").raise_for_status()
            seconds["page"] = time.perf_counter() - began
            began = time.perf_counter()
            board = call_endpoint(client, "leaderboard", BOARD_FIRST_VIEW)
            seconds["leaderboard"] = time.perf_counter() - began
            began = time.perf_counter()
            judgments = call_endpoint(client, "judgments", [run_id])
            seconds["judgments"] = time.perf_counter() - began
        except (httpx.HTTPError, ValueError) as exc:
            return ViewerResult(seconds, error=f"{type(exc).__name__}: {exc}")
    return ViewerResult(seconds, _table_rows(board[0]), _table_rows(judgments[0]))


def _table_rows(output: dict) -> int:
    """Rows of a Dataframe output, sent as a value or as an update carrying one."""
    return len(output.get("value", output)["data"])


def call_endpoint(client: httpx.Client, api_name: str, data: list) -> list:
    """One Gradio API call: POST the inputs, then read the event stream to its `complete` event."""
    posted = client.post(f"/gradio_api/call/{api_name}", json={"data": data})
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
