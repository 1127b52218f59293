"""`queue`: the admin's view of the submission queue: list, show, retry, cancel, submit."""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from dataclasses import asdict
from typing import Callable

from eval_backend.benchmarks.chat_mode import AUTO, ChatMode
from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK
from eval_backend.cli.common import request_id
from eval_backend.hub_sync import mirror_request
from eval_backend.settings import Settings
from eval_backend.submissions import QueueRequest, QueueStore, Status, SubmissionForm, open_queue
from eval_backend.submissions.service import queue_submission
from eval_backend.submissions.validation import PRECISIONS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("queue", help="list, inspect, retry, cancel or add queue requests")
    actions = parser.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="every request, oldest first")
    listing.add_argument("--status", choices=[status.value for status in Status], help="only requests with this status")
    listing.set_defaults(func=_list)
    for name, func, text in (
        ("show", _show, "every field of one request, with its error and log tail"),
        ("retry", _retry, "put a FAILED or CANCELLED request back in the queue (it resumes its run folder)"),
        ("cancel", _cancel, "cancel a PENDING or RUNNING request"),
    ):
        action = actions.add_parser(name, help=text)
        action.add_argument("id", type=request_id, help="request id")
        action.set_defaults(func=func)
    adding = actions.add_parser("submit", help="validate and queue a model, as the submit form does")
    adding.add_argument("model", help="Hub model id org/name (or a local folder where ALLOW_LOCAL_MODELS is on)")
    adding.add_argument("--revision", default="main", help="branch, tag or commit (default main)")
    adding.add_argument("--precision", default="bfloat16", choices=PRECISIONS, help="weights dtype (default bfloat16)")
    adding.add_argument("--reasoning", action="store_true", help="the model thinks before answering")
    adding.add_argument("--user", help="submitter the per-user limit counts against (default: your login name)")
    adding.add_argument(
        "--benchmark", action="append", dest="benchmarks", metavar="NAME",
        help=f"a benchmark to evaluate on, one request each; repeat for several (default {DEFAULT_BENCHMARK})",
    )
    mode = adding.add_mutually_exclusive_group()
    mode.add_argument("--chat", dest="chat_mode", action="store_const", const=ChatMode.CHAT.value, default=AUTO,
                      help="benchmarks that offer the choice (saraiki) ask in the model's chat template "
                           "(default: chat when the model has one, else raw)")
    mode.add_argument("--no-chat", dest="chat_mode", action="store_const", const=ChatMode.RAW.value,
                      help="benchmarks that offer the choice (saraiki) send raw prompts (base models)")
    adding.set_defaults(func=_submit)


def _list(args: argparse.Namespace) -> int:
    with open_queue(Settings()) as store:
        requests = store.list_requests(Status(args.status) if args.status else None)
    print(
        f"{'id':>5}  {'status':<9}  {'phase':<10}  {'progress':>11}  {'submitted':<29}  {'submitter':<16}  "
        f"{'benchmark':<20}  {'mode':<4}  model@revision"
    )
    for request in requests:
        print(_row(request))
    return 0


def _row(request: QueueRequest) -> str:
    progress = f"{request.progress_done}/{request.progress_total}" if request.phase else ""
    return (
        f"{request.id:>5}  {request.status:<9}  {request.phase or '':<10}  {progress:>11}  "
        f"{request.submitted_at:<29}  {request.submitter:<16}  {request.benchmark:<20}  {request.chat_mode:<4}  "
        f"{request.model_id}@{request.revision[:12]}"
    ) + (f"  (cannot be read: {request.problem})" if request.problem else "")


def _show(args: argparse.Namespace) -> int:
    with open_queue(Settings()) as store:
        request = store.get(args.id)
    fields = {key: value for key, value in asdict(request).items() if key != "log_tail"}
    print(json.dumps(fields, indent=2, ensure_ascii=False, default=str))
    print("--- log tail ---")
    print(request.log_tail or "(empty)")
    return 0


def _retry(args: argparse.Namespace) -> int:
    return _change(args.id, QueueStore.retry)


def _cancel(args: argparse.Namespace) -> int:
    return _change(args.id, QueueStore.cancel)


def _change(request_id: int, change: Callable[[QueueStore, int], QueueRequest]) -> int:
    """Apply an admin change to one request, mirror the row to the Hub (when set up) and show it."""
    settings = Settings()
    with open_queue(settings) as store:
        request = change(store, request_id)
    mirror_request(request, settings)
    print(_row(request))
    return 0


def _submit(args: argparse.Namespace) -> int:
    settings = Settings()
    form = SubmissionForm(args.model, args.revision, args.precision, args.reasoning,
                          tuple(args.benchmarks or (DEFAULT_BENCHMARK,)), args.chat_mode)
    with open_queue(settings) as store:
        submitted = queue_submission(form, args.user or getpass.getuser(), store=store, settings=settings)
    for request in submitted.requests:
        print(_row(request))
    for reason in submitted.left_out:
        print(f"left out: {reason}", file=sys.stderr)
    return 0
