"""`qa-score` against seed 002's two scripts, run one after the other, on the same responses CSV.

The reference is `bench/seed_002/exact_substring.py` then `bench/seed_002/word_overlap.py`
(pandas only, the seed's rules, each writing its `--out`); the other side is
`python -m eval_backend qa-score --out` (both scorers, the agreement buckets and the count of
rows NFC would flip). Each side runs as child processes, interleaved, `--repeats` times over a
corpus from `tests.support.qa_corpus`; the medians of wall time, CPU time (user + system) and
peak RSS are reported as ratios: qa-score over the scripts' combined wall and CPU time, and
over the larger of their two peaks. CPU time suffers less than wall time from other jobs.

    python bench/qa_score_speed.py --rows 200000 --repeats 3 --record
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.record import publish  # noqa: E402
from tests.support.qa_corpus import write_corpus  # noqa: E402

SCRIPTS = ("exact_substring.py", "word_overlap.py")


@dataclass(frozen=True)
class ChildRun:
    """One child process: its wall time, CPU time (user + system) and peak resident memory."""

    wall_s: float
    cpu_s: float
    peak_mb: float


def measure(command: Sequence[str]) -> ChildRun:
    """Run `command` from the repository root, its output discarded; raises if it fails."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}")
    return ChildRun(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def scripts_run(corpus: Path, out: Path) -> ChildRun:
    """The two scripts one after the other: times added, the larger peak."""
    runs = [measure([sys.executable, str(ROOT / "bench" / "seed_002" / name), "--responses", str(corpus),
                     "--out", str(out / f"{name}.csv")]) for name in SCRIPTS]
    return ChildRun(sum(r.wall_s for r in runs), sum(r.cpu_s for r in runs), max(r.peak_mb for r in runs))


def qa_score_run(corpus: Path, out: Path) -> ChildRun:
    return measure([sys.executable, "-m", "eval_backend", "qa-score", "--responses", str(corpus),
                    "--out", str(out / "qa-score.csv")])


def main() -> int:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="qa-score-speed-") as folder:
        out = Path(folder)
        corpus = write_corpus(out / "responses.csv", args.rows)
        scripts, qa_score = [], []
        for _ in range(args.repeats):  # interleaved, so that a busy moment falls on both sides
            scripts.append(scripts_run(corpus, out))
            qa_score.append(qa_score_run(corpus, out))
        size_mb = corpus.stat().st_size / 2**20
    reference, ours = _medians(scripts), _medians(qa_score)
    rows = {
        "rows (file size)": f"{args.rows:,} ({size_mb:.0f} MB)",
        "repeats (medians)": str(args.repeats),
        "load average at the end": f"{os.getloadavg()[0]:.1f}",
        "seed scripts: wall / CPU / peak RSS": f"{reference.wall_s:.2f} s / {reference.cpu_s:.2f} s / {reference.peak_mb:.0f} MB",
        "qa-score: wall / CPU / peak RSS": f"{ours.wall_s:.2f} s / {ours.cpu_s:.2f} s / {ours.peak_mb:.0f} MB",
        "qa-score / scripts, wall time": f"{ours.wall_s / reference.wall_s:.2f}x",
        "qa-score / scripts, CPU time": f"{ours.cpu_s / reference.cpu_s:.2f}x",
        "qa-score / larger script's peak RSS": f"{ours.peak_mb / reference.peak_mb:.2f}x",
    }
    publish(f"qa-score against seed 002's scripts, {args.rows:,} rows", rows, args.record)
    return 0


def _medians(runs: list[ChildRun]) -> ChildRun:
    return ChildRun(median(r.wall_s for r in runs), median(r.cpu_s for r in runs), median(r.peak_mb for r in runs))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    raise SystemExit(main())
