"""Judge throughput against a stand-in endpoint with real latency and an optional rate limit.

Builds a synthetic dataset in the real Hub layout (13 configs, realistic query lengths),
answers every item, and judges them through the production pipeline (`judge_run_configs`, config by config)
against `tests.support.chat_server` running as a separate process on 127.0.0.1, so the
CPU and memory figures are the engine's alone. Then runs the same workload the way the
official WritingBench code does — one call at a time — on a small slice, and reports the
ratio. Appends a row to bench/README.md with --record.

With --ladder it climbs a ladder of ideal rates (concurrency / latency: 50, 150, 300, 500 calls/s)
and runs each rung twice, with the engine of a reference commit (`--reference`: its judge client
on the SDK's own HTTP stack) and with the working tree's, each judging run in a child process of
its own (its CPU and peak memory are its own) against one stand-in judge, whose CPU is measured too.

    python bench/judge_throughput.py --items-per-config 40 --latency 0.25 --concurrency 32
    python bench/judge_throughput.py --items-per-config 40 --latency 0.25 --concurrency 64 --rpm 3000 --rate-window 10
    python bench/judge_throughput.py --ladder --latency 0.2 --seconds-per-rung 20
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import publish  # noqa: E402
from bench.reference import extract_revision  # noqa: E402
from eval_backend import judging, pipeline  # noqa: E402
try:  # the working tree: the registry is a module of its own
    from eval_backend.benchmarks.registry import BENCHMARKS  # noqa: E402
except ModuleNotFoundError:  # the reference commit this script also runs against (a copy of it runs there)
    from eval_backend.benchmarks import BENCHMARKS  # type: ignore[attr-defined,no-redef]  # noqa: E402
from eval_backend.dataset_loader import DatasetSpec  # noqa: E402
from eval_backend.judging import JudgingProgress  # noqa: E402
from eval_backend.pipeline import RunSpec, import_responses, prepare_run  # noqa: E402
from eval_backend.records import ResponseRecord  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from eval_backend.settings import JudgeSettings  # noqa: E402

BENCHMARK = BENCHMARKS["indic_writing_bench"]
ROOT = Path(__file__).resolve().parents[1]
CONFIGS = 13  # in the real dataset
RESPONSE = "यह एक निबंध है। " * 200  # ~3,000 characters, a typical answer's size
BENCH_REQUEST = {"model": "bench/model", "revision": "bench"}
# The engine of the last main commit before the judge transport (eval_backend/judge_transport.py): its judge
# client on the SDK's own HTTP stack. A commit of main, so the ladder runs from any clone.
REFERENCE = "6dc78f4"
REFERENCE_NOTE = " (the judge client on the SDK's HTTP stack)"
CALLS_PER_ITEM = 5
"""The seed's rubric: one judge call per criterion, five per item. Said here, not imported: the reference
engine this bench also runs has the number under another name."""


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
    if args.child:
        return child_run(*args.child)
    if args.ladder:
        return ladder(args)
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
    answer_items(spec, calls)
    settings = JudgeSettings(base_url=base_url, api_key="bench", model="bench-judge", concurrency=concurrency)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    progress = judge_owed_calls(spec, settings)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if progress.failed:
        raise SystemExit(f"{progress.failed} judgments failed; the bench expects none")
    return Measurement(progress.done, wall, cpu, progress.throttled)


def judge_owed_calls(spec: RunSpec, settings: JudgeSettings) -> JudgingProgress:
    """Judge what the run owes as `run` and `judge` do: config by config, the queries loaded one config at a
    time (`judge_run_configs`). An engine from before it (the ladder's reference) judges the items in one
    phase, as its own `run` did."""
    if hasattr(pipeline, "judge_run_configs"):
        return pipeline.judge_run_configs(spec, settings)
    return pipeline.judge_phase(spec, prepare_run(spec, BENCH_REQUEST), settings)


def answer_items(spec: RunSpec, calls: int | None) -> None:
    """Record the run and answer its items (only enough for `calls` judge calls, for the sequential
    slice); the items go out of scope on return, as in `run` once generation is done."""
    items = prepare_run(spec, BENCH_REQUEST)
    if calls:
        items = items[: max(1, calls // CALLS_PER_ITEM)]
    import_responses(spec.folder, [ResponseRecord(i.config, i.index, f"{i.id}: {RESPONSE}") for i in items])


def write_dataset_elsewhere(root: Path, items_per_config: int | None, query_chars: int, configs: int = CONFIGS) -> Path:
    """Write the synthetic dataset (its first `configs` configs) in a child process, so that building
    it with pyarrow does not count in this process's peak memory, which is meant to be the engine's."""
    code = (
        "import sys; from pathlib import Path; "
        "from tests.support.hub_dataset import DatasetShape, full_size_shape, write_writing_bench_dataset; "
        f"shape = full_size_shape(query_chars={query_chars}); n = {items_per_config!r}; "
        f"shape = DatasetShape(dict(list(shape.configs.items())[:{configs}]), query_chars=shape.query_chars); "
        "shape = DatasetShape({c: n for c in shape.configs}, query_chars=shape.query_chars) if n else shape; "
        f"write_writing_bench_dataset(Path({str(root)!r}), shape)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[1])
    return root


class stand_in_judge:  # noqa: N801 - reads as a `with` statement
    """The stand-in judge as a child process; yields its base URL."""

    def __init__(self, latency: float, rpm: int | None, window: float) -> None:
        self.command = [sys.executable, "-m", "tests.support.chat_server", "--latency", str(latency), "--no-record"]
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

    def cpu_s(self) -> float:
        """The stand-in's CPU time so far (user and system), from /proc."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Rung:
    """One client's run at one ideal rate: its own figures and the stand-in judge's CPU."""

    measurement: Measurement  # while the calls were in flight (`run_judge_tasks`)
    phase: Measurement  # the whole judge phase, loading the config's queries included
    peak_mb: float  # the process's, preparing the run and loading the config's queries included
    judging_peak_mb: float  # from the first call on
    server_cpu_s: float


def ladder(args: argparse.Namespace) -> int:
    """Each ideal rate, judged by the reference commit's client and by the current one."""
    rates = [int(rate) for rate in args.rates.split(",")]
    most_calls = max(rates) * args.seconds_per_rung
    items = math.ceil(most_calls / CALLS_PER_ITEM)
    results: dict[tuple[int, str], list[Rung]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp:
        root = Path(tmp)
        trees = {"reference": reference_tree(root / "reference", args.reference), "current": ROOT}
        # One config: the rungs measure the calls, not the loading of 13 configs' queries.
        dataset = write_dataset_elsewhere(root / "dataset", items, args.query_chars, configs=1)
        server = stand_in_judge(args.latency, None, 60)
        with server as base_url:
            for rate in rates:
                concurrency = max(1, round(rate * args.latency))
                for repeat in range(args.repeats):  # the engines take turns going first
                    for name, tree in list(trees.items())[:: -1 if repeat % 2 else 1]:
                        out = root / f"{name}-{rate}"
                        cpu0 = server.cpu_s()
                        figures = run_child(tree, dataset, out, base_url, concurrency, rate * args.seconds_per_rung)
                        results.setdefault((rate, name), []).append(Rung(
                            Measurement(**figures["judging"]), Measurement(**figures["phase"]), figures["peak_mb"],
                            figures["judging_peak_mb"], server.cpu_s() - cpu0))
                        shutil.rmtree(out)
    report_ladder(args, rates, results)
    return 0


def reference_tree(root: Path, revision: str) -> Path:
    """The engine of `revision` (extracted with `git archive`: the working tree is never checked
    out) beside this bench, which drives either engine through the same pipeline functions."""
    extract_revision(root, revision, ["eval_backend"])
    shutil.copytree(ROOT / "bench", root / "bench", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def run_child(tree: Path, dataset: Path, out: Path, base_url: str, concurrency: int, calls: int) -> dict:
    """One judging run in a child process on `tree`'s engine; its figures as a dict."""
    command = [sys.executable, str(tree / "bench" / "judge_throughput.py"),
               "--child", str(dataset), str(out), base_url, str(concurrency), str(calls)]
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the judging child on {tree} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def child_run(dataset: str, out: str, base_url: str, concurrency: str, calls: str) -> int:
    """The child's side of `run_child`: judge `calls` calls, print the figures as one JSON line:
    the whole phase's, and those of the time the calls were in flight (timed around the
    engine's `run_judge_tasks`, which it calls unchanged: the one live pool's, in judging, or, in an engine
    from before it, the name pipeline imported)."""
    in_flight_s = {"wall_s": 0.0, "cpu_s": 0.0}
    peaks = {"before_judging_mb": 0.0}
    caller = judging if hasattr(judging, "judge_live") else pipeline  # the reference engine may predate it
    send_tasks = caller.run_judge_tasks

    async def timed(*args: object, **kwargs: object) -> JudgingProgress:
        if not in_flight_s["wall_s"]:  # the peak from here on is the judging's (the config's queries held)
            # Resetting the high-water mark resets ru_maxrss too: the peak so far is read first.
            peaks["before_judging_mb"] = peak_rss_mb()
            Path("/proc/self/clear_refs").write_text("5")
        cpu0, wall0 = time.process_time(), time.perf_counter()
        try:
            return await send_tasks(*args, **kwargs)
        finally:
            in_flight_s["wall_s"] += time.perf_counter() - wall0
            in_flight_s["cpu_s"] += time.process_time() - cpu0

    caller.run_judge_tasks = timed
    phase = judge_run(Path(dataset), Path(out), base_url, int(concurrency), calls=int(calls))
    judging_peak_mb = peak_rss_mb()
    in_flight = Measurement(phase.calls, in_flight_s["wall_s"], in_flight_s["cpu_s"], phase.throttled)
    print(json.dumps({"judging": in_flight.__dict__, "phase": phase.__dict__,
                      "peak_mb": max(peaks["before_judging_mb"], judging_peak_mb), "judging_peak_mb": judging_peak_mb}))
    return 0


def peak_rss_mb() -> float:
    """The process's peak resident memory (VmHWM) since it started or since the mark was last reset."""
    return int(re.search(r"VmHWM:\s+(\d+) kB", Path("/proc/self/status").read_text()).group(1)) / 1024


def report_ladder(args: argparse.Namespace, rates: list[int], results: dict[tuple[int, str], list[Rung]]) -> None:
    """Per rung, the reference client's figure -> the current client's (each the median of the repeats)."""
    rows = {
        "engines compared": f"commit {args.reference}{REFERENCE_NOTE if args.reference == REFERENCE else ''} -> working tree",
        "latency / calls per rung": f"{args.latency} s / ideal rate x {args.seconds_per_rung} s, one config",
        "share and client CPU": "while the calls are in flight (the phase adds one load of the config's queries)",
        "runs per engine and rung": f"{args.repeats} (each figure their median)",
    }
    for rate in rates:
        concurrency = max(1, round(rate * args.latency))

        def both(figure: Callable[[Rung], float]) -> tuple[float, float]:
            return tuple(median(map(figure, results[rate, name])) for name in ("reference", "current"))

        share = both(lambda rung: 100 * rung.measurement.calls_per_s / rate)
        rows[f"{rate}/s ideal ({concurrency} in flight): share of ideal"] = "{:.1f} % -> {:.1f} %".format(*share)
        client_cpu = both(lambda rung: rung.measurement.cpu_ms_per_call)
        rows[f"{rate}/s: client CPU per call"] = "{:.2f} ms -> {:.2f} ms".format(*client_cpu)
        rows[f"{rate}/s: judge phase CPU per call (with loading the queries)"] = "{:.2f} ms -> {:.2f} ms".format(
            *both(lambda rung: rung.phase.cpu_ms_per_call))
        rows[f"{rate}/s: stand-in judge CPU per call"] = "{:.2f} ms -> {:.2f} ms".format(
            *both(lambda rung: 1000 * rung.server_cpu_s / rung.measurement.calls))
        rows[f"{rate}/s: client peak memory (RSS) while judging"] = "{:.0f} MB -> {:.0f} MB".format(
            *both(lambda rung: rung.judging_peak_mb))
        rows[f"{rate}/s: client peak memory (RSS), whole process (preparing and loading included)"] = (
            "{:.0f} MB -> {:.0f} MB".format(*both(lambda rung: rung.peak_mb)))
    rows["machine load while measured"] = "load average {:.1f} / {:.1f} / {:.1f} on {} cores".format(
        *os.getloadavg(), os.cpu_count())
    publish("Judge throughput ladder, reference engine -> current", rows, args.record)


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
    parser.add_argument("--ladder", action="store_true", help="compare the reference and current clients per rate")
    parser.add_argument("--rates", default="50,150,300,500", help="the ladder's ideal calls/s, comma-separated")
    parser.add_argument("--seconds-per-rung", type=int, default=20, help="ideal seconds of judging per rung")
    parser.add_argument("--repeats", type=int, default=1,
                        help="runs of each engine per rung, taking turns (figures: their median; the peaks vary by "
                             "~10 MB between runs of one engine)")
    parser.add_argument("--reference", default=REFERENCE, help=f"commit whose engine is the reference (default {REFERENCE})")
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
