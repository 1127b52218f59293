"""Start-up: how soon `app.py` answers, and how soon its page carries the board, beside main, quiet and busy.

Writes `--models` complete full-size WritingBench run folders (`bench/cold_board.py`'s: 3,925 items each,
summary.json and details.parquet), then starts `app.py` of the reference revision (extracted with
`git archive` into a temporary folder) and of the working tree over them, first on a quiet machine, then
with `--busy` CPU-bound processes beside it (a machine that is also judging). Each start records two
times from launch: the first page served (the server bound), and the first page carrying the board's first
render. An app that renders before it binds (main before issue #41) has both the same, and Gradio gives
its server five seconds to start: a render longer than that ended it with "Cannot find empty port" (the
harness then starts it again: "first page served" is the last attempt's, "board on the page" counts every
attempt). Both include Python's imports and building the Blocks. Starts alternate reference and current.

    python bench/start_up.py --record
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cold_board import write_runs  # noqa: E402
from bench.record import publish  # noqa: E402
from bench.reference import ROOT, extract_revision  # noqa: E402
from tests.support.app_server import AppStartError, board_ready, running_app  # noqa: E402

APP_PATHS = ["app.py", "eval_backend", "leaderboard"]
REFERENCE = "5bf2d6a"
"""Main when the board became a Hub dataset (issue #41): binds first, renders after; no board file."""
MEASURES = ("first page served", "board on the page")
BOARD_WAIT_S = 600.0
"""How long a start may take to carry the board (issue #41 asks for 120 s with four busy processes beside)."""


def spin(stop: multiprocessing.Event) -> None:  # type: ignore[valid-type]
    """Keep one core busy until `stop` is set."""
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def main() -> int:
    args = parse_args()
    rows = {"runs (full-size, 3,925 items each)": str(args.models), "code compared": f"{args.reference} -> working tree",
            "CPUs": str(os.cpu_count())}
    with tempfile.TemporaryDirectory(prefix="bench-start-up-") as tmp:
        data_dir = Path(tmp) / "data"
        write_runs(data_dir / "runs" / "indic_writing_bench", args.models)
        apps = {args.reference: extract_revision(Path(tmp) / "reference", args.reference, APP_PATHS), "current": ROOT}
        for busy in sorted({0, args.busy}):
            condition = "quiet" if busy == 0 else f"{busy} CPU-bound processes beside"
            rows[f"{condition}: load average before"] = " ".join(f"{load:.1f}" for load in os.getloadavg())
            with busy_cores(busy):
                figures = {label: measure(tree, data_dir, Path(tmp) / f"app-{label}-{busy}.log")
                           for label, tree in apps.items()}
            for name in MEASURES:
                rows[f"{condition}: {name}, {args.reference} / current"] = compared(
                    figures[args.reference][name], figures["current"][name])
    publish("Start-up over full-size runs, quiet and busy", rows, args.record)
    return 0


class busy_cores:  # noqa: N801 - used as a `with` block
    """`count` processes each keeping a core busy for the duration of the block."""

    def __init__(self, count: int) -> None:
        self.stop = multiprocessing.Event()
        self.processes = [multiprocessing.Process(target=spin, args=(self.stop,), daemon=True) for _ in range(count)]

    def __enter__(self) -> None:
        for process in self.processes:
            process.start()

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for process in self.processes:
            process.join()


def measure(tree: Path, data_dir: Path, log: Path) -> dict[str, float | str]:
    """Seconds from launch to the first page served and to the board on the page (harness retries included)."""
    launched = time.monotonic()
    try:
        with running_app(data_dir, log, repo=tree, wait_for_board=False) as app:
            answered_s = app.answered_s
            ready_s = board_on_page_s(app.url, launched)
    except AppStartError as error:
        return dict.fromkeys(MEASURES, f"did not start: {str(error).splitlines()[0][:60]}")
    return {"first page served": answered_s, "board on the page": ready_s}


def board_on_page_s(url: str, launched: float) -> float | str:
    """Seconds from `launched` until the page carries the board's first render; a note past BOARD_WAIT_S."""
    while time.monotonic() - launched < BOARD_WAIT_S:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                if board_ready(response.read().decode("utf-8", "replace")):
                    return time.monotonic() - launched
        except OSError:
            pass  # a busy server may miss a request; the next one counts
        time.sleep(0.5)
    return f"not within {BOARD_WAIT_S:.0f} s"


def compared(reference: float | str, current: float | str) -> str:
    """`reference s / current s (current / reference)`, or what kept one from starting."""
    shown = " / ".join(value if isinstance(value, str) else f"{value:.1f} s" for value in (reference, current))
    if isinstance(reference, str) or isinstance(current, str):
        return shown
    return f"{shown} ({current / reference:.2f}x)"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--busy", type=int, default=4, help="CPU-bound processes beside the app in the busy turn")
    parser.add_argument("--reference", default=REFERENCE, help=f"the revision started first (default {REFERENCE})")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
