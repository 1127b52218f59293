"""`qa-score --judge` at scale: judge calls per second against a stand-in QA judge with fixed latency.

The stand-in (`tests.support.chat_server --reply qa-judge`, a child process) answers each call
after `--latency` seconds, so the ideal rate is `concurrency / latency` and the ideal judging
time is `calls / rate` (rows with a blank response or an empty golden answer are judged by rule,
with no call). `qa-score --judge` runs as a child process on a corpus from
`tests.support.qa_corpus`; its judging time is its wall time less that of `qa-score` without
`--judge` on the same file, measured in the same run. With `--reference REV` the engine of that
commit meets the same stand-in on `--reference-rows` rows first (its judge path was quadratic).

    python bench/qa_judge_scaling.py --rows 20000 100000 --concurrency 64 --latency 0.1 --reference 3c698e8 --record
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
    """The stand-in judge answering QA judge prompts, as a child process; yields its base URL."""

    def __init__(self, latency: float) -> None:
        super().__init__(latency, None, 60.0)
        self.command += ["--reply", "qa-judge"]


def calls_owed(corpus: Path) -> int:
    """The rows that need a judge call (the others are judged by the seed's rules)."""
    return sum(rule_judgment(row) is None for row in read_responses_csv(corpus, need_question=True).rows)


def qa_score(tree: Path, corpus: Path, out: Path, concurrency: int | None) -> ChildRun:
    """`qa-score` of `tree`'s engine on `corpus` (with `--judge` at `concurrency` when given)."""
    judge = ["--judge", "--concurrency", str(concurrency)] if concurrency else []
    return measure([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(tree)!r}); "
                    "from eval_backend.cli import main; sys.exit(main())",
                    "qa-score", "--responses", str(corpus), "--out", str(out), *judge])


def judged(tree: Path, corpus: Path, out: Path, args: argparse.Namespace) -> dict[str, float]:
    plain = qa_score(tree, corpus, out, None)
    with_judge = qa_score(tree, corpus, out, args.concurrency)
    calls = calls_owed(corpus)
    judging_s = with_judge.wall_s - plain.wall_s
    ideal_s = calls * args.latency / args.concurrency
    return {"calls": calls, "judging_s": judging_s, "share": ideal_s / judging_s,
            "cpu_ms": 1000 * (with_judge.cpu_s - plain.cpu_s) / calls, "peak_mb": with_judge.peak_mb}


def main() -> int:
    args = parse_args()
    rows: dict[str, str] = {"concurrency / latency (ideal rate)":
                            f"{args.concurrency} / {args.latency} s ({args.concurrency / args.latency:.0f} calls/s)"}
    with tempfile.TemporaryDirectory(prefix="qa-judge-scaling-") as folder, stand_in_qa_judge(args.latency) as url:
        os.environ.update(OPENAI_BASE_URL=url, OPENAI_API_KEY="stand-in", JUDGE_MODEL="stand-in-qa-judge")
        root = Path(folder)
        sides = [("working tree", ROOT, count) for count in args.rows]
        if args.reference:
            tree = extract_revision(root / "reference", args.reference, ["eval_backend"])
            sides.insert(0, (f"{args.reference} (reference)", tree, args.reference_rows))
        for name, tree, count in sides:
            corpus = write_corpus(root / f"responses-{count}.csv", count)
            figures = judged(tree, corpus, root / "scored.csv", args)
            rows[f"{name}, {count:,} rows: calls, judging time"] = f"{figures['calls']:,}, {figures['judging_s']:.1f} s"
            rows[f"{name}, {count:,} rows: share of the ideal rate"] = f"{100 * figures['share']:.1f} %"
            rows[f"{name}, {count:,} rows: CPU per call, peak RSS"] = (
                f"{figures['cpu_ms']:.2f} ms, {figures['peak_mb']:.0f} MB")
    rows["load average at the end"] = f"{os.getloadavg()[0]:.1f}"
    publish("qa-score --judge at scale", rows, args.record)
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[20_000, 100_000])
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--reference", help="also run this commit's engine (e.g. 3c698e8, before issue 22)")
    parser.add_argument("--reference-rows", type=int, default=5_000)
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    raise SystemExit(main())
