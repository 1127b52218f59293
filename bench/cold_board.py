"""A cold board over 500 full-size WritingBench runs: the first build, a page and a new board state, against main.

Writes `--models` complete run folders at the real benchmark's size (3,925 items in 13 configs):
request.json on one dataset revision, a full summary.json, one items.jsonl (hard links) and a
details.parquet of the engine's own columns (`scorer_runs.details_frame`, five judgments and reasons
an item), each model's item scores its own. Then times, in a fresh child process per turn (the
files in the OS page cache, as on a restarted Space whose disk stays), what the board does at start:
the snapshot of every folder and the main table with its joint-bootstrap rank ranges (the first
build, "board data ready"), a page (the cached table's view and display), and a new board state (one
run re-scored: its summary and details rewritten, the table rebuilt). The reference is main at
`--reference` (extracted with `git archive`), which reads every details.parquet at each start; the
working tree reads the compact per-item values file (`eval_backend.item_values`), which the runs get
at scoring, or, for runs scored before it, on the first start (timed apart: "first start after the
upgrade"). Turns alternate reference and current; medians are reported.

Each tree is timed with its own board code: a tree with WritingBench's own tables
(`leaderboard/writing_bench_tables.py`, before issue #39) builds them (`REFERENCE_BOARD`: `TableCache`,
`leaderboard_view`, `display_table`); a later one builds WritingBench's ranking as every benchmark's
(`BOARD`: `scored_tables.ranking_of`, and its tab's render, `rankings_section.rankings_view`, whose page
also writes the view's CSV once per state).

    python bench/cold_board.py --record
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.joint_bootstrap import full_size_design, synthetic_scores  # noqa: E402
from bench.leaderboard_scale import full_size_results, write_summary_folder  # noqa: E402
from bench.record import publish  # noqa: E402
from bench.reference import ROOT, extract_revision, own_writing_bench_tables  # noqa: E402
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.details import write_details  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from eval_backend.scorer_runs import details_frame  # noqa: E402

REFERENCE = "939a856"
"""Main before the compact per-item values: every start reads each run's details.parquet."""
REVISION = "sha256:bench-revision"
DATASET = "bench-org/indic-writing-bench"
"""The dataset every request records, as the engine writes it (every benchmark's ranking reads the revision of a
run that names its dataset)."""
PREAMBLE = """
import json, os, sys, time
from pathlib import Path
runs = Path(sys.argv[1])
from eval_backend.details import read_details, write_details
from leaderboard.results import ResultsStore
"""
REFERENCE_BOARD = """
from leaderboard.display import display_table
from leaderboard.writing_bench_tables import DEFAULT_GROUPS, TableCache, leaderboard_view
cache = TableCache()
def build():
    return cache.table(store.snapshot())
def page():
    display_table(leaderboard_view(build(), DEFAULT_GROUPS))
"""
"""The board in a tree with WritingBench's own tables (`--reference`'s default, 939a856)."""
BOARD = """
from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.ranking_query import RankingQuery
from leaderboard.scored_tables import ranking_of
from leaderboard.tabs.benchmark_tab import ranking_links
from leaderboard.tabs.rankings_section import rankings_view
benchmark = BENCHMARKS["indic_writing_bench"]
downloads = runs.parent / f"downloads-{os.getpid()}"  # this turn's own: each turn's page writes its CSV
def build():
    return ranking_of(store.snapshot(), benchmark)
def page():
    snapshot = store.snapshot()
    rankings_view(snapshot, ranking_of(snapshot, benchmark), benchmark, RankingQuery(), downloads, "leaderboard",
                  "leaderboard.csv", "", ranking_links(benchmark))
"""
"""The board in a tree whose WritingBench tab is every benchmark's (issue #39)."""
START = """
started = time.perf_counter()
store = ResultsStore(runs)
table = build()
first = time.perf_counter() - started
ranked = table[table["standing"] == "ranked"]
pages = []
for _ in range(5):
    started = time.perf_counter()
    page()
    pages.append(time.perf_counter() - started)
changed = runs / sys.argv[2]
details = read_details(changed / "details.parquet")
write_details(details.assign(item_score=details["item_score"].where(details.index != 0, 1.0)),
              changed / "details.parquet")
summary = json.loads((changed / "summary.json").read_text())
(changed / "summary.json").write_text(json.dumps({**summary, "overall": summary["overall"] - 0.001}))
time.sleep(store.reuse_s)
started = time.perf_counter()
build()
new_state = time.perf_counter() - started
print(json.dumps({"first": first, "page": sorted(pages)[2], "new_state": new_state, "runs": len(table),
                  "problems": len(store.snapshot().problems), "rules": sorted(set(ranked["rank_rule"]))}))
"""
"""What a turn times, by the tree's `build()` (the board's table) and `page()` (a page of it)."""


def main() -> int:
    args = parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-cold-board-") as tmp:
        root = Path(tmp)
        runs = write_runs(root / "runs", args.models)
        trees = {"reference": extract_revision(root / "tree", args.reference, ["eval_backend", "leaderboard"]),
                 "current": ROOT}
        changed = sorted(path.relative_to(runs).as_posix() for path in runs.glob("*/main"))[-1]
        run_in_child(trees["reference"], runs, changed)  # an untimed turn: the files into the page cache
        upgrade = run_in_child(trees["current"], runs, changed)  # writes each run's compact file
        turns: dict[str, list[dict]] = {name: [] for name in trees}
        for _ in range(args.repeats):
            for name, tree in trees.items():
                turns[name].append(run_in_child(tree, runs, changed))
        codes = " / ".join(board_code(tree) for tree in trees.values())
    rows = summarize(turns, upgrade, args)
    rows["board code: reference / current"] = codes
    rows["load average (1 min) before / after"] = f"{load_before:.2f} / {os.getloadavg()[0]:.2f}"
    publish("Cold board over full-size runs, main -> working tree", rows, args.record)
    return 0


def summarize(turns: dict[str, list[dict]], upgrade: dict, args: argparse.Namespace) -> dict[str, str]:
    def median(name: str, measure: str) -> float:
        return statistics.median(turn[measure] for turn in turns[name])

    reference, current = turns["reference"][0], turns["current"][0]
    rows = {
        "code compared": f"commit {args.reference} -> working tree, a child process per turn, turns alternating",
        "runs (ranked), items each": f"{current['runs']} ({args.models}), 3,925",
        "every run ranked by the joint bootstrap: reference / current":
            f"{reference['rules'] == ['joint bootstrap']} / {current['rules'] == ['joint bootstrap']}",
        "folders listed as problems: reference / current": f"{reference['problems']} / {current['problems']}",
        "first start after the upgrade (each run's compact file taken from details.parquet)":
            f"{upgrade['first']:.2f} s",
    }
    for measure, label in (("first", "first build, board data ready"), ("page", "a page (cached table, median of 5)"),
                           ("new_state", "a new board state (one run re-scored)")):
        ref, cur = median("reference", measure), median("current", measure)
        unit, scale = ("ms", 1000) if measure == "page" else ("s", 1)
        rows[f"{label}, median of {args.repeats}: reference / current"] = \
            f"{ref * scale:.{0 if unit == 'ms' else 2}f} {unit} / {cur * scale:.{0 if unit == 'ms' else 2}f} {unit}"
        rows[f"{label}: current / reference time"] = f"{cur / ref:.2f}x"
    rows["CPUs"] = str(os.cpu_count())
    return rows


def write_runs(runs: Path, models: int) -> Path:
    """`models` complete full-size run folders on one dataset revision, each with its own item scores."""
    rng = random.Random(0)
    design = full_size_design()
    scores = synthetic_scores(design, models, np.random.default_rng(0))
    results = full_size_results(rng)
    template = details_frame(BENCHMARKS["indic_writing_bench"], results, {"model": "org/model", "revision": "main"})
    # Each request's three renderings share a rubric, as in the dataset: its cluster (1,313 of them)
    metas = [replace(entry.item, checklist=tuple({"name": f"c{n}", "request": f"{entry.item.config}-"
                                                  f"{entry.item.index // 3}"} for n in range(5))) for entry in results]
    first: RunFolder | None = None
    for number in range(models):
        model = f"org-{number % 40}/model-{number}"
        write_summary_folder(runs, model, rng)
        folder = RunFolder.for_model(runs, model, "main")
        folder.write_request({**folder.read_request(), "dataset": DATASET, "dataset_revision": REVISION,
                              "dataset_resolved_at": "2026-12-01T00:00:00Z"})
        if first is None:
            folder.write_items(metas)
            first = folder
        else:
            os.link(first.items_path, folder.items_path)
        write_details(template.assign(item_score=scores[number], model=model), folder.details_path)
    return runs


def board_code(tree: Path) -> str:
    """What a turn of this tree times, in words."""
    return ("WritingBench's own tables (TableCache, leaderboard_view, display_table)" if own_writing_bench_tables(tree)
            else "every benchmark's ranking (ranking_of, rankings_view)")


def run_in_child(tree: Path, runs: Path, changed: str) -> dict:
    child = PREAMBLE + (REFERENCE_BOARD if own_writing_bench_tables(tree) else BOARD) + START
    done = subprocess.run([sys.executable, "-c", child, str(runs), changed], cwd=tree, check=True,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tree)})
    return json.loads(done.stdout.strip().splitlines()[-1])


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3, help="timed turns of each (medians)")
    parser.add_argument("--reference", default=REFERENCE, help=f"commit that is the reference (default {REFERENCE})")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
