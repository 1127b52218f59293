"""`app.py` as a subprocess on 127.0.0.1, serving a data folder, for browser and load tests."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from leaderboard.board_readiness import PREPARING

REPO = Path(__file__).resolve().parents[2]
STARTUP_S = 180
"""A deadline on a condition (the app serves), not a wait: a quiet machine starts it in seconds; one running many
test processes beside Chromium has taken over 90 s."""
START_ATTEMPTS = 3
GRADIO_SLOW_START = "Cannot find empty port"


class AppStartError(RuntimeError):
    """app.py exited or did not serve in time; the message carries the end of its log."""


@dataclass
class AppServer:
    url: str
    data_dir: Path
    answered_s: float = 0.0
    """Seconds from launch to the first page served (the board may still be rendering then)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_app(data_dir: Path, log: Path, repo: Path = REPO, base: Mapping[str, str] | None = None,
                script: Sequence[str] = ("app.py",), wait_for_board: bool = True, **env: str) -> Iterator[AppServer]:
    """Serve `data_dir` with the in-app worker off (the `app.py` of `repo`: another checkout for a bench), in
    `base` (default: this process's environment) with `env` over it; `script` is what Python runs (another
    entry point that serves as app.py does, e.g. `-m tests.support.toy_app`). The app binds before it renders
    the board: with `wait_for_board` this returns once the page carries the board, else at the first page."""
    for attempt in range(START_ATTEMPTS):
        port = free_port()
        environment = {**(os.environ if base is None else base), "DATA_DIR": str(data_dir),
                       "WORKER_ENABLED": "false", "GRADIO_SERVER_NAME": "127.0.0.1", "PORT": str(port), **env}
        with log.open("w") as out:
            process = subprocess.Popen([sys.executable, *script], cwd=repo, env=environment,
                                       stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}/"
        launched = time.monotonic()
        try:
            answered_s = _wait_until_serving(url, process, log, launched, wait_for_board)
            break
        except AppStartError as error:
            # Gradio gives its server 5 s to start, the first view's render included: on a loaded machine
            # that can run out (it says "Cannot find empty port"); start again, anything else is an error.
            if GRADIO_SLOW_START not in str(error) or attempt == START_ATTEMPTS - 1:
                process.kill()
                raise
    try:
        yield AppServer(url, data_dir, answered_s)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def _wait_until_serving(url: str, process: subprocess.Popen, log: Path, launched: float, wait_for_board: bool
                        ) -> float:
    """Seconds from `launched` to the first page served; returns once the page carries the board when asked to."""
    deadline = time.monotonic() + STARTUP_S
    answered_s = None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AppStartError(f"app.py exited with {process.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    answered_s = answered_s if answered_s is not None else time.monotonic() - launched
                    if not wait_for_board or board_ready(response.read().decode("utf-8", "replace")):
                        return answered_s
        except OSError:
            pass
        time.sleep(0.5)
    raise AppStartError(f"app.py did not serve {url} within {STARTUP_S}s:\n{log.read_text()[-4000:]}")


def board_ready(html: str) -> bool:
    """Whether a page carries the board's first render, done or failed: its readiness note no longer says it is
    being prepared (an app without one, an older checkout's, renders before it serves)."""
    marker = "window.gradio_config = "
    start = html.find(marker)
    if start < 0:
        return False
    config, _ = json.JSONDecoder().raw_decode(html, start + len(marker))
    notes = [component.get("props", {}) for component in config.get("components", [])
             if component.get("props", {}).get("elem_id") == "board-readiness"]
    return all(props.get("visible") is False or not str(props.get("value")).startswith(PREPARING) for props in notes)


def assert_no_traceback(log: Path) -> None:
    """Fail with the end of the app's log when it holds a traceback: some view or link raised on the server."""
    written = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in written, written[-4000:]
