"""A hundred viewers at once against the running app, over the leaderboard-at-scale data.

Starts `app.py` on 127.0.0.1 over synthetic run folders (500 models; one with all 19,625
judgments), then lets N simulated viewers open the page, load the board and that model's
judgments view at the same moment. Reports p50 / p95 per step.

    python bench/concurrent_viewers.py --viewers 100 --models 500 --record
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.leaderboard_scale import write_scale_data  # noqa: E402
from bench.record import publish  # noqa: E402
from tests.support.app_server import running_app  # noqa: E402
from tests.support.viewer_load import STEPS, percentile, simulate_viewers  # noqa: E402


def main() -> int:
    args = parse_args()
    rng = random.Random(0)
    with tempfile.TemporaryDirectory(prefix="bench-viewers-") as tmp:
        data_dir = Path(tmp) / "data"
        run_id = write_scale_data(data_dir / "runs", args.models, rng)
        with running_app(data_dir, Path(tmp) / "app.log") as app:
            simulate_viewers(app.url, 1, run_id)  # warm the caches as a first visitor would
            results = simulate_viewers(app.url, args.viewers, run_id, timeout_s=args.timeout)
    publish("Concurrent viewers", report(results, args), args.record)
    return 0


def report(results: list, args: argparse.Namespace) -> dict[str, str]:
    done = [r for r in results if r.error is None]
    rows = {
        "viewers / models": f"{args.viewers} / {args.models}",
        "completed": f"{len(done)} of {len(results)}",
    }
    if len(done) >= 2:
        for step in STEPS:
            times = [r.seconds[step] for r in done]
            rows[f"{step}: p50 / p95"] = f"{percentile(times, 0.5):.2f} s / {percentile(times, 0.95):.2f} s"
        totals = [r.total_s for r in done]
        rows["whole visit: p50 / p95"] = f"{percentile(totals, 0.5):.2f} s / {percentile(totals, 0.95):.2f} s"
    errors = sorted({r.error for r in results if r.error})
    if errors:
        rows["errors"] = "; ".join(errors)[:300]
    return rows


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds allowed for one call")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
