"""`hub push|pull|sync|restore-queue`: mirror run folders and the queue to Hub dataset repos by hand.

The same functions the worker and the app call; they read HF_TOKEN, RESULTS_REPO, REQUESTS_REPO
and HF_ENDPOINT from the environment.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval_backend.hub_sync import (
    HUB_ERRORS,
    PullReport,
    describe,
    pull_results,
    push_run,
    restore_queue_if_missing,
    sync_once,
)
from eval_backend.run_folder import RunFolder
from eval_backend.run_layout import iter_all_run_folders
from eval_backend.settings import Settings


class HubNotConfigured(ValueError):
    """The command needs HF_TOKEN and a repo name that are not set."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("hub", help="mirror results and the queue to Hub dataset repos")
    actions = parser.add_subparsers(dest="hub_action", required=True)
    push = actions.add_parser("push", help="push finished run folders to RESULTS_REPO (one commit each)")
    push.add_argument("run_dirs", nargs="*", type=Path, help="run folders (default: every finished one under DATA_DIR/runs)")
    push.set_defaults(func=run_push)
    actions.add_parser("pull", help="bring new results from RESULTS_REPO into DATA_DIR/runs").set_defaults(func=run_pull)
    actions.add_parser("sync", help="retry pending pushes, mirror the queue, pull results").set_defaults(func=run_sync)
    actions.add_parser(
        "restore-queue", help="rebuild a missing or empty queue from REQUESTS_REPO"
    ).set_defaults(func=run_restore)


def _settings(*, results: bool = False, requests: bool = False) -> Settings:
    settings = Settings()
    hub = settings.hub
    if not hub.enabled or (results and not hub.results_enabled) or (requests and not hub.requests_enabled):
        needed = "RESULTS_REPO" if results else "REQUESTS_REPO" if requests else "RESULTS_REPO or REQUESTS_REPO"
        raise HubNotConfigured(f"set HF_TOKEN and {needed} to use the Hub mirror")
    return settings


def run_push(args: argparse.Namespace) -> int:
    settings = _settings(results=True)
    folders = [RunFolder(path) for path in args.run_dirs] or [
        folder for _, folder in iter_all_run_folders(settings.data.runs_dir)
    ]
    failed = [folder.path for folder in folders if not push_run(folder, settings)]
    print(f"pushed {len(folders) - len(failed)} of {len(folders)} run folders", file=sys.stderr)
    for path in failed:
        print(f"not pushed (queued for the next sync): {path}", file=sys.stderr)
    return 1 if failed else 0


def run_pull(args: argparse.Namespace) -> int:
    settings = _settings(results=True)
    try:
        report = pull_results(settings)
    except HUB_ERRORS as exc:
        print(f"error: cannot pull from {settings.hub.results_repo}: {describe(exc)}", file=sys.stderr)
        return 1
    print(f"pulled {len(report.pulled)} run folders; kept {len(report.kept_local)} with local work", file=sys.stderr)
    _print_refused(report)
    return 0


def _print_refused(report: PullReport) -> None:
    for refused in report.refused:
        print(f"refused {refused}", file=sys.stderr)


def run_sync(args: argparse.Namespace) -> int:
    report = sync_once(_settings())
    print(
        f"pushed {len(report.pushed)}, still pending {len(report.still_pending)}, "
        f"queue rows mirrored {report.requests_mirrored}, pulled {len(report.pull.pulled)}",
        file=sys.stderr,
    )
    _print_refused(report.pull)
    for error in report.errors:
        print(f"error: {error}", file=sys.stderr)
    return 1 if report.errors or report.still_pending else 0


def run_restore(args: argparse.Namespace) -> int:
    settings = _settings(requests=True)
    try:
        restored = restore_queue_if_missing(settings)
    except HUB_ERRORS as exc:
        print(f"error: cannot read {settings.hub.requests_repo}: {describe(exc)}", file=sys.stderr)
        return 1
    print(f"restored {restored} queue requests", file=sys.stderr)
    return 0
