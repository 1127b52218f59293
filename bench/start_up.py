"""Start-up: how soon `app.py` answers, and how soon its page carries the board, beside a reference revision.

Starts `app.py` over synthetic run folders (`bench/leaderboard_scale.py`'s data), optionally with
CPU-bound processes beside it (a machine that is also judging), and records two times from launch:
the first page served (the server bound), and the first page carrying the board's first render.
An app that renders before it binds (the reference) has both the same; Gradio gives its server
five seconds to start, so a render longer than that once ended it with "Cannot find empty port"
(the harness then starts it again: "first page served" is the last attempt's, "board on the
page" counts every attempt). Both include Python's imports and building the Blocks.

    python bench/start_up.py --models 500 --busy 4 --reference 939a856 --record
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.leaderboard_scale import write_scale_data  # noqa: E402
from bench.record import publish  # noqa: E402
from bench.reference import ROOT, extract_revision  # noqa: E402
from tests.support.app_server import AppStartError, running_app  # noqa: E402

APP_PATHS = ["app.py", "eval_backend", "leaderboard"]


def spin(stop: multiprocessing.Event) -> None:  # type: ignore[valid-type]
    """Keep one core busy until `stop` is set."""
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def main() -> int:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-start-up-") as tmp:
        data_dir = Path(tmp) / "data"
        write_scale_data(data_dir / "runs", args.models, random.Random(0))
        apps = {"current": ROOT}
        if args.reference:
            apps = {args.reference: extract_revision(Path(tmp) / "reference", args.reference, APP_PATHS), **apps}
        stop = multiprocessing.Event()
        busy = [multiprocessing.Process(target=spin, args=(stop,), daemon=True) for _ in range(args.busy)]
        for process in busy:
            process.start()
        try:
            rows = {"models / CPU-bound processes beside": f"{args.models} / {args.busy}", "apps": " -> ".join(apps),
                    "machine load before": " ".join(f"{load:.1f}" for load in os.getloadavg())}
            figures = {label: measure(tree, data_dir, Path(tmp) / f"app-{label}.log") for label, tree in apps.items()}
        finally:
            stop.set()
            for process in busy:
                process.join()
    for name in figures["current"]:
        rows[name] = " -> ".join(figures[label][name] for label in figures)
    publish("Start-up", rows, args.record)
    return 0


def measure(tree: Path, data_dir: Path, log: Path) -> dict[str, str]:
    """Seconds from launch to the first page served and to the board on the page (harness retries included)."""
    launched = time.monotonic()
    try:
        with running_app(data_dir, log, repo=tree) as app:
            ready_s = time.monotonic() - launched
            answered_s = app.answered_s
    except AppStartError as error:
        return {"first page served": "did not start", "board on the page": str(error).splitlines()[0][:80]}
    return {"first page served": f"{answered_s:.1f} s", "board on the page": f"{ready_s:.1f} s"}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--busy", type=int, default=0, help="CPU-bound processes running beside the app")
    parser.add_argument("--reference", help="a git revision whose app starts first, over the same data")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
