"""`migrate-runs`: move run folders of the one-benchmark layout into one tree per benchmark."""

from __future__ import annotations

import argparse
import sys

from eval_backend.run_layout import migrate_legacy_runs
from eval_backend.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "migrate-runs",
        help="move DATA_DIR/runs/<org>__<name>/<revision>/ into DATA_DIR/runs/indic_writing_bench/ (idempotent)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    runs_dir = Settings().data.runs_dir
    report = migrate_legacy_runs(runs_dir)
    for run_id in report.conflicts:
        print(f"left in place: {run_id} (the new tree already has it)", file=sys.stderr)
    print(f"moved {len(report.moved)} run folders in {runs_dir}", file=sys.stderr)
    return 1 if report.conflicts else 0
