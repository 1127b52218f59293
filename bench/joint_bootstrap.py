"""The joint bootstrap at full size: 500 models x Indic WritingBench's 3,925 items, 1,000 replicates.

Synthetic, seeded scores (each request's three renderings share its difficulty; each model has
its own level and noise) in the real benchmark's 13 configs and sizes. Times the engine's
`joint_bootstrap` against the plain-loop reference in `bench/joint_bootstrap_reference.py` on
the same draws, checks that both give the same intervals and rank intervals, and reports the
ratio. Medians of `--repeats` runs of the engine; the reference runs once (it is slow).

    python bench/joint_bootstrap.py --record
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

from bench.joint_bootstrap_reference import reference_joint_bootstrap  # noqa: E402
from bench.record import publish  # noqa: E402
from eval_backend.statistics import Design, item_design, joint_bootstrap  # noqa: E402
from tests.support.hub_dataset import FULL_SIZE_CONFIGS  # noqa: E402

RENDERINGS = 3


def main() -> int:
    args = parse_args()
    design = full_size_design()
    scores = synthetic_scores(design, args.models, np.random.default_rng(0))
    engine_s = []
    for _ in range(args.repeats):
        started = time.perf_counter()
        joint = joint_bootstrap(scores, design, replicates=args.replicates, seed=1)
        engine_s.append(time.perf_counter() - started)
    started = time.perf_counter()
    reference = reference_joint_bootstrap(scores, design, args.replicates, seed=1)
    reference_s = time.perf_counter() - started
    engine = statistics.median(engine_s)
    rows = {
        "models x items (clusters), replicates": f"{args.models} x {design.n_items} ({design.n_clusters}), "
                                                 f"{args.replicates}",
        "engine joint_bootstrap (median)": f"{engine:.2f} s",
        "plain-loop reference": f"{reference_s:.2f} s",
        "speed-up over the reference": f"{reference_s / engine:.1f}x",
        "same intervals and rank intervals": str(_same(joint, reference)),
        "load average (1 min) before / after": f"{args.load_before:.2f} / {os.getloadavg()[0]:.2f}",
        "CPUs": str(os.cpu_count()),
    }
    publish("Joint bootstrap at full size", rows, args.record)
    return 0


def full_size_design() -> Design:
    """The 13 configs at their published sizes, consecutive items rendered in threes."""
    strata, clusters = [], []
    for config, size in FULL_SIZE_CONFIGS.items():
        strata += [config] * size
        clusters += [position // RENDERINGS for position in range(size)]
    return item_design(strata, clusters)


def synthetic_scores(design: Design, models: int, rng: np.random.Generator) -> np.ndarray:
    """Item scores 1-10 (means of five integer criteria): request difficulty + model level + noise."""
    difficulty = rng.normal(0.0, 1.5, design.n_clusters)[design.clusters]
    level = rng.normal(6.0, 1.0, (models, 1))
    raw = level + difficulty + rng.normal(0.0, 1.0, (models, design.n_items))
    return np.clip(np.round(raw * 5) / 5, 1.0, 10.0)


def _same(joint, reference) -> bool:
    return bool(
        np.allclose(joint.low, reference["low"]) and np.allclose(joint.high, reference["high"])
        and np.array_equal(joint.rank_best, reference["rank_best"])
        and np.array_equal(joint.rank_worst, reference["rank_worst"])
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    args = parser.parse_args()
    args.load_before = os.getloadavg()[0]
    return args


if __name__ == "__main__":
    sys.exit(main())
