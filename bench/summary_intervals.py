"""The clustered intervals a full-size summary.json holds, and the About tab's precision table, timed.

Synthetic, seeded scores at Indic WritingBench's full size (3,925 items, 13 configs, renderings
in threes sharing their request's difficulty; `bench/joint_bootstrap.py`'s data). Times the
intervals `eval_backend.figure_intervals.summary_intervals` computes for one WritingBench run (all configs,
each config, the Indic group: 15 cluster bootstraps) against the same intervals with every item its own cluster
(the naive design, the reference in the same run), reports how much wider the clustered ones
are, and times the precision table of `MAX_RUNS` runs (every figure and each Indic language).

    python bench/summary_intervals.py --record
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.joint_bootstrap import full_size_design, synthetic_scores  # noqa: E402
from bench.record import publish  # noqa: E402
from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS  # noqa: E402
from eval_backend.figure_intervals import figure_interval  # noqa: E402
from eval_backend.statistics import Weighting, precision  # noqa: E402
from leaderboard.precision import MAX_RUNS  # noqa: E402
from tests.support.hub_dataset import FULL_SIZE_CONFIGS  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    design = full_size_design()
    configs = [list(FULL_SIZE_CONFIGS)[code] for code in design.strata]  # strata are coded in that order
    scores = synthetic_scores(design, MAX_RUNS, np.random.default_rng(0))
    clustered, clustered_s = _summary_intervals(scores[0], configs, [str(c) for c in design.clusters])
    naive, naive_s = _summary_intervals(scores[0], configs, [str(i) for i in range(design.n_items)])
    ratios = [(c[1] - c[0]) / (n[1] - n[0]) for c, n in zip(clustered, naive)]
    started = time.perf_counter()
    precision(scores, design)
    for config in INDIC_CONFIGS:
        mask = np.array([name == config for name in configs])
        precision(scores[:, mask], design.subset(mask))
    precision_s = time.perf_counter() - started
    rows = {
        "items (clusters), configs": f"{design.n_items} ({design.n_clusters}), {len(set(configs))}",
        "one summary's 15 intervals, clustered": f"{clustered_s:.2f} s",
        "the same, every item its own cluster (reference)": f"{naive_s:.2f} s",
        "clustered / naive time": f"{clustered_s / naive_s:.2f}x",
        "clustered / naive interval width (median of 15)": f"{statistics.median(ratios):.2f}",
        f"precision table, {MAX_RUNS} runs (all configs + 11 languages)": f"{precision_s:.2f} s",
        "CPUs": str(os.cpu_count()),
        "load average (1 min) before / after": f"{load_before:.2f} / {os.getloadavg()[0]:.2f}",
    }
    publish("Clustered summary intervals and the precision table at full size", rows, args.record)
    return 0


def _summary_intervals(scores: np.ndarray, configs: list[str], clusters: list[str]) -> tuple[list, float]:
    """The intervals a WritingBench summary holds (all configs, each config, the Indic group), and their time."""
    scopes = [set(configs), *({config} for config in dict.fromkeys(configs)), set(INDIC_CONFIGS)]
    started = time.perf_counter()
    intervals = [figure_interval(np.where([c in scope for c in configs], scores, np.nan), configs, clusters,
                                 Weighting.EQUAL_STRATA) for scope in scopes]
    return intervals, time.perf_counter() - started


if __name__ == "__main__":
    raise SystemExit(main())
