"""`worker`: run queued requests without the web app (a GPU machine sharing the data folder)."""

from __future__ import annotations

import argparse
import sys

from eval_backend.settings import Settings
from eval_backend.submissions import open_queue
from eval_backend.submissions.worker import worker_loop


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("worker", help="claim and run queued requests until interrupted")
    parser.add_argument("--once", action="store_true", help="poll the queue once (running at most one request), then exit")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings()
    handled = worker_loop(open_queue(settings), settings, once=args.once)
    print(f"{handled} request(s) run", file=sys.stderr)
    return 0
