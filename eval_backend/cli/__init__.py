"""`python -m eval_backend …`: every engine operation, runnable without the web app."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Sequence

from eval_backend.cli import estimate_cmd, generate_cmd, hub_cmd, judge_cmd, queue_cmd, run_cmd, score_cmd, worker_cmd
from eval_backend.cli import qa_score_cmd
from eval_backend.cli import consistency_cmd
from eval_backend.cli import migrate_cmd
from eval_backend.cli import compare_cmd
from eval_backend.cli.errors import USER_ERRORS
from eval_backend.jsonl import StorageWriteError
from eval_backend.redaction import install_log_redaction, redact, secrets_of
from eval_backend.settings import Settings

COMMANDS = (judge_cmd, score_cmd, estimate_cmd, generate_cmd, run_cmd, queue_cmd, worker_cmd, hub_cmd, qa_score_cmd, consistency_cmd,
            migrate_cmd, compare_cmd)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m eval_backend", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log at debug level")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one CLI command; returns the process exit status (2 for bad input)."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        # Keys and credentials in URLs never reach the log; the HTTP clients' per-request lines are off.
        install_log_redaction(secrets_of(Settings()))
        return args.func(args) or 0
    except USER_ERRORS as exc:
        print(f"error: {redact(str(exc))}", file=sys.stderr)
        return 2
    except StorageWriteError as exc:
        print(f"error: {exc.strerror}; finished work is saved: fix this and run the same command again", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: finished work is saved; run the same command again to resume", file=sys.stderr)
        return 130
