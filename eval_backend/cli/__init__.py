"""`python -m eval_backend …`: every engine operation, runnable without the web app."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from typing import Sequence

from eval_backend.cli.errors import user_errors
from eval_backend.jsonl import StorageWriteError
from eval_backend.redaction import install_log_redaction, redact, secrets_of
from eval_backend.settings import load_settings

COMMANDS: dict[str, str] = {
    "judge": "judge_cmd", "score": "score_cmd", "estimate": "estimate_cmd", "generate": "generate_cmd",
    "run": "run_cmd", "queue": "queue_cmd", "worker": "worker_cmd", "hub": "hub_cmd", "qa-score": "qa_score_cmd",
    "consistency": "consistency_cmd", "migrate-runs": "migrate_cmd", "compare": "compare_cmd", "style": "style_cmd",
    "job-run": "job_run_cmd",
}
"""Each command and the module under `eval_backend.cli` that registers and runs it."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The CLI's parser. Given a known `command`, only its module is imported: a command's
    start-up then costs what it uses (`qa-score` needs neither torch, datasets nor the judge's
    HTTP stack unless asked to judge); otherwise every command is registered, for `--help`."""
    parser = argparse.ArgumentParser(prog="python -m eval_backend", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log at debug level")
    subparsers = parser.add_subparsers(dest="command", required=True)
    modules = [COMMANDS[command]] if command in COMMANDS else list(COMMANDS.values())
    for module in modules:
        importlib.import_module(f"eval_backend.cli.{module}").register(subparsers)
    return parser


def command_of(argv: Sequence[str]) -> str | None:
    """The command named on a command line (the first word that is not an option: the CLI's
    own options take no value), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one CLI command; returns the process exit status (2 for bad input)."""
    words = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(command_of(words)).parse_args(words)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        # Keys and credentials in URLs never reach the log; the HTTP clients' per-request lines are off.
        install_log_redaction(secrets_of(load_settings()))  # every setting checked first, one line if bad
        return args.func(args) or 0
    except StorageWriteError as exc:
        print(f"error: {exc.strerror}; finished work is saved: fix this and run the same command again", file=sys.stderr)
        return 1
    except Exception as exc:
        if not isinstance(exc, user_errors()):
            raise
        print(f"error: {redact(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: finished work is saved; run the same command again to resume", file=sys.stderr)
        return 130
