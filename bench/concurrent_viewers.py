"""A hundred viewers at once against the running app, over the leaderboard-at-scale data.

Starts `app.py` on 127.0.0.1 over synthetic run folders (500 models; one with all 19,625
judgments), then lets N simulated viewers open the page, ask for the board and that model's
judgments view at the same moment (`tests/support/viewer_load.py`). Reports p50 / p95 per
step, and the time until each viewer has the board: the page alone when the page carries
the prerendered first view, else the page and then the board's endpoint. With
`--reference REV`, the app of that revision (extracted with `git archive`) meets the same
crowd first, over the same data, and the two are shown side by side.

    python bench/concurrent_viewers.py --viewers 100 --models 500 --reference 86da067 --record
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.leaderboard_scale import write_scale_data  # noqa: E402
from bench.record import publish  # noqa: E402
from bench.reference import ROOT, extract_revision  # noqa: E402
from tests.support.app_server import running_app  # noqa: E402
from tests.support.viewer_load import (  # noqa: E402
    STEPS,
    ViewerResult,
    first_visit_files,
    percentile,
    simulate_viewers,
)

CHROMIUM = "/usr/bin/chromium"

APP_PATHS = ["app.py", "eval_backend", "leaderboard"]


def main() -> int:
    args = parse_args()
    rng = random.Random(0)
    with tempfile.TemporaryDirectory(prefix="bench-viewers-") as tmp:
        data_dir = Path(tmp) / "data"
        run_id = write_scale_data(data_dir / "runs", args.models, rng)
        apps = {"current": ROOT}
        if args.reference:
            apps = {args.reference: extract_revision(Path(tmp) / "reference", args.reference, APP_PATHS), **apps}
        results = {}
        for label, tree in apps.items():
            with running_app(data_dir, Path(tmp) / f"app-{len(results)}.log", repo=tree) as app:
                files = first_visit_files(app.url, CHROMIUM) if args.static_files else ()
                results[label] = simulate_viewers(app.url, args.viewers, run_id, args.timeout, files)
    publish("Concurrent viewers", report(results, args), args.record)
    return 0


def report(results: dict[str, list[ViewerResult]], args: argparse.Namespace) -> dict[str, str]:
    labels = list(results)
    rows = {
        "viewers / models": f"{args.viewers} / {args.models}",
        "apps": " -> ".join(labels),
        "machine load before": " ".join(f"{load:.1f}" for load in os.getloadavg()),
    }
    figures = {label: figures_of(visits) for label, visits in results.items()}
    for name in figures[labels[-1]]:
        rows[name] = " -> ".join(figures[label].get(name, "-") for label in labels)
    return rows


def figures_of(visits: list[ViewerResult]) -> dict[str, str]:
    done = [visit for visit in visits if visit.error is None]
    rows = {"completed": f"{len(done)} of {len(visits)}",
            "board rows in the page": str(max((visit.rows_in_page for visit in done), default=0))}
    if len(done) >= 2:
        rows["board in hand: p50 / p95"] = _p50_p95([visit.board_s for visit in done])
        rows["board drawable (with static files): p50 / p95"] = _p50_p95([visit.drawn_s for visit in done])
        rows["static files a visit fetched"] = str(max(visit.static_files for visit in done))
        for step in STEPS:
            rows[f"{step}: p50 / p95"] = _p50_p95([visit.seconds[step] for visit in done])
        rows["whole visit: p50 / p95"] = _p50_p95([visit.total_s for visit in done])
    errors = sorted({visit.error for visit in visits if visit.error})
    if errors:
        rows["errors"] = "; ".join(errors)[:300]
    return rows


def _p50_p95(times: list[float]) -> str:
    return f"{percentile(times, 0.5):.2f} s / {percentile(times, 0.95):.2f} s"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--reference", help="a git revision whose app meets the same crowd first, for comparison")
    parser.add_argument("--static-files", action=argparse.BooleanOptionalAction, default=True,
                        help="each viewer also fetches the scripts, styles and fonts Chromium fetched on a first visit")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds allowed for one call")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
