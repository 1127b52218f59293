"""`job-run`: what a Hugging Face Job started by the Space runs (WORKER_DISPATCH=hf-jobs; docs/hf_jobs.md).

Runs exactly one queued request, given as its row, pushes the run folder to the results repo, and
prints its progress and outcome as marked log lines for the Space to read. Exit status 0 only when
the run was pushed.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys

from eval_backend.hub_sync.requests_mirror import request_from_document
from eval_backend.settings import Settings
from eval_backend.submissions.job_progress import outcome_line
from eval_backend.submissions.job_run import run_in_job


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("job-run", help="(inside a Hugging Face Job) run one queued request and push it")
    parser.add_argument("--request", required=True, type=_request_row, help="the queue row, as JSON")
    parser.add_argument("--flavor", required=True, help="the Job's hardware flavor, recorded with its cost")
    parser.add_argument("--price-per-hour", type=float, help="USD per hour of the flavor, recorded with its cost")
    parser.set_defaults(func=run)


def _request_row(text: str) -> object:
    try:
        return request_from_document(json.loads(text), "--request")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    # The Hub stops a cancelled or timed-out Job with SIGTERM: as an exception, it lets the run's
    # last checkpoint be written on the way out.
    signal.signal(signal.SIGTERM, _terminated)
    outcome = run_in_job(
        args.request, Settings(), flavor=args.flavor, hourly_usd=args.price_per_hour,
        emit=lambda line: print(line, flush=True),
    )
    print(outcome_line(outcome), flush=True)
    if not outcome.pushed:
        print(f"error: request #{args.request.id} was not pushed: {outcome.problem}", file=sys.stderr)
    return 0 if outcome.pushed else 1


def _terminated(signum: int, _: object) -> None:
    raise SystemExit(128 + signum)
