"""The style-controlled fit and its bootstrap at full size, side by side with the raw joint bootstrap (issue 43).

500 models x Indic WritingBench's 3,925 items (1,313 requests rendered in threes, the 13 configs
at their published sizes), 1,000 replicates, two style features (log length relative to the
item's median, markdown density) as WritingBench declares. Synthetic, seeded: the scores of
`bench/joint_bootstrap.py` plus a judge that pays `BETA` points per log-length unit. Times the
engine's `joint_bootstrap` and `style_control` in turns (medians of `--repeats`), reports their
ratio, and checks that the style fit's raw side is the joint bootstrap (same draws, same
intervals and rank intervals) and that its length coefficient's interval covers `BETA`.

With `--folders N`, it also writes N full-size run folders (details.parquet with an answer of
about 3,000 characters of varied words per item, some with markdown, and responses.jsonl with
token counts) and times what a board does with them: `style_board` cold (every folder's answers
read and measured, then the fit), and again with the board's cache after one run changed. The
per-run read is what a cold board over 500 runs pays 500 times.

    python bench/style_control.py --folders 12 --record
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.joint_bootstrap import full_size_design, synthetic_scores, write_folders  # noqa: E402
from bench.record import publish  # noqa: E402
from eval_backend.pipeline import import_responses  # noqa: E402
from eval_backend.records import ResponseRecord  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from eval_backend.statistics import Design, joint_bootstrap  # noqa: E402
from eval_backend.statistics.style_control import style_control  # noqa: E402
from eval_backend.style_ranking import style_board  # noqa: E402
from leaderboard.results import LruCache  # noqa: E402

BETA = 0.4
"""Points the simulated judge adds per log-length unit."""


def main() -> int:
    args = parse_args()
    design = full_size_design()
    rng = np.random.default_rng(0)
    scores = synthetic_scores(design, args.models, rng)
    features = synthetic_style(design, args.models, rng)
    scores = scores + BETA * features[:, :, 0]
    raw_s, style_s = [], []
    for _ in range(args.repeats):
        started = time.perf_counter()
        joint = joint_bootstrap(scores, design, replicates=args.replicates, seed=1)
        raw_s.append(time.perf_counter() - started)
        started = time.perf_counter()
        style = style_control(scores, features, design, ["log_length", "markdown_density"], args.replicates, seed=1)
        style_s.append(time.perf_counter() - started)
    raw, fit = statistics.median(raw_s), statistics.median(style_s)
    length = style.coefficients[0]
    rows = {
        "models x items (clusters), replicates, features": f"{args.models} x {design.n_items} ({design.n_clusters}), "
                                                           f"{args.replicates}, 2",
        "raw joint_bootstrap (median)": f"{raw:.2f} s",
        "style_control: fit + bootstrap refits (median)": f"{fit:.2f} s",
        "style_control / joint_bootstrap": f"{fit / raw:.2f}x",
        "raw side is the joint bootstrap": str(_same(style.raw, joint)),
        f"log-length coefficient (true {BETA})": f"{length.estimate:+.3f} [{length.low:+.3f}, {length.high:+.3f}]",
        "CPUs": str(os.cpu_count()),
    }
    if args.folders:
        rows.update(measure_folders(design, scores[: args.folders], args.replicates))
    rows["load average (1 min) before / after"] = f"{args.load_before:.2f} / {os.getloadavg()[0]:.2f}"
    publish("Style-controlled ranking at full size", rows, args.record)
    return 0


def measure_folders(design: Design, scores: np.ndarray, replicates: int) -> dict[str, str]:
    """`style_board` over full-size run folders: cold, and after one run's details changed (board cache)."""
    with tempfile.TemporaryDirectory(prefix="bench-style-") as tmp:
        folders = write_folders(Path(tmp), scores)
        rng = np.random.default_rng(2)
        for folder in folders:
            write_answers(folder, rng)
        cache: LruCache[object] = LruCache(4 * len(folders))
        started = time.perf_counter()
        board = style_board(folders, "overall", replicates, cached=cache.get_or_load)
        cold = time.perf_counter() - started
        stamp = folders[-1].details_path.stat()
        os.utime(folders[-1].details_path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000))
        started = time.perf_counter()
        style_board(folders, "overall", replicates, cached=cache.get_or_load)
        warm = time.perf_counter() - started
    n = len(folders)
    return {
        f"style_board from {n} full-size run folders, cold": f"{cold:.2f} s ({cold / n:.2f} s per run)",
        "the same after one run changed (board cache)": f"{warm:.2f} s",
        "controlled ranking from the folders": "yes" if board.control is not None else f"no: {board.uncontrolled}",
    }


def write_answers(folder: RunFolder, rng: np.random.Generator) -> None:
    """Varied answers of about 3,000 characters (this model's verbosity), some with markdown, in details.parquet
    and responses.jsonl (with token counts), on the items `write_folders` wrote."""
    details = pd.read_parquet(folder.details_path)
    words = np.array(["भारत", "लेखन", "கட்டுரை", "উত্তর", "answer", "model", "writing", "quality", "detail", "style"])
    verbosity, styled = rng.uniform(0.5, 1.5), rng.uniform()
    texts = []
    for _ in range(len(details)):
        body = " ".join(rng.choice(words, size=int(rng.integers(200, 400) * verbosity)))
        texts.append(f"## शीर्षक\n- {body[:80]}\n**{body[80:120]}**\n{body}" if rng.uniform() < styled else body)
    details.assign(response=texts).to_parquet(folder.details_path)
    import_responses(folder, [
        ResponseRecord(config, int(index), text, output_tokens=len(text) // 4)
        for config, index, text in zip(details["config"], details["index"], texts)
    ])


def synthetic_style(design: Design, models: int, rng: np.random.Generator) -> np.ndarray:
    """(models, items, 2): log length relative to the item's median (each model its own verbosity), markdown density."""
    verbosity = rng.normal(0.0, 0.5, (models, 1))
    log_length = verbosity + rng.normal(0.0, 0.4, (models, design.n_items))
    log_length -= np.median(log_length, axis=0)
    markdown = np.abs(rng.normal(rng.uniform(0.0, 8.0, (models, 1)), 2.0, (models, design.n_items)))
    return np.stack([log_length, markdown], axis=2)


def _same(raw, joint) -> bool:
    return bool(
        np.allclose(raw.headlines, joint.headlines) and np.allclose(raw.low, joint.low)
        and np.allclose(raw.high, joint.high) and np.array_equal(raw.rank_best, joint.rank_best)
        and np.array_equal(raw.rank_worst, joint.rank_worst)
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--folders", type=int, default=0, help="also time style_board over this many run folders")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    args = parser.parse_args()
    args.load_before = os.getloadavg()[0]
    return args


if __name__ == "__main__":
    sys.exit(main())
