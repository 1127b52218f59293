"""Batch-mode judging at full size: the production batch path (`judge_run_configs`, judge mode
`batch`) against the stand-in Batch API server (tests/support/batch_server.py) as a child process,
so the memory and CPU figures are the engine's alone. Appends a row to bench/README.md with --record.

    python bench/batch_judging.py
    python bench/batch_judging.py --items-per-config 40 --max-mb 5
"""

from __future__ import annotations

import argparse
import logging
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.judge_throughput import BENCHMARK, answer_items, stand_in_judge, write_dataset_elsewhere  # noqa: E402
from bench.record import publish  # noqa: E402
from eval_backend.batch.ledger import BatchLedger  # noqa: E402
from eval_backend.dataset_loader import DatasetSpec  # noqa: E402
from eval_backend.pipeline import RunSpec, judge_run_configs  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from eval_backend.settings import JudgeSettings  # noqa: E402

API_KEY = "bench-not-a-secret"


class stand_in_batch_server(stand_in_judge):  # noqa: N801 - reads as a `with` statement
    """The stand-in Batch API as a child process; yields its base URL."""

    def __init__(self) -> None:
        self.command = [sys.executable, "-m", "tests.support.batch_server", "--api-key", API_KEY]


def main() -> int:
    args = parse_args()
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        root = Path(tmp)
        dataset = write_dataset_elsewhere(root / "dataset", args.items_per_config, args.query_chars)
        spec = RunSpec(BENCHMARK, DatasetSpec(str(dataset)), RunFolder(root / "run"), None, None)
        with stand_in_batch_server() as base_url:
            answer_items(spec, None)
            settings = JudgeSettings(base_url=base_url, api_key=API_KEY, model="bench-judge", mode="batch",
                                     batch_poll_s=args.poll_s, batch_max_mb=args.max_mb)
            cpu0, wall0 = time.process_time(), time.perf_counter()
            progress = judge_run_configs(spec, settings)
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        batches = len(BatchLedger(spec.folder).read().files)
    if progress.failed:
        raise SystemExit(f"{progress.failed} judgments failed; the bench expects none")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    publish("Batch judging", {
        "judge calls": f"{progress.done}",
        "input files / batches (file limit)": f"{batches} ({args.max_mb:g} MB)",
        "wall time (stand-in answers at once)": f"{wall:.0f} s",
        "CPU per call": f"{1000 * cpu / max(progress.done, 1):.2f} ms",
        "peak memory (RSS)": f"{peak_mb:.0f} MB (target < 500 MB)",
    }, args.record)
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items-per-config", type=int, help="items in each of the 13 configs (default: the real sizes)")
    parser.add_argument("--query-chars", type=int, default=20_000, help="length of each query (reference included)")
    parser.add_argument("--max-mb", type=float, default=100.0, help="JUDGE_BATCH_MAX_MB: bytes per input file")
    parser.add_argument("--poll-s", type=float, default=0.2, help="JUDGE_BATCH_POLL_S")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
