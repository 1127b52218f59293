"""Leaderboard at scale: 500 evaluated models, and one model's 19,500 judgments, against a reference commit.

Writes synthetic run folders (summary.json in the engine's own format for every model, a
full-size details.parquet for one) with the engine's writers, then times, in a child process per
tree, the leaderboard's own functions: building WritingBench's ranking (cold and on a cached
snapshot, with the page's render), each figure of the top 50 runs, and loading one model's
judgments and filtering them. Reports the median of repeated runs, for the reference commit
(`--reference`, extracted with `git archive`) and the working tree, and their ratio.

Each tree is timed with its own board code: a tree with WritingBench's own tables
(`leaderboard/writing_bench_tables.py`, before issue #39) builds them (`REFERENCE_CHILD`:
`table_for_runs`, `leaderboard_view`, `display_table`, `writing_bench_figures`); a later one builds
WritingBench's ranking as every benchmark's (`CHILD`: `scored_tables.ranking_frame`, its tab's render
`rankings_section.rankings_view`, and its declared figures, `declared_figures.ranked_figure`).

    python bench/leaderboard_scale.py --models 500 --record
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import publish  # noqa: E402
from bench.reference import ROOT, extract_revision, own_writing_bench_tables  # noqa: E402
from eval_backend.benchmarks.plugin import ScoredItem  # noqa: E402
from eval_backend.benchmarks.registry import BENCHMARKS  # noqa: E402
from eval_backend.benchmarks.writing_bench.items import KNOWN_CONFIGS, VARIANTS  # noqa: E402
from eval_backend.benchmarks.writing_bench.records import ItemMeta, Judgment  # noqa: E402
from eval_backend.coverage import Coverage  # noqa: E402
from eval_backend.details import write_details  # noqa: E402
from eval_backend.item_status import SCORED  # noqa: E402
from eval_backend.records import ResponseRecord, Usage, to_json_dict  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from eval_backend.scorer_runs import details_frame  # noqa: E402
from tests.support.hub_dataset import full_size_shape  # noqa: E402

BENCHMARK = BENCHMARKS["indic_writing_bench"]
DOMAINS = [f"domain-{n}" for n in range(10)]
SUBDOMAINS = [f"subdomain-{n}" for n in range(40)]
DETAILED_MODEL = "org-0/model-0"
REFERENCE = "c1ef9ae"
"""Main before issue #39: WritingBench's board built from its own tables and figures."""
TIMING = """
import json, statistics, sys, time
from pathlib import Path
runs_dir, run_id, repeats = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import items_frame
BENCHMARK = BENCHMARKS["indic_writing_bench"]
def timed(work):
    start = time.perf_counter()
    work()
    return 1000 * (time.perf_counter() - start)
def median_ms(work):
    return statistics.median(timed(work) for _ in range(repeats))
def judgments():
    details_store = ResultsStore(runs_dir)
    cold = timed(lambda: details_store.details(run_id))
    details = details_store.details(run_id)
    chosen = {"config": "Hindi", "variant": "romanized"}
    return {"judgments_cold": cold, "filter": median_ms(lambda: items_frame(details, BENCHMARK, where=chosen))}
"""
"""What both trees time alike: one model's judgments, loaded cold, and a filter on them."""
REFERENCE_CHILD = TIMING + """
from leaderboard.display import display_table
from leaderboard.figure_kinds import draw
from leaderboard.writing_bench_figures import SCALE, SPECS, figure_values
from leaderboard.writing_bench_tables import DEFAULT_GROUPS, leaderboard_view, table_for_runs, top_n
cold_store = ResultsStore(runs_dir)
cold = timed(lambda: table_for_runs(cold_store.snapshot().runs))
store = ResultsStore(runs_dir)
table = table_for_runs(store.snapshot().runs)
shown = top_n(table, 50)
def drawn(name):
    return median_ms(lambda: draw(SPECS[name], figure_values(SPECS[name], shown), SCALE))
print(json.dumps({"runs": len(table), "cold": cold,
                  "page": median_ms(lambda: display_table(leaderboard_view(table_for_runs(store.snapshot().runs),
                                                                           DEFAULT_GROUPS))),
                  **{f"figure {name}": drawn(name) for name in ("overall", "heatmap", "variants", "radar")},
                  **judgments()}))
"""
"""WritingBench's own tables and figures (a tree before issue #39); the radar of the first 5 of the top 50."""
CHILD = TIMING + """
import tempfile
from leaderboard.declared_figures import ranked_figure
from leaderboard.ranking_query import RankingQuery
from leaderboard.scored_tables import ranking_frame
from leaderboard.tabs.benchmark_tab import ranking_links
from leaderboard.tabs.rankings_section import rankings_view
downloads = Path(tempfile.mkdtemp(prefix="bench-board-downloads-", dir=runs_dir.parent))
cold_store = ResultsStore(runs_dir)
cold = timed(lambda: ranking_frame(cold_store.snapshot().runs, BENCHMARK))
store = ResultsStore(runs_dir)
table = ranking_frame(store.snapshot().runs, BENCHMARK)
by_id = {run.run_id: run for run in store.snapshot().runs}
ranked = table[table["standing"] == "ranked"]
def page():
    snapshot = store.snapshot()
    rankings_view(snapshot, ranking_frame(snapshot.runs, BENCHMARK), BENCHMARK, RankingQuery(), downloads,
                  "leaderboard", "leaderboard.csv", "", ranking_links(BENCHMARK))
def drawn(spec):
    return median_ms(lambda: ranked_figure(spec, ranked, by_id, BENCHMARK, 50))
print(json.dumps({"runs": len(table), "cold": cold, "page": median_ms(page),
                  **{f"figure {spec.name}": drawn(spec) for spec in BENCHMARK.board.figures}, **judgments()}))
"""
"""WritingBench's ranking, tab render and declared figures as every benchmark's (issue #39): a figure of the ranked
runs draws the top 50, the radar the best 3 and the language x rendering heatmap the best run (their defaults)."""
MEASURES = {
    "cold": "main table, cold (read the summaries + build)",
    "page": "main table on a cached snapshot, built and rendered (target < 300 ms)",
    "figure overall": "overall figure (top 50)",
    "figure heatmap": "language heatmap (top 50)",
    "figure variants": "variant bars (top 50)",
    "figure radar": "domain radar (reference: 5 models, current: the best 3)",
    "figure language-variants": "language x rendering heatmap (current: the best run's)",
    "figure subdomains": "subdomain heatmap (top 50)",
    "judgments_cold": "one model's judgments, cold load (19,625 judgments)",
    "filter": "filter on them (target < 200 ms)",
}


def main() -> int:
    args = parse_args()
    rng = random.Random(0)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-board-") as tmp:
        runs_dir = Path(tmp) / "runs"
        run_id = write_scale_data(runs_dir, args.models, rng)
        trees = {"reference": extract_revision(Path(tmp) / "tree", args.reference, ["eval_backend", "leaderboard"]),
                 "current": ROOT}
        timings = {name: run_in_child(tree, runs_dir, run_id, args.repeats) for name, tree in trees.items()}
        codes = " / ".join(board_code(tree) for tree in trees.values())
    rows = summarize(timings, args)
    rows["board code: reference / current"] = codes
    rows["load average (1 min) before / after"] = f"{load_before:.2f} / {os.getloadavg()[0]:.2f}"
    publish("Leaderboard at scale, reference commit -> working tree", rows, args.record)
    return 0


def summarize(timings: dict[str, dict[str, float]], args: argparse.Namespace) -> dict[str, str]:
    reference, current = timings["reference"], timings["current"]
    rows = {"code compared": f"commit {args.reference} -> working tree, a child process each",
            "models": f"{current['runs']}", "repeats (medians)": str(args.repeats)}
    for measure, label in MEASURES.items():
        ref, cur = reference.get(measure), current.get(measure)
        if ref is None or cur is None:
            rows[f"{label}: current"] = f"{cur:.1f} ms" if cur is not None else "not measured"
            continue
        rows[f"{label}: reference / current"] = f"{ref:.1f} ms / {cur:.1f} ms"
        rows[f"{label}: current / reference time"] = f"{cur / ref:.2f}x"
    rows["CPUs"] = str(os.cpu_count())
    return rows


def board_code(tree: Path) -> str:
    """What a tree's turn times, in words."""
    if own_writing_bench_tables(tree):
        return "WritingBench's own tables and figures (table_for_runs, display_table)"
    return "every benchmark's ranking and figures (ranking_frame, rankings_view, ranked_figure)"


def run_in_child(tree: Path, runs_dir: Path, run_id: str, repeats: int) -> dict[str, float]:
    child = REFERENCE_CHILD if own_writing_bench_tables(tree) else CHILD
    done = subprocess.run([sys.executable, "-c", child, str(runs_dir), run_id, str(repeats)], cwd=tree, check=True,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tree)})
    return json.loads(done.stdout.strip().splitlines()[-1])


def write_scale_data(runs_dir: Path, models: int, rng: random.Random) -> str:
    """`models` run folders with a summary each; the first also has full-size details. Returns its run id."""
    for number in range(models):
        write_summary_folder(runs_dir, f"org-{number % 40}/model-{number}", rng)
    detailed = RunFolder.for_model(runs_dir, DETAILED_MODEL, "main")
    write_details(details_frame(BENCHMARK, full_size_results(rng), {"model": DETAILED_MODEL}), detailed.details_path)
    return detailed.path.relative_to(runs_dir).as_posix()


def write_summary_folder(runs_dir: Path, model: str, rng: random.Random) -> None:
    folder = RunFolder.for_model(runs_dir, model, "main")
    folder.create()
    folder.write_request({"model": model, "revision": "main", "params_b": rng.choice([1, 3, 7, 8, 13, 70])})
    configs = {config: rng.uniform(3, 9) for config in KNOWN_CONFIGS}
    overall = statistics.fmean(configs.values())
    folder.write_summary({
        "benchmark": BENCHMARK.name, "overall": overall, "overall_ci": (overall - 0.1, overall + 0.1),
        "configs": configs,
        "config_ci": {c: (v - 0.3, v + 0.3) for c, v in configs.items()}, "config_groups": {"indic": overall},
        "variants": {v: rng.uniform(3, 9) for v in VARIANTS}, "domains": {d: rng.uniform(3, 9) for d in DOMAINS},
        "subdomains": {s: rng.uniform(3, 9) for s in SUBDOMAINS},
        "config_variants": {c: {v: rng.uniform(3, 9) for v in VARIANTS} for c in KNOWN_CONFIGS},
        "counts": {"items": 3925, "responses": 3925, "scored_items": 3925, "judgments": 19625}, "config_counts": {},
        "usage": to_json_dict(Usage()), "provenance": {"model": model, "revision": "main", "judge_model": "gpt-5.4"},
        "config_group_ci": {"indic": (overall - 0.1, overall + 0.1)}, "headline_group": "indic", "complete": True,
        "coverage": to_json_dict(Coverage(expected=3925, scored=3925, configs=len(KNOWN_CONFIGS),
                                          dataset_configs=len(KNOWN_CONFIGS))),
    })


def full_size_results(rng: random.Random) -> list[ScoredItem]:
    """One model's item results over the real benchmark's 3,925 items, every criterion judged."""
    results = []
    for config, count in full_size_shape().configs.items():
        for index in range(count):
            meta = ItemMeta(config, index, f"{config}-{index}", config, VARIANTS[index % 3], DOMAINS[index % 10],
                            SUBDOMAINS[index % 40], "Write a letter " * 5, tuple({"name": f"c{n}"} for n in range(5)))
            judgments = {
                str(n): Judgment(config, index, meta.id, meta.variant, meta.domain, meta.subdomain, n, f"c{n}",
                                 rng.randint(1, 10), "A reason quoting the response. " * 6, "gpt-5.4", 1, Usage(),
                                 "s", "p")
                for n in range(5)
            }
            response = ResponseRecord(config, index, "An answer of some length. " * 100)
            results.append(ScoredItem(meta, response, response.response, {}, judgments, SCORED))
    return results


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--reference", default=REFERENCE, help=f"commit that is the reference (default {REFERENCE})")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
