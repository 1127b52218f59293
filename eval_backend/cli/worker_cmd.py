"""`worker`: run queued requests without the web app, on any number of GPU hosts sharing one queue.

With WORKER_GPU_GROUPS (`--gpu-groups`) the command starts one worker process per GPU group,
each seeing only its group through CUDA_VISIBLE_DEVICES, and waits for them; otherwise it is
the one worker over every visible GPU. With WORKER_DISPATCH=hf-jobs it runs nothing itself: it
starts and follows a Hugging Face Job per request (docs/hf_jobs.md).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
from typing import Any

from eval_backend.settings import Settings
from eval_backend.submissions import open_queue
from eval_backend.submissions.gpu_layout import engine_overrides, group_environments, parse_gpu_groups
from eval_backend.submissions.job_dispatch import JobDispatcher
from eval_backend.submissions.worker import new_worker_id, worker_loop

logger = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("worker", help="claim and run queued requests until interrupted")
    parser.add_argument("--once", action="store_true", help="poll the queue once (running at most one request), then exit")
    parser.add_argument(
        "--gpu-groups", help="a worker process per GPU group, e.g. '0,1;2,3' (default WORKER_GPU_GROUPS, else one worker)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings()
    engine_overrides(settings.parallel)  # a layout that cannot work is refused before anything is claimed
    groups_text = args.gpu_groups or settings.parallel.gpu_groups
    if groups_text:
        return _supervise(parse_gpu_groups(groups_text), once=args.once)
    if settings.jobs.enabled:
        return _dispatch(settings, once=args.once)
    with open_queue(settings) as store:
        logger.info("worker on GPUs %s", os.environ.get("CUDA_VISIBLE_DEVICES", "(all visible)"))
        handled = worker_loop(store, settings, once=args.once)
    print(f"{handled} request(s) run", file=sys.stderr)
    return 0


def _dispatch(settings: Settings, *, once: bool) -> int:
    """WORKER_DISPATCH=hf-jobs: start and follow Hugging Face Jobs, a tick every poll, until interrupted."""
    with open_queue(settings) as store:
        dispatcher = JobDispatcher(store, settings, worker_id=new_worker_id())
        while True:
            dispatcher.tick()
            if once:
                return 0
            time.sleep(settings.queue.poll_interval_s)


def _supervise(groups: tuple[tuple[int, ...], ...], *, once: bool) -> int:
    """Start a worker per group and wait for all; SIGTERM / SIGINT are passed on to them."""
    command = [sys.executable, "-m", "eval_backend", "worker", *(["--once"] if once else [])]
    children = [subprocess.Popen(command, env=env) for env in group_environments(groups, os.environ)]
    for child, group in zip(children, groups):
        logger.info("worker process %d on GPUs %s", child.pid, ",".join(map(str, group)))

    def forward(signum: int, _: Any) -> None:
        for child in children:
            if child.poll() is None:
                child.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        codes = [child.wait() for child in children]
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    failed = [(group, code) for group, code in zip(groups, codes) if code != 0]
    for group, code in failed:
        logger.error("the worker on GPUs %s exited with status %d", ",".join(map(str, group)), code)
    return 1 if failed else 0
