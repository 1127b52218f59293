"""`compare`: is run A better than run B? Paired differences per figure and per config."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Sequence

from eval_backend.cli.common import configs_of
from eval_backend.run_comparison import FigureComparison, compare_runs, read_run_pair
from eval_backend.run_folder import RunFolder
from eval_backend.statistics import DEFAULT_SEED


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "compare", help="paired comparison of two run folders of one benchmark and dataset revision"
    )
    parser.add_argument("run_a", type=Path, help="run folder A")
    parser.add_argument("run_b", type=Path, help="run folder B")
    parser.add_argument("--configs", help="comma-separated configs to compare on (default: every shared config)")
    parser.add_argument(
        "--where", action="append", default=[], type=subset_filter, metavar="COLUMN=V1,V2",
        help="keep the items whose COLUMN (variant, domain or task, as the benchmark has) is one of the values; "
             "repeatable",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the bootstrap and the sign flips")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    a, b = read_run_pair(RunFolder(args.run_a), RunFolder(args.run_b))
    results = compare_runs(a, b, configs_of(args), dict(args.where), seed=args.seed)
    if args.json:
        print(json.dumps(comparison_document(a.label, b.label, a.benchmark, a.dataset_revision, results), indent=2))
    else:
        print(f"{a.benchmark}: A = {a.label}, B = {b.label} (A minus B; dataset revision {a.dataset_revision})")
        print("\n".join(table_lines(results)))
    return 0


def subset_filter(text: str) -> tuple[str, list[str]]:
    """An argparse type: `COLUMN=V1,V2` -> (column, values); argparse exits 2 on anything else."""
    column, found, values = text.partition("=")
    chosen = [value.strip() for value in values.split(",") if value.strip()]
    if not found or not column.strip() or not chosen:
        raise argparse.ArgumentTypeError(f"expected COLUMN=V1,V2, got {text!r}")
    return column.strip(), chosen


def comparison_document(
    a_label: str, b_label: str, benchmark: str, dataset_revision: str | None, results: Sequence[FigureComparison]
) -> dict[str, Any]:
    """What --json prints: who A and B are, the benchmark and revision, and every comparison."""
    return {"a": a_label, "b": b_label, "benchmark": benchmark, "dataset_revision": dataset_revision,
            "comparisons": [comparison_dict(result) for result in results]}


def comparison_dict(result: FigureComparison) -> dict[str, Any]:
    """One comparison as --json prints it."""
    paired = result.comparison
    return {
        "figure": result.figure.name, "label": result.figure.label, "scope": result.scope,
        "unit": result.figure.unit, "higher_is_better": result.figure.higher_is_better,
        "difference": paired.difference.estimate, "ci_low": paired.difference.low, "ci_high": paired.difference.high,
        "level": paired.difference.level, "p_value": paired.p_value,
        "wins": paired.wins, "ties": paired.ties, "losses": paired.losses,
        "n_items": paired.n_items, "n_clusters": paired.n_clusters, "test": paired.test,
    }


def table_lines(results: Sequence[FigureComparison]) -> list[str]:
    """A fixed-width table: figure, scope, difference [95 % interval], p-value, wins/ties/losses, items."""
    rows = [("figure", "scope", "A - B", "95 % interval", "p", "W/T/L", "items (clusters)")]
    for result in results:
        paired = result.comparison
        rows.append((
            result.figure.label + ("" if result.figure.higher_is_better else " (lower is better)"),
            result.scope,
            f"{paired.difference.estimate:+.3f}",
            f"[{paired.difference.low:+.3f}, {paired.difference.high:+.3f}]",
            f"{paired.p_value:.4f}",
            f"{paired.wins}/{paired.ties}/{paired.losses}",
            f"{paired.n_items} ({paired.n_clusters})",
        ))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
