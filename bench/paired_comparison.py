"""The first comparison of two full-size Indic WritingBench runs (issue 23), against the algorithm it replaced.

Two runs x 3,925 items in 1,313 clusters of three (the real configs and sizes; seeded synthetic
scores as in `joint_bootstrap.py`), written as run folders. Two pairs: a far pair (models of
different levels: every p-value tiny) and a close pair (B is A's answers scored again with
noise: p-values spread over (0, 1), each needing random flips). For each pair it times

- one comparison on every item (the overall figure: every config, each alike): the engine's
  `compare_paired` against `bench/paired_comparison_reference.py` (the same interval; 10,000
  sign vectors drawn with `rng.choice` through a dense membership matrix) on the same scores;
- the board's first comparison of the pair: both runs read from their folders and every
  figure compared overall, per language and per variant and domain (`read_run_pair` +
  `leaderboard.run_pair.compare_items`: 40 comparisons at full size), against the same code of
  a reference commit of main (`--reference`, extracted with `git archive` and run in a child
  process on the same folders: it reads both runs in full and flips as the reference file does).

It checks that every difference and interval is the reference's and every p-value within
Monte-Carlo error of it, and reports the ratios. Medians of --repeats, each a fresh computation
(no cache) after one untimed warm-up, the engine and the reference in turns.

    python bench/paired_comparison.py --record
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.draw_error import intervals_agree  # noqa: E402
from bench.joint_bootstrap import full_size_design, synthetic_scores, write_folders  # noqa: E402
from bench.paired_comparison_reference import PERMUTATIONS, reference_compare_paired  # noqa: E402
from bench.record import publish  # noqa: E402
from bench.reference import extract_revision  # noqa: E402
from eval_backend.run_comparison import read_run_pair  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from eval_backend.statistics import Design, compare_paired  # noqa: E402
from leaderboard.comparison_tables import comparison_records  # noqa: E402
from leaderboard.run_pair import compare_items  # noqa: E402
from tests.support.hub_dataset import FULL_SIZE_CONFIGS  # noqa: E402

BENCHMARK = "indic_writing_bench"
REFERENCE = "2ae5fa9"
"""The last main commit before the sign-flip test drew bits, and before run B was read with A's clusters."""
CHILD = """
import json, sys, time
from eval_backend.run_folder import RunFolder
from eval_backend.run_items import read_run_items
from leaderboard import run_pair
from leaderboard.comparison_tables import comparison_records

# The reference commit calls it `_compare`; a clone without that commit runs HEAD, where it is `compare_items`.
compare = getattr(run_pair, "compare_items", None) or run_pair._compare
folders = [RunFolder(path) for path in sys.argv[1:3]]
for _ in sys.stdin:  # one line asks for one fresh comparison, answered with its seconds and figures
    started = time.perf_counter()
    a, b = (read_run_items(folder) for folder in folders)
    records = comparison_records(compare("indic_writing_bench", a, b))
    print(json.dumps({"seconds": time.perf_counter() - started, "records": records}), flush=True)
"""
"""The reference's first comparison, run by the reference commit's own code: both runs read in full."""


def main() -> int:
    args = parse_args()
    sizes = {config: min(size, args.items_per_config) for config, size in FULL_SIZE_CONFIGS.items()}
    design = full_size_design(sizes)
    scores = synthetic_scores(design, 2, np.random.default_rng(0))
    noisy = np.clip(np.round((scores[0] + np.random.default_rng(5).normal(0.0, 0.8, design.n_items)) * 5) / 5, 1, 10)
    pairs = {"far": scores, "close": np.stack([noisy, scores[0]])}
    rows = {"items (clusters) a run; sign flips": f"{design.n_items} ({design.n_clusters}); {PERMUTATIONS:,}"}
    with tempfile.TemporaryDirectory(prefix="bench-paired-") as tmp:
        reference_tree = extract_revision(Path(tmp) / "reference", args.reference, ["eval_backend", "leaderboard"])
        for name, pair in pairs.items():
            rows.update(measure_one(name, pair, design, args.repeats))
            folders = write_folders(Path(tmp) / name, pair, sizes)
            rows.update(measure_board(name, [str(folder.path) for folder in folders], reference_tree, args))
    rows["CPUs"] = str(os.cpu_count())
    rows["load average (1 min) before / after"] = f"{args.load_before:.2f} / {os.getloadavg()[0]:.2f}"
    publish("Paired comparison of two full-size runs", rows, args.record)
    return 0


def measure_one(name: str, pair: np.ndarray, design: Design, repeats: int) -> dict[str, str]:
    """One comparison on every item (the overall figure, 3,925 items at full size): engine against the reference file."""
    a, b = pair
    (engine_s, engine), (reference_s, reference) = _in_turns(
        lambda: compare_paired(a, b, design), lambda: reference_compare_paired(a, b, design), repeats)
    same = engine.difference.estimate == reference["difference"] and intervals_agree(
        (engine.difference.low, engine.difference.high), (reference["ci_low"], reference["ci_high"]))
    return {
        f"{name} pair, every item: A - B, p (engine / reference)":
            f"{engine.difference.estimate:+.3f}, {engine.p_value:.4f} / {reference['p_value']:.4f}",
        f"{name} pair, one comparison on every item: engine / reference (median)":
            f"{engine_s * 1000:.0f} ms / {reference_s * 1000:.0f} ms",
        f"{name} pair, one comparison on every item: speed-up": f"{reference_s / engine_s:.1f}x",
        f"{name} pair, every item: same difference and interval, p within Monte-Carlo error":
            str(same and _within_error(engine.p_value, reference["p_value"])),
    }


def measure_board(name: str, folders: list[str], reference_tree: Path, args: argparse.Namespace) -> dict[str, str]:
    """The board's first comparison of the pair from its folders: the engine here and the reference commit in a
    child process, taken in turns (a warm-up each first), so that other work on the machine weighs on both alike."""
    def compute() -> list[dict[str, Any]]:
        return comparison_records(compare_items(BENCHMARK, *read_run_pair(*(RunFolder(Path(path)) for path in folders))))

    child = subprocess.Popen([sys.executable, "-c", CHILD, *folders], cwd=reference_tree, text=True,
                             env={**os.environ, "PYTHONPATH": str(reference_tree)}, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    engine_s, reference_s = [], []
    try:
        for turn in range(args.repeats + 1):
            started = time.perf_counter()
            engine = compute()
            seconds = time.perf_counter() - started
            child.stdin.write("go\n")
            child.stdin.flush()
            answer = json.loads(child.stdout.readline())
            if turn:
                engine_s.append(seconds)
                reference_s.append(answer["seconds"])
    finally:
        child.stdin.close()
        child.wait()
    engine_median, reference_median = statistics.median(engine_s), statistics.median(reference_s)
    same, worst = _same_figures(engine, answer["records"])
    return {
        f"{name} pair, board's first comparison ({len(engine)} figures and subsets), read + compare: "
        "engine / reference (median)": f"{engine_median:.2f} s / {reference_median:.2f} s",
        f"{name} pair, board's first comparison: speed-up": f"{reference_median / engine_median:.1f}x",
        f"{name} pair, board: same differences and intervals, every p within Monte-Carlo error":
            f"{same} (largest p-value gap {worst:.4f})",
    }


def _same_figures(engine: list[dict[str, Any]], reference: list[dict[str, Any]]) -> tuple[bool, float]:
    """Whether every record the engine gives is the reference's (its fields: verdicts are new), the intervals and
    p-values within Monte-Carlo error; the largest p-value gap.

    The engine lists a config's comparison once (issue 42), so the reference's repeats of it under a later figure
    have no counterpart; every engine record must have one."""
    theirs_by_key = {_key(record): record for record in reference}
    if not all(_key(record) in theirs_by_key for record in engine):
        return False, float("nan")
    pairs = [(mine, theirs_by_key[_key(mine)]) for mine in engine]
    tested = [(mine, theirs) for mine, theirs in pairs if theirs["p_value"] == theirs["p_value"]]
    gaps = [abs(mine["p_value"] - theirs["p_value"]) for mine, theirs in tested if mine["p_value"] is not None]
    # The interval and p-value agree within Monte-Carlo error; a difference's unit is now said from its metric's
    # one declaration (issue 39: "points (1–10)", the scale's own dash, where the reference wrote "points (1-10)").
    exact = ("ci_low", "ci_high", "p_value", "unit")
    fields_agree = all(mine[key] == theirs[key] for mine, theirs in pairs for key in theirs if key not in exact)
    intervals = all(intervals_agree((mine["ci_low"], mine["ci_high"]), (theirs["ci_low"], theirs["ci_high"]))
                    for mine, theirs in tested if mine["ci_low"] is not None)
    close = all(mine["p_value"] is not None and _within_error(mine["p_value"], theirs["p_value"])
                for mine, theirs in tested if mine["no_verdict_reason"] is None)
    return fields_agree and intervals and close, max(gaps, default=0.0)


def _key(record: dict[str, Any]) -> str:
    return json.dumps([record["figure"], record["scope"], record.get("where")], sort_keys=True)


def _within_error(p: float, reference: float) -> bool:
    """Two estimates of one p-value agree within 4 standard errors of the difference of two 10,000-flip estimates
    (plus the 1 / 10,001 that an exact p-value or the sure one may differ by from a Monte-Carlo estimate)."""
    return abs(p - reference) <= 4 * np.sqrt(2 * reference * (1 - reference) / PERMUTATIONS) + 1 / (PERMUTATIONS + 1)


def _in_turns(engine: Callable[[], Any], reference: Callable[[], Any], repeats: int) -> list[tuple[float, Any]]:
    """Each callable's median seconds over `repeats` turns (engine, then reference) after one untimed turn, and its
    last result: taken in turns, so that other work on the machine weighs on both alike."""
    results: list[Any] = [engine(), reference()]
    times: list[list[float]] = [[], []]
    for _ in range(repeats):
        for side, compute in enumerate((engine, reference)):
            started = time.perf_counter()
            results[side] = compute()
            times[side].append(time.perf_counter() - started)
    return [(statistics.median(seconds), result) for seconds, result in zip(times, results)]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items-per-config", type=int, default=max(FULL_SIZE_CONFIGS.values()),
                        help="at most this many items of each config (default: every item)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--reference", default=REFERENCE, help="the commit of main whose comparison is the reference")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    args = parser.parse_args()
    args.load_before = os.getloadavg()[0]
    return args


if __name__ == "__main__":
    sys.exit(main())
