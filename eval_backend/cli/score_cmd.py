"""`score`: recompute summary.json and details.parquet from a run folder's judgments."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval_backend.cli.common import add_benchmark_argument, benchmark_of, scored_run_report
from eval_backend.pipeline import score_folder
from eval_backend.run_folder import RunFolder, RunFolderError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("score", help="recompute the summary of a run folder")
    add_benchmark_argument(parser)
    parser.add_argument("--out-dir", required=True, type=Path, help="the run folder")
    parser.add_argument("--judge-model", help="score this judge's judgments (default: the latest judge in the folder)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    folder = RunFolder(args.out_dir)
    if not folder.items_path.is_file():
        raise RunFolderError(f"{folder.path}: not a run folder (no items.jsonl)")
    benchmark = benchmark_of(args)
    with folder.lock():
        summary = score_folder(benchmark, folder, args.judge_model)
    line, _ = scored_run_report(benchmark, summary)  # scoring alone never fails for a judgment's sake
    print(line, file=sys.stderr)
    return 0
