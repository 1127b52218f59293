"""The joint bootstrap at full size: 500 models x Indic WritingBench's 3,925 items, 1,000 replicates.

Synthetic, seeded scores (each request's three renderings share its difficulty; each model has
its own level and noise) in the real benchmark's 13 configs and sizes. Times the engine's
`joint_bootstrap` against the plain-loop reference in `bench/joint_bootstrap_reference.py` on
the same draws, checks that both give the same intervals and rank intervals, and reports the
ratio. Medians of `--repeats` runs of the engine; the reference runs once (it is slow).

With `--folders`, it also writes 500 run folders (items.jsonl once, a details.parquet each,
with a long response text per item as real ones have) and times what the board does with
them: the joint ranking from the folders cold, then again with the board's cache after one
run's table changed (a new board state).

    python bench/joint_bootstrap.py --folders --record
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Mapping

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.joint_bootstrap_reference import reference_joint_bootstrap  # noqa: E402
from bench.record import publish  # noqa: E402
from eval_backend.benchmarks.writing_bench.items import record_to_item  # noqa: E402
from eval_backend.benchmarks.writing_bench.records import ItemMeta  # noqa: E402
from eval_backend.joint_ranking import joint_ranking  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from eval_backend.statistics import Design, item_design, joint_bootstrap  # noqa: E402
from leaderboard.results import LruCache  # noqa: E402
from tests.support.hub_dataset import FULL_SIZE_CONFIGS, make_rows  # noqa: E402

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
        "CPUs": str(os.cpu_count()),
    }
    if args.folders:
        rows.update(measure_folders(design, scores))
    rows["load average (1 min) before / after"] = f"{args.load_before:.2f} / {os.getloadavg()[0]:.2f}"
    publish("Joint bootstrap at full size", rows, args.record)
    return 0


def measure_folders(design: Design, scores: np.ndarray) -> dict[str, str]:
    """The board's joint ranking from run folders: cold, and after one run's details changed."""
    with tempfile.TemporaryDirectory(prefix="bench-joint-") as tmp:
        folders = write_folders(Path(tmp), scores)
        started = time.perf_counter()
        cache: LruCache[object] = LruCache(2 * len(folders))
        joint_ranking(folders, "overall", cached=cache.get_or_load)
        cold = time.perf_counter() - started
        stamp = folders[-1].details_path.stat()
        os.utime(folders[-1].details_path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000))
        started = time.perf_counter()
        joint_ranking(folders, "overall", cached=cache.get_or_load)
        warm = time.perf_counter() - started
    return {
        f"joint ranking from {len(folders)} run folders, cold": f"{cold:.2f} s",
        "the same after one run changed (board cache)": f"{warm:.2f} s",
    }


def write_folders(root: Path, scores: np.ndarray, sizes: Mapping[str, int] = FULL_SIZE_CONFIGS) -> list[RunFolder]:
    """One run folder per model: request, summary, details.parquet, and items.jsonl (hard links to one file).

    Each request's three renderings share its rubric, as in the published dataset; the details
    have the columns a comparison reads (config, index, variant, domain, item_score) and a response.
    """
    rows = [row for config, size in sizes.items() for row in _linked(make_rows(config, size, query_chars=50))]
    items = [record_to_item(row["language"], row) for row in rows]
    metas = [ItemMeta(i.config, i.index, i.id, i.language, i.variant, i.domain, i.subdomain, i.prompt, i.checklist)
             for i in items]
    keys = pd.DataFrame({"config": [i.config for i in items], "index": [i.index for i in items],
                         "variant": [i.variant for i in items], "domain": [i.domain for i in items]})
    folders = []
    for number, row in enumerate(scores):
        folder = RunFolder(root / f"org__model-{number}" / "main")
        folder.create()
        folder.write_request({"model": f"org/model-{number}", "dataset_revision": "sha256:bench"})
        folder.write_summary({"benchmark": "indic_writing_bench"})
        if folders:
            os.link(folders[0].items_path, folder.items_path)
        else:
            folder.write_items(metas)
        keys.assign(item_score=row, response="model answer text " * 300).to_parquet(folder.details_path)
        folders.append(folder)
    return folders


def _linked(rows: list[dict]) -> list[dict]:
    """Rows whose renderings (indexes 3k, 3k+1, 3k+2) carry the rubric of the first."""
    return [{**row, "checklist": rows[row["index"] - row["index"] % RENDERINGS]["checklist"]} for row in rows]


def full_size_design(sizes: Mapping[str, int] = FULL_SIZE_CONFIGS) -> Design:
    """The 13 configs at their published sizes (or `sizes`), consecutive items rendered in threes."""
    strata, clusters = [], []
    for config, size in sizes.items():
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
    parser.add_argument("--folders", action="store_true", help="also time the joint ranking from 500 run folders")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    args = parser.parse_args()
    args.load_before = os.getloadavg()[0]
    return args


if __name__ == "__main__":
    sys.exit(main())
