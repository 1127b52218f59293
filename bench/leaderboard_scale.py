"""Leaderboard at scale: 500 evaluated models, and one model's 19,500 judgments.

Writes synthetic run folders (summary.json in the engine's own format for every model, a
full-size details.parquet for one) with the engine's writers, then times the leaderboard's
own functions: building the main table (cold and cached), each figure, and loading one
model's judgments and filtering them. Reports the median of repeated runs.

    python bench/leaderboard_scale.py --models 500 --record
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import publish  # noqa: E402
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
from leaderboard.display import display_table  # noqa: E402
from leaderboard.scored_tables import items_frame  # noqa: E402
from leaderboard.results import ResultsStore  # noqa: E402
from leaderboard.figure_kinds import draw  # noqa: E402
from leaderboard.writing_bench_figures import SCALE, SPECS, figure_values  # noqa: E402
from leaderboard.writing_bench_tables import DEFAULT_GROUPS, leaderboard_view, table_for_runs, top_n  # noqa: E402
from tests.support.hub_dataset import full_size_shape  # noqa: E402

BENCHMARK = BENCHMARKS["indic_writing_bench"]
DOMAINS = [f"domain-{n}" for n in range(10)]
SUBDOMAINS = [f"subdomain-{n}" for n in range(40)]
DETAILED_MODEL = "org-0/model-0"


def main() -> int:
    args = parse_args()
    rng = random.Random(0)
    with tempfile.TemporaryDirectory(prefix="bench-board-") as tmp:
        runs_dir = Path(tmp) / "runs"
        write_scale_data(runs_dir, args.models, rng)
        rows = measure(runs_dir, args.repeats)
    publish("Leaderboard at scale", rows, args.record)
    return 0


def measure(runs_dir: Path, repeats: int) -> dict[str, str]:
    cold_store = ResultsStore(runs_dir)
    cold_ms = timed(lambda: table_for_runs(cold_store.snapshot().runs))
    store = ResultsStore(runs_dir)
    runs = store.snapshot().runs
    table = table_for_runs(runs)
    shown = top_n(table, 50)
    labels = list(table["label"][:5])
    details_store = ResultsStore(runs_dir)
    run_id = next(run.run_id for run in runs if run.model == DETAILED_MODEL)
    details = store.details(run_id)
    chosen = {"config": "Hindi", "variant": "romanized"}
    return {
        "models": f"{len(runs)}",
        "main table, cold (read 500 summaries + build)": f"{cold_ms:.0f} ms",
        "main table, cached (target < 300 ms)": f"{median_ms(lambda: display_table(leaderboard_view(table_for_runs(store.snapshot().runs), DEFAULT_GROUPS)), repeats):.0f} ms",
        "overall figure (top 50)": f"{median_ms(lambda: drawn('overall', shown), repeats):.0f} ms",
        "language heatmap (top 50)": f"{median_ms(lambda: drawn('heatmap', shown), repeats):.0f} ms",
        "variant bars (top 50)": f"{median_ms(lambda: drawn('variants', shown), repeats):.0f} ms",
        "domain radar (5 models)": f"{median_ms(lambda: drawn('radar', table[table['label'].isin(labels)]), repeats):.0f} ms",
        "one model's judgments, cold load (19,625 judgments)": f"{timed(lambda: details_store.details(run_id)):.0f} ms",
        "filter on them (target < 200 ms)": f"{median_ms(lambda: items_frame(details, BENCHMARK, where=chosen), repeats):.1f} ms",
    }


def drawn(name: str, table: Any) -> Any:
    """WritingBench's declared figure `name` of the runs of `table`, as the Plots tab draws it."""
    return draw(SPECS[name], figure_values(SPECS[name], table), SCALE)


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
        "benchmark": BENCHMARK.name, "overall": overall, "overall_ci": (overall - 0.1, overall + 0.1), "configs": configs,
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
                                 rng.randint(1, 10), "A reason quoting the response. " * 6, "gpt-5.4", 1, Usage(), "s", "p")
                for n in range(5)
            }
            response = ResponseRecord(config, index, "An answer of some length. " * 100)
            results.append(ScoredItem(meta, response, response.response, {}, judgments, SCORED))
    return results


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return 1000 * (time.perf_counter() - start)


def median_ms(work: Callable[[], object], repeats: int) -> float:
    return statistics.median(timed(work) for _ in range(repeats))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
