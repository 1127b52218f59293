"""`compare`: is run A better than run B? Paired differences per figure and per config, one verdict each.

Every row's verdict follows one rule (`eval_backend.statistics.verdict`): the sign-flip p-value,
Holm-adjusted over the rows printed, at most 0.05 and the paired 95 % interval excluding 0. A row
resting on too few clusters has no interval, p-value or verdict: the table says why, and --json
writes null with `no_verdict_reason` (the JSON is always strict: no NaN or Infinity).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any, Sequence

from eval_backend.cli.common import configs_of, non_negative_int
from eval_backend.run_comparison import FigureComparison, compare_runs, read_run_pair
from eval_backend.run_folder import RunFolder
from eval_backend.statistics import DEFAULT_SEED, Verdict, verdicts
from eval_backend.statistics.verdict import RULE


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
    parser.add_argument("--seed", type=non_negative_int, default=DEFAULT_SEED,
                        help="seed of the bootstrap and the sign flips (a whole number, 0 or more)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    a, b = read_run_pair(RunFolder(args.run_a), RunFolder(args.run_b))
    results = compare_runs(a, b, configs_of(args), dict(args.where), seed=args.seed)
    records = comparison_records(results)
    if args.json:
        document = comparison_document(a.label, b.label, a.benchmark, a.dataset_revision, records)
        print(json.dumps(document, indent=2, allow_nan=False))
    else:
        print(f"{a.benchmark}: A = {a.label}, B = {b.label} (A minus B; dataset revision {a.dataset_revision})")
        print(headline_sentence(records[0]))
        print("\n".join(table_lines(records)))
        print(f"A row is {RULE} (here the {records[0]['family_size']} rows with a p-value).")
        for record in records:
            if record["no_verdict_reason"] is not None:
                print(f"No verdict on {record['label']}, {record['scope']}: it {record['no_verdict_reason']}.")
    return 0


def subset_filter(text: str) -> tuple[str, list[str]]:
    """An argparse type: `COLUMN=V1,V2` -> (column, values); argparse exits 2 on anything else."""
    column, found, values = text.partition("=")
    chosen = [value.strip() for value in values.split(",") if value.strip()]
    if not found or not column.strip() or not chosen:
        raise argparse.ArgumentTypeError(f"expected COLUMN=V1,V2, got {text!r}")
    return column.strip(), chosen


def comparison_document(
    a_label: str, b_label: str, benchmark: str, dataset_revision: str | None, records: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """What --json prints: who A and B are, the benchmark and revision, the verdict rule, and every comparison."""
    return {"a": a_label, "b": b_label, "benchmark": benchmark, "dataset_revision": dataset_revision,
            "verdict_rule": RULE, "comparisons": list(records)}


def comparison_records(results: Sequence[FigureComparison]) -> list[dict[str, Any]]:
    """Each comparison as --json prints it, with its verdict: the p-values Holm-adjusted over all of `results`."""
    answers = verdicts([result.comparison for result in results],
                       [result.figure.higher_is_better for result in results])
    return [comparison_dict(result, answer) for result, answer in zip(results, answers)]


def comparison_dict(result: FigureComparison, answer: Verdict) -> dict[str, Any]:
    """One comparison and its verdict; a number that is not finite (no interval, no p-value) is null."""
    paired = result.comparison
    return {
        "figure": result.figure.name, "label": result.figure.label, "scope": result.scope,
        "unit": result.figure.difference_unit, "higher_is_better": result.figure.higher_is_better,
        "difference": _number(paired.difference.estimate), "ci_low": _number(paired.difference.low),
        "ci_high": _number(paired.difference.high), "level": paired.difference.level,
        "p_value": _number(paired.p_value), "adjusted_p_value": answer.adjusted_p, "family_size": answer.family_size,
        "verdict": answer.label, "no_verdict_reason": answer.reason,
        "wins": paired.wins, "ties": paired.ties, "losses": paired.losses,
        "n_items": paired.n_items, "n_clusters": paired.n_clusters, "test": paired.test,
    }


def headline_sentence(record: dict[str, Any]) -> str:
    """`A − B = −0.35 [−0.65, +0.01]: no significant difference (p = 0.09, Holm-adjusted over 12 rows)`."""
    head = f"{record['label']}: A − B = {signed(record['difference'])}"
    if record["no_verdict_reason"] is not None:
        return f"{head}: no verdict ({record['no_verdict_reason']})"
    return (f"{head} [{signed(record['ci_low'])}, {signed(record['ci_high'])}]: {record['verdict']} "
            f"(p = {record['adjusted_p_value']:.2g}, Holm-adjusted over {record['family_size']} rows)")


def signed(value: float | None) -> str:
    """A difference signed with three decimals (a minus sign, not a hyphen); "—" for none."""
    return "—" if value is None else f"{value:+.3f}".replace("-", "−")


def table_lines(records: Sequence[dict[str, Any]]) -> list[str]:
    """A fixed-width table: figure, scope, difference [95 % interval], p-values, verdict, wins/ties/losses, items."""
    rows = [("figure", "scope", "A - B", "95 % interval", "p", "Holm p", "verdict", "W/T/L", "items (clusters)")]
    for record in records:
        no_interval = record["ci_low"] is None
        rows.append((
            record["label"] + ("" if record["higher_is_better"] else " (lower is better)"),
            record["scope"],
            f"{record['difference']:+.3f}" if record["difference"] is not None else "—",
            "—" if no_interval else f"[{record['ci_low']:+.3f}, {record['ci_high']:+.3f}]",
            "—" if record["p_value"] is None else f"{record['p_value']:.4f}",
            "—" if record["adjusted_p_value"] is None else f"{record['adjusted_p_value']:.4f}",
            record["verdict"],
            f"{record['wins']}/{record['ties']}/{record['losses']}",
            f"{record['n_items']} ({record['n_clusters']})",
        ))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]


def _number(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None
