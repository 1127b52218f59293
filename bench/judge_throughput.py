"""Judge throughput against a stand-in endpoint with real latency and an optional rate limit.

Builds a synthetic dataset in the real Hub layout (13 configs, realistic query lengths),
answers every item, and judges them through the production pipeline (`judge_phase`)
against `tests.support.chat_server` running as a separate process on 127.0.0.1, so the
CPU and memory figures are the engine's alone. Then runs the same workload the way the
official WritingBench code does — one call at a time — on a small slice, and reports the
ratio. Appends a row to bench/README.md with --record.

    python bench/judge_throughput.py --items-per-config 40 --latency 0.25 --concurrency 32
    python bench/judge_throughput.py --items-per-config 40 --latency 0.25 --concurrency 64 --rpm 3000 --rate-window 10
"""

from __future__ import annotations

import argparse
import logging
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import publish  # noqa: E402
from eval_backend.benchmarks import BENCHMARKS  # noqa: E402
from eval_backend.dataset_loader import DatasetSpec  # noqa: E402
from eval_backend.pipeline import RunSpec, import_responses, judge_phase, prepare_run  # noqa: E402
from eval_backend.records import ResponseRecord  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from eval_backend.settings import JudgeSettings  # noqa: E402

BENCHMARK = BENCHMARKS["indic_writing_bench"]
RESPONSE = "यह एक निबंध है। " * 200  # ~3,000 characters, a typical answer's size


@dataclass(frozen=True)
class Measurement:
    calls: int
    wall_s: float
    cpu_s: float
    throttled: int

    @property
    def calls_per_s(self) -> float:
        return self.calls / self.wall_s

    @property
    def cpu_ms_per_call(self) -> float:
        return 1000 * self.cpu_s / self.calls


def main() -> int:
    args = parse_args()
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp:
        root = Path(tmp)
        dataset = write_dataset_elsewhere(root / "dataset", args.items_per_config, args.query_chars)
        with stand_in_judge(args.latency, args.rpm, args.rate_window) as base_url:
            concurrent = judge_run(dataset, root / "concurrent", base_url, args.concurrency)
            sequential = judge_run(dataset, root / "sequential", base_url, 1, calls=args.sequential_calls)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report(args, concurrent, sequential, peak_mb)
    return 0


def judge_run(dataset: Path, out: Path, base_url: str, concurrency: int, calls: int | None = None) -> Measurement:
    spec = RunSpec(BENCHMARK, DatasetSpec(str(dataset)), RunFolder(out), None, None)
    items = prepare_run(spec, {"model": "bench/model", "revision": "bench"})
    if calls:  # the sequential slice: just enough items for `calls` judge calls
        items = items[: max(1, calls // BENCHMARK.criteria_per_item)]
    import_responses(spec.folder, [ResponseRecord(i.config, i.index, f"{i.id}: {RESPONSE}") for i in items])
    settings = JudgeSettings(base_url=base_url, api_key="bench", model="bench-judge", concurrency=concurrency)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    progress = judge_phase(spec, items, settings)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if progress.failed:
        raise SystemExit(f"{progress.failed} judgments failed; the bench expects none")
    return Measurement(progress.done, wall, cpu, progress.throttled)


def write_dataset_elsewhere(root: Path, items_per_config: int | None, query_chars: int) -> Path:
    """Write the synthetic dataset in a child process, so that building it with pyarrow does
    not count in this process's peak memory, which is meant to be the engine's."""
    code = (
        "import sys; from pathlib import Path; "
        "from tests.support.hub_dataset import DatasetShape, full_size_shape, write_writing_bench_dataset; "
        f"shape = full_size_shape(query_chars={query_chars}); n = {items_per_config!r}; "
        "shape = DatasetShape({c: n for c in shape.configs}, query_chars=shape.query_chars) if n else shape; "
        f"write_writing_bench_dataset(Path({str(root)!r}), shape)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[1])
    return root


class stand_in_judge:  # noqa: N801 - reads as a `with` statement
    """The stand-in judge as a child process; yields its base URL."""

    def __init__(self, latency: float, rpm: int | None, window: float) -> None:
        self.command = [sys.executable, "-m", "tests.support.chat_server", "--latency", str(latency)]
        if rpm:
            self.command += ["--rpm", str(rpm), "--rate-window", str(window)]

    def __enter__(self) -> str:
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, text=True,
                                        cwd=Path(__file__).resolve().parents[1])
        line = self.process.stdout.readline().strip()
        if not line.startswith("READY "):
            raise SystemExit(f"stand-in judge did not start: {line!r}")
        return line.split(" ", 1)[1]

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def report(args: argparse.Namespace, concurrent: Measurement, sequential: Measurement, peak_mb: float) -> None:
    ideal = args.concurrency / args.latency if args.latency else float("inf")
    if args.rpm:
        ideal = min(ideal, args.rpm / 60)
    rows = {
        "judge calls": f"{concurrent.calls}",
        "latency / concurrency / rpm limit": f"{args.latency} s / {args.concurrency} / {args.rpm or 'none'}",
        "calls/s (ideal)": f"{concurrent.calls_per_s:.1f} ({ideal:.1f})",
        "share of ideal": f"{100 * concurrent.calls_per_s / ideal:.1f} % (target >= 95 %)",
        "CPU per call": f"{concurrent.cpu_ms_per_call:.2f} ms (target < 0.5 ms)",
        "peak memory (RSS)": f"{peak_mb:.0f} MB (target < 500 MB)",
        "429s received": f"{concurrent.throttled}",
        "one-at-a-time calls/s": f"{sequential.calls_per_s:.2f} over {sequential.calls} calls",
        "speed-up over one at a time": f"{concurrent.calls_per_s / sequential.calls_per_s:.1f}x",
    }
    publish("Judge throughput", rows, args.record)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items-per-config", type=int, help="items in each of the 13 configs (default: the real sizes)")
    parser.add_argument("--query-chars", type=int, default=20_000, help="length of each query (reference included)")
    parser.add_argument("--latency", type=float, default=0.25, help="stand-in judge seconds per call")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rpm", type=int, help="stand-in requests-per-window limit, scaled to a minute")
    parser.add_argument("--rate-window", type=float, default=60.0, help="seconds of the rate-limit window")
    parser.add_argument("--sequential-calls", type=int, default=40, help="size of the one-at-a-time slice")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
