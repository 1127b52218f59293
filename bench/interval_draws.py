"""Interval endpoints against the seed (issue 42): their Monte-Carlo sd with 1,000 draws and with draws set per figure.

On synthetic full-size data (`joint_bootstrap.py`'s: 13 configs at their published sizes, renderings
in threes sharing their request's difficulty), each interval is drawn with `--seeds` seeds, by the
fixed 1,000 draws that were the default before (the reference, same run) and by the draws the engine
now sets (`eval_backend/statistics/draws.py`); the sd over seeds of each endpoint is its Monte-Carlo
error. Figures: one run's Indic average (1-10), one run's Hindi (1-10), a QA-like pooled accuracy in
percentage points (600 questions standing alone, 0 or 100 each), one paired difference of two runs on
Hindi, and the board's joint bootstrap of `--models` runs (endpoint sd: the largest over the runs, on
`--joint-seeds` seeds), with its time (median of `--repeats`) against the fixed draws': the page's
time budget is the joint bootstrap's time at 500 runs.

    python bench/interval_draws.py --record
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.joint_bootstrap import full_size_design, synthetic_scores  # noqa: E402
from bench.record import publish  # noqa: E402
from eval_backend.statistics import (  # noqa: E402
    DEFAULT_REPLICATES,
    Weighting,
    cluster_bootstrap_interval,
    compare_paired,
    item_design,
    joint_bootstrap,
)
from eval_backend.statistics.draws import ENDPOINT_ERROR, PERCENT_ENDPOINT_ERROR  # noqa: E402

Endpoints = Callable[[int | None, int], np.ndarray]
"""(replicates or None for the engine's choice, seed) -> the endpoints (low, high, ...) of one draw."""


def main() -> int:
    args = parse_args()
    design = full_size_design()
    scores = synthetic_scores(design, args.models, np.random.default_rng(0))
    hindi = np.array([config == design.strata[0] for config in design.strata])
    rows: dict[str, str] = {"seeds per interval": str(args.seeds)}
    cases: dict[str, tuple[Endpoints, float]] = {
        "one run, Indic average over 13 configs (1-10)": (_single(scores[0], design), ENDPOINT_ERROR),
        "one run, Hindi (1-10)": (_single(scores[0][hindi], design.subset(hindi)), ENDPOINT_ERROR),
        "QA-like pooled accuracy, 600 questions (%)": (_single(*_percent_figure()), PERCENT_ENDPOINT_ERROR),
        "paired difference of two runs, Hindi (1-10)": (_paired(scores[0][hindi], scores[1][hindi],
                                                                design.subset(hindi)), ENDPOINT_ERROR),
    }
    for name, (endpoints, bound) in cases.items():
        rows[f"{name}: endpoint MC sd, 1,000 draws / set per figure (bound)"] = _sd_pair(endpoints, args.seeds, bound)
    joint_scores = scores[: args.models]
    rows.update(_joint(joint_scores, design, args))
    rows["CPUs"] = str(os.cpu_count())
    rows["load average (1 min) before / after"] = f"{args.load_before:.2f} / {os.getloadavg()[0]:.2f}"
    publish("Interval endpoints against the seed", rows, args.record)
    return 0


def _single(scores: np.ndarray, design) -> Endpoints:
    def endpoints(replicates: int | None, seed: int) -> np.ndarray:
        interval = cluster_bootstrap_interval(scores, design, replicates=replicates, seed=seed,
                                              endpoint_error=_error_of(scores))
        return np.array([interval.low, interval.high])
    return endpoints


def _paired(a: np.ndarray, b: np.ndarray, design) -> Endpoints:
    def endpoints(replicates: int | None, seed: int) -> np.ndarray:
        difference = compare_paired(a, b, design, replicates=replicates, permutations=100, seed=seed).difference
        return np.array([difference.low, difference.high])
    return endpoints


def _error_of(scores: np.ndarray) -> float:
    """The bound of the scale the scores are on: percentage points for 0/100 scores, else the 1-10 one."""
    return PERCENT_ENDPOINT_ERROR if np.max(scores) > 10 else ENDPOINT_ERROR


def _percent_figure() -> tuple[np.ndarray, object]:
    rng = np.random.default_rng(2)
    configs = [f"lang-{i % 6}" for i in range(600)]
    return 100.0 * (rng.random(600) < 0.62), item_design(configs, weighting=Weighting.POOLED)


def _sd_pair(endpoints: Endpoints, seeds: int, bound: float) -> str:
    fixed, chosen = (np.stack([endpoints(replicates, seed) for seed in range(seeds)])
                     for replicates in (DEFAULT_REPLICATES, None))
    return (f"{np.max(np.std(fixed, axis=0, ddof=1)):.4f} / {np.max(np.std(chosen, axis=0, ddof=1)):.4f} "
            f"({bound:g})")


def _joint(scores: np.ndarray, design, args: argparse.Namespace) -> dict[str, str]:
    times: dict[str, list[float]] = {"fixed": [], "chosen": []}
    drawn = 0
    for _ in range(args.repeats):
        for label, replicates in (("fixed", DEFAULT_REPLICATES), ("chosen", None)):  # in turns
            started = time.perf_counter()
            joint = joint_bootstrap(scores, design, replicates=replicates, seed=1)
            times[label].append(time.perf_counter() - started)
            drawn = joint.replicates.shape[0] if replicates is None else drawn
    fixed_s, chosen_s = (statistics.median(times[label]) for label in ("fixed", "chosen"))
    subset = scores[: args.joint_models]
    sds = []
    for replicates in (DEFAULT_REPLICATES, None):
        ends = np.stack([np.concatenate([(joint := joint_bootstrap(subset, design, replicates=replicates,
                                                                    seed=seed)).low, joint.high])
                         for seed in range(args.joint_seeds)])
        sds.append(float(np.max(np.std(ends, axis=0, ddof=1))))
    return {
        f"joint bootstrap, {len(scores)} runs x {design.n_items} items ({design.n_clusters} clusters): draws":
            f"{DEFAULT_REPLICATES:,} / {drawn:,}",
        "joint bootstrap time, 1,000 draws / set per figure (median)": f"{fixed_s:.2f} s / {chosen_s:.2f} s "
                                                                       f"({chosen_s / fixed_s:.1f}x)",
        f"joint bootstrap, {len(subset)} runs, largest endpoint MC sd over {args.joint_seeds} seeds, "
        "1,000 draws / set per figure (bound)": f"{sds[0]:.4f} / {sds[1]:.4f} ({ENDPOINT_ERROR:g})",
    }


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=100, help="seeds per single-run interval")
    parser.add_argument("--models", type=int, default=500, help="runs in the timed joint bootstrap")
    parser.add_argument("--joint-models", type=int, default=50, help="runs in the joint bootstrap drawn per seed")
    parser.add_argument("--joint-seeds", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    args = parser.parse_args()
    args.load_before = os.getloadavg()[0]
    return args


if __name__ == "__main__":
    sys.exit(main())
