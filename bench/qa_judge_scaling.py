"""`qa-score --judge` at scale: judge calls per second against a stand-in QA judge with fixed latency.

The stand-in (`tests.support.chat_server --reply qa-judge --event-loop`, a child process, one
event loop so that it adds no latency of its own) answers each call after `--latency` seconds,
so the ideal rate is `concurrency / latency` and the ideal judging time is `calls / rate` (rows
with a blank response or an empty golden answer are judged by rule, with no call).
`qa-score --judge` runs as a child process on a corpus from `tests.support.qa_corpus`, against a
fresh stand-in each time, just after `bare_judge_client.py` (no parsing, retries or records) has
made the first `--bare-calls` of the same calls against another: the rate this machine gives at
that moment, so `qa-score`'s rate over it is the client's own overhead, whatever else loads the
machine. Two shares of the ideal rate: over the judging phase as the stand-in
saw it (its first request to its last answer: the calls per second), and over the whole command
(its wall time less that of `qa-score` without `--judge` on the same file, measured in the same
run: start-up of the judge's HTTP stack and the prompts included). CPU per call is what the
client spent beyond the run without `--judge`, and the stand-in's own; a loaded machine delays
every wake-up of both processes, so the shares say most on a quiet one (see bench/README.md).
With `--reference REV` the engine of that commit meets the same stand-in on `--reference-rows`
rows first (its judge path was quadratic).

    nice -n -10 python bench/qa_judge_scaling.py --rows 20000 100000 --concurrency 64 --latency 0.4 --record
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.judge_throughput import stand_in_judge  # noqa: E402
from bench.qa_score_speed import ChildRun, measure  # noqa: E402
from bench.record import publish  # noqa: E402
from bench.reference import extract_revision  # noqa: E402
from eval_backend.benchmarks.qa.csv_io import read_responses_csv  # noqa: E402
from eval_backend.benchmarks.qa.judge import rule_judgment  # noqa: E402
from tests.support.qa_corpus import write_corpus  # noqa: E402


class stand_in_qa_judge(stand_in_judge):  # noqa: N801 - reads as a `with` statement
    """The stand-in judge answering QA judge prompts on one event loop, as a child process; yields its
    base URL. Once it has stopped, `served_s` is the span from its first request to its last answer."""

    def __init__(self, latency: float) -> None:
        super().__init__(latency, None, 60.0)
        self.command += ["--reply", "qa-judge", "--event-loop"]
        self.served_s: float | None = None

    def __exit__(self, *exc: object) -> None:
        self.cpu_at_exit = self.cpu_s()
        super().__exit__(*exc)
        for line in self.process.stdout.read().splitlines():
            if line.startswith("SERVED "):
                _, _, first, last = line.split()
                self.served_s = float(last) - float(first)


def calls_owed(corpus: Path) -> int:
    """The rows that need a judge call (the others are judged by the seed's rules)."""
    return sum(rule_judgment(row) is None for row in read_responses_csv(corpus, need_question=True).rows)


def qa_score(tree: Path, corpus: Path, out: Path, concurrency: int | None) -> ChildRun:
    """`qa-score` of `tree`'s engine on `corpus` (with `--judge` at `concurrency` when given)."""
    judge = ["--judge", "--concurrency", str(concurrency)] if concurrency else []
    return measure([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(tree)!r}); "
                    "from eval_backend.cli import main; sys.exit(main())",
                    "qa-score", "--responses", str(corpus), "--out", str(out), *judge])


def bare_client_rate(corpus: Path, calls: int, args: argparse.Namespace) -> float:
    """Calls per second of `bare_judge_client.py` on `corpus`'s first `calls` judge calls, at the stand-in."""
    stand_in = stand_in_qa_judge(args.latency)
    with stand_in as url:
        measure([sys.executable, str(ROOT / "bench" / "bare_judge_client.py"), "--url", url, "--corpus", str(corpus),
                 "--calls", str(calls), "--concurrency", str(args.concurrency)])
    return calls / stand_in.served_s


def judged(tree: Path, corpus: Path, out: Path, args: argparse.Namespace) -> dict[str, float]:
    """One `qa-score` of `tree` without and one with `--judge` on `corpus`, and the bare client just
    before it: the judge's figures."""
    calls = calls_owed(corpus)
    plain = qa_score(tree, corpus, out, None)
    bare_rate = bare_client_rate(corpus, min(calls, args.bare_calls), args)
    stand_in = stand_in_qa_judge(args.latency)
    with stand_in as url:
        os.environ.update(OPENAI_BASE_URL=url, OPENAI_API_KEY="stand-in", JUDGE_MODEL="stand-in-qa-judge")
        with_judge = qa_score(tree, corpus, out, args.concurrency)
    command_s = with_judge.wall_s - plain.wall_s
    ideal_rate = args.concurrency / args.latency
    rate = calls / stand_in.served_s
    return {"calls": calls, "served_s": stand_in.served_s, "command_s": command_s, "share": rate / ideal_rate,
            "command_share": calls / command_s / ideal_rate, "bare_share": bare_rate / ideal_rate,
            "of_bare": rate / bare_rate, "cpu_ms": 1000 * (with_judge.cpu_s - plain.cpu_s) / calls,
            "stand_in_cpu_ms": 1000 * stand_in.cpu_at_exit / calls, "peak_mb": with_judge.peak_mb}


def main() -> int:
    args = parse_args()
    rows: dict[str, str] = {"concurrency / latency (ideal rate)":
                            f"{args.concurrency} / {args.latency} s ({args.concurrency / args.latency:.0f} calls/s)"}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="qa-judge-scaling-") as folder:
        root = Path(folder)
        sides = [("working tree", ROOT, count) for count in args.rows]
        if args.reference:
            tree = extract_revision(root / "reference", args.reference, ["eval_backend"])
            sides.insert(0, (f"{args.reference} (reference)", tree, args.reference_rows))
        for name, tree, count in sides:
            corpus = write_corpus(root / f"responses-{count}.csv", count)
            figures = judged(tree, corpus, root / "scored.csv", args)
            side = f"{name}, {count:,} rows"
            rows[f"{side}: calls, judging phase at the stand-in"] = f"{figures['calls']:,}, {figures['served_s']:.1f} s"
            rows[f"{side}: share of the ideal rate (judging phase)"] = f"{100 * figures['share']:.1f} %"
            rows[f"{side}: share of the ideal rate (whole command less the plain run)"] = (
                f"{100 * figures['command_share']:.1f} % ({figures['command_s']:.1f} s)")
            rows[f"{side}: bare client just before, share of the ideal rate"] = f"{100 * figures['bare_share']:.1f} %"
            rows[f"{side}: qa-score's rate / the bare client's"] = f"{100 * figures['of_bare']:.1f} %"
            rows[f"{side}: CPU per call, client / stand-in"] = (
                f"{figures['cpu_ms']:.2f} ms / {figures['stand_in_cpu_ms']:.2f} ms")
            rows[f"{side}: client peak RSS"] = f"{figures['peak_mb']:.0f} MB"
    rows["load average (1 min) before / after"] = f"{load_before:.1f} / {os.getloadavg()[0]:.1f}"
    rows["CPUs"] = str(os.cpu_count())
    publish("qa-score --judge at scale", rows, args.record)
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[20_000, 100_000])
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.4)
    parser.add_argument("--reference", help="also run this commit's engine (e.g. 3c698e8, before issue 22)")
    parser.add_argument("--reference-rows", type=int, default=5_000)
    parser.add_argument("--bare-calls", type=int, default=20_000,
                        help="calls of the bare client (bare_judge_client.py) before each qa-score run (default 20,000)")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    raise SystemExit(main())
