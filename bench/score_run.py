"""Scoring one full-size WritingBench run folder (`score`): the engine of a reference commit against today's.

Writes one synthetic run folder at Indic WritingBench's full size (3,925 items in 13 configs, five
judgments each, every fourth Tamil item unanswered so the floor is in play, a few judgments failed),
then scores a copy of it with a reference commit's engine (`--reference`, extracted with `git archive`)
and a copy with the working tree's, each in a child process, in turns, after one untimed turn: reading
the folder, every item's status, the figures, their cluster bootstrap intervals, summary.json and
details.parquet. Checks both summaries hold the same figures, intervals within Monte-Carlo error
(`draw_error.py`: the engine now draws as many replicates as a figure needs, the reference 1,000),
and details.parquet the same columns and values.

    python bench/score_run.py --record
"""

from __future__ import annotations

import argparse
import math
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.draw_error import intervals_agree  # noqa: E402
from bench.record import publish  # noqa: E402
from bench.reference import ROOT, extract_revision  # noqa: E402
from eval_backend.benchmarks.writing_bench.items import VARIANTS  # noqa: E402
from eval_backend.benchmarks.writing_bench.records import ItemMeta, Judgment  # noqa: E402
from eval_backend.records import ResponseRecord, Usage, sha256_text, to_json_dict  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from tests.support.hub_dataset import full_size_shape  # noqa: E402

REFERENCE = "72d8bc6"
"""Main before WritingBench joined the one scoring path (its own `writing_bench_reporting.score_run_folder`)."""
JUDGE = "gpt-5.4"
CONFIGS = full_size_shape().configs
FIGURES = ("overall", "configs", "config_groups", "variants", "domains", "subdomains", "config_variants",
           "complete", "coverage")
INTERVALS = ("overall_ci", "config_ci", "config_group_ci")
CHILD = """
import sys, time
from pathlib import Path
try:  # the working tree: the registry is a module of its own
    from eval_backend.benchmarks.registry import BENCHMARKS
except ImportError:  # the reference commit
    from eval_backend.benchmarks import BENCHMARKS
from eval_backend.pipeline import score_folder
from eval_backend.run_folder import RunFolder
folder = RunFolder(Path(sys.argv[1]))
started = time.perf_counter()
score_folder(BENCHMARKS["indic_writing_bench"], folder)
print(time.perf_counter() - started)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default=REFERENCE, help=f"commit whose engine is the reference (default {REFERENCE})")
    parser.add_argument("--repeats", type=int, default=3, help="timed turns of each engine (medians)")
    parser.add_argument("--configs", type=int, default=len(CONFIGS), help="the first N configs only (a smaller run)")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-score-") as tmp:
        root = Path(tmp)
        source, shape = write_run(root / "source", dict(list(CONFIGS.items())[: args.configs]), random.Random(0))
        trees = {"reference": extract_revision(root / "tree", args.reference, ["eval_backend"]), "current": ROOT}
        folders = {name: Path(shutil.copytree(source, root / name)) for name in trees}
        times: dict[str, list[float]] = {name: [] for name in trees}
        for turn in range(args.repeats + 1):
            for name, tree in trees.items():
                seconds = score_in_child(tree, folders[name])
                if turn:
                    times[name].append(seconds)
        check_same(folders["reference"], folders["current"])
    reference_s, current_s = (statistics.median(times[name]) for name in ("reference", "current"))
    rows = {
        "engines compared": f"commit {args.reference} -> working tree",
        "run folder": shape,
        f"score one run (median of {args.repeats}): reference / current": f"{reference_s:.2f} s / {current_s:.2f} s",
        "current / reference time": f"{current_s / reference_s:.2f}x",
        "summary figures and intervals, details.parquet": "identical (intervals within Monte-Carlo error)",
        "CPUs": str(os.cpu_count()),
        "load average (1 min) before / after": f"{load_before:.2f} / {os.getloadavg()[0]:.2f}",
    }
    publish("Scoring a full-size WritingBench run folder, reference engine -> current", rows, args.record)
    return 0


def write_run(path: Path, configs: dict[str, int], rng: random.Random) -> tuple[Path, str]:
    """A run folder as any engine since item hashes writes it (request, items, responses, judgments), and its shape."""
    folder = RunFolder(path)
    folder.create()
    items, responses, judgments = [], [], []
    for config, count in configs.items():
        for index in range(count):
            checklist = tuple({"name": f"criterion {n}", "criteria_description": f"{config} {index // 3} {n}"}
                              for n in range(5))
            meta = ItemMeta(config, index, f"{config}-{index:04d}", config, VARIANTS[index % 3], f"domain {index % 6}",
                            f"subdomain {index % 12}", "Write a letter", checklist, sha256_text(f"query {config} {index}"),
                            sha256_text(f"item {config} {index}"))
            items.append(meta)
            if config == "Tamil" and index % 4 == 3:
                responses.append(ResponseRecord(config, index, None, id=meta.id, error="prompt does not fit",
                                                query_sha256=meta.query_sha256))
                continue
            text = f"An answer to {meta.id}. " * 40
            responses.append(ResponseRecord(config, index, text, id=meta.id, query_sha256=meta.query_sha256))
            failed = index % 500 == 7
            judgments += [
                Judgment(config, index, meta.id, meta.variant, meta.domain, meta.subdomain, n, f"criterion {n}",
                         None if failed and n == 2 else rng.randint(1, 10), "A reason quoting the answer. " * 4, JUDGE,
                         1, Usage(900, 40, 940, 1), sha256_text(text), "p", item_sha256=meta.item_sha256,
                         error="invalid" if failed and n == 2 else None)
                for n in range(5)
            ]
    folder.write_request({"model": "org/model", "revision": "main", "judge_model": JUDGE,
                          "expected_items": configs, "dataset_configs": list(configs)})
    folder.write_items(items)
    for name, records in (("responses.jsonl", responses), ("judgments.jsonl", judgments)):
        with (path / name).open("w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(to_json_dict(record), ensure_ascii=False) + "\n" for record in records)
    failed = sum(judgment.failed for judgment in judgments)
    unanswered = sum(response.response is None for response in responses)
    return path, (f"{len(items):,} items in {len(configs)} configs, {len(judgments):,} judgments "
                  f"({failed} failed), {unanswered} items unanswered")


def score_in_child(tree: Path, folder: Path) -> float:
    """Seconds `tree`'s engine takes to score `folder`, in a fresh process (its imports not counted)."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(folder)], cwd=tree, check=True, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(tree)})
    return float(done.stdout.strip().splitlines()[-1])


def check_same(reference: Path, current: Path) -> None:
    """Both engines wrote the same figures, intervals and details; SystemExit naming the first that differs."""
    import pandas as pd

    before, after = (json.loads((folder / "summary.json").read_text(encoding="utf-8")) for folder in (reference, current))
    for figure in FIGURES:
        if not _same_figures(before[figure], after[figure]):
            raise SystemExit(f"summary.json's {figure!r} differs: {before[figure]!r} -> {after[figure]!r}")
    for field in INTERVALS:
        pairs = [(before[field], after[field])] if field == "overall_ci" else \
            [(before[field].get(key), after[field].get(key)) for key in {*before[field], *after[field]}]
        if not all(intervals_agree(mine, theirs) for theirs, mine in pairs):
            raise SystemExit(f"summary.json's {field!r} differs: {before[field]!r} -> {after[field]!r}")
    pd.testing.assert_frame_equal(pd.read_parquet(reference / "details.parquet"), pd.read_parquet(current / "details.parquet"))


def _same_figures(before: object, after: object) -> bool:
    """Equal, a number up to its last bits: a figure is now the engine's mean of its item values with each sum
    exactly rounded (issue 39), where the reference summed in order (5.465000000000002 there, 5.465 here)."""
    if isinstance(before, dict) and isinstance(after, dict):
        return before.keys() == after.keys() and all(_same_figures(before[key], after[key]) for key in before)
    if isinstance(before, float) and isinstance(after, float):
        return math.isclose(before, after, rel_tol=1e-12)
    return before == after


if __name__ == "__main__":
    raise SystemExit(main())
