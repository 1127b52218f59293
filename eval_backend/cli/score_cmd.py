"""`score`: recompute summary.json and details.parquet from a run folder's judgments."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval_backend.cli.common import add_benchmark_argument, benchmark_of
from eval_backend.reporting import score_run_folder
from eval_backend.run_folder import RunFolder


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("score", help="recompute the summary of a run folder")
    add_benchmark_argument(parser)
    parser.add_argument("--out-dir", required=True, type=Path, help="the run folder")
    parser.add_argument("--judge-model", help="score this judge's judgments (default: the latest judge in the folder)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    summary = score_run_folder(benchmark_of(args), RunFolder(args.out_dir), args.judge_model)
    overall = "n/a" if summary.overall is None else f"{summary.overall:.3f}"
    print(f"overall {overall} over {summary.counts.scored_items}/{summary.counts.items} items", file=sys.stderr)
    return 0
