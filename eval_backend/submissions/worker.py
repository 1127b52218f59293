"""The worker: claim a queued request, run the pipeline on it, record how it ended.

`poll_once` is one claim-run-record cycle; the in-app scheduler and `python -m eval_backend
worker` both call it. A run that raises ends as FAILED with its error and never escapes
`poll_once`; a worker that dies mid-run leaves a stale heartbeat, and the next `poll_once`
anywhere puts the request back in the queue, to resume from its run folder. A run writes only
while its worker holds the request (`fence`): once cancelled or taken over, it stops at its next
write or progress report, and nothing of it is recorded or published.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from typing import Any, Callable, Collection, Mapping

from eval_backend.benchmarks.chat_mode import ChatMode, in_mode
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.coverage import Coverage, unfinished_reason
from eval_backend.dataset_loader import benchmark_dataset
from eval_backend.generation.options import GenerationOptions
from eval_backend.hub_sync import mirror_request, push_run
from eval_backend.pipeline import PhaseProgress, RunSpec, run_pipeline
from eval_backend.redaction import redact
from eval_backend.run_folder import RunFolder, RunFolderBusy
from eval_backend.settings import Settings
from eval_backend.submissions.fence import ClaimLost
from eval_backend.submissions.folder_wait import wait_for_folder
from eval_backend.submissions.gpu_layout import engine_overrides
from eval_backend.submissions.monitor import RunMonitor
from eval_backend.submissions.outage import patient
from eval_backend.submissions.queue_store import QueueRequest, QueueStore, Status, timestamp
from eval_backend.write_guard import guarded_writes

logger = logging.getLogger(__name__)

Runner = Callable[[QueueRequest, RunFolder, Settings, Callable[[PhaseProgress], None]], dict[str, Any]]
"""Runs one request into its run folder (its benchmark's tree), reporting progress; `run_request` is the real one."""


def new_worker_id() -> str:
    """Unique per worker: host, process and a random suffix (two schedulers in one process differ)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def generation_options(request: QueueRequest, settings: Settings) -> GenerationOptions:
    """The request's model, revision, dtype, reasoning flag and chat mode over the benchmark's sampling and its
    backend params."""
    benchmark = BENCHMARKS[request.benchmark]
    return GenerationOptions.for_benchmark(
        benchmark,
        request.model_id,
        **{
            "base_url": settings.generation.base_url,
            "api_key": settings.generation.api_key,
            "max_connection_failures": settings.generation.max_connection_failures,
            **request.backend_params,
            **engine_overrides(settings.parallel),  # this host's GPUs, whatever the request was queued with
            # A local folder's revision is our hash of it, not something a loader could check out.
            "revision": None if request.requested_revision == "local" else request.revision,
            "dtype": request.precision,
            "reasoning": request.reasoning,
            "chat": request.chat_mode == ChatMode.CHAT,
        },
    )


def run_request(
    request: QueueRequest, folder: RunFolder, settings: Settings, on_progress: Callable[[PhaseProgress], None]
) -> dict[str, Any]:
    """Run the full pipeline for a queued request (the default `Runner`).

    Judgments that failed for good are sent once more before the run is scored. The benchmark asks
    in the request's chat mode (recorded in request.json as `generation.chat`).
    """
    benchmark = in_mode(BENCHMARKS[request.benchmark], request.chat_mode)
    spec = RunSpec(benchmark, benchmark_dataset(benchmark, settings.data), folder, limit=settings.queue.run_limit)
    return run_pipeline(
        spec, _request_record(request), generation_options(request, settings), settings.judge, on_progress,
        retry_failed=True,
    )


def _request_record(request: QueueRequest) -> dict[str, Any]:
    """What request.json keeps of the queue row."""
    return {
        "model": request.model_id,
        "revision": request.revision,
        "requested_revision": request.requested_revision,
        "precision": request.precision,
        "reasoning": request.reasoning,
        "submitter": request.submitter,
        "submitted_at": request.submitted_at,
        "queue_request_id": request.id,
        "parameters": request.parameters,
        "license": request.license,
        "open_weights": request.open_weights,
    }


def requeue_stalled(store: QueueStore, settings: Settings) -> None:
    """Put requests whose worker stopped responding back in the queue (or fail them), logged and mirrored."""
    for changed in store.requeue_stale(settings.queue.stale_after_s, settings.queue.max_attempts):
        logger.warning("request #%d is now %s: %s", changed.id, changed.status, changed.error)
        store.append_log(changed.id, f"{timestamp()} {changed.status}: {changed.error}\n")
        mirror_request(changed, settings)


def fail_if_unreadable(store: QueueStore, request: QueueRequest, worker_id: str) -> bool:
    """Fail a claimed row that cannot be read (`QueueRequest.problem`), saying why; True if it was such a row.

    Such a row fails alone: it never reaches a runner or a Job, and never ends the worker.
    """
    if not request.problem:
        return False
    logger.warning("request #%d cannot be read: %s", request.id, request.problem)
    store.fail(request.id, worker_id, f"the queue row cannot be read: {request.problem}")
    return True


def poll_once(
    store: QueueStore, settings: Settings, *, worker_id: str, runner: Runner = run_request,
    passed_over: Collection[int] = (),
) -> QueueRequest | None:
    """Requeue stalled requests, then claim and run the oldest PENDING one; returns it as it ended, or None.

    A database outage on the way is waited out (`outage.patient`), never the end of the run or the worker.
    """
    queue = settings.queue
    store = patient(store, queue.reconnect_max_s)
    requeue_stalled(store, settings)
    request = store.claim(worker_id, passed_over=passed_over)
    if request is None:
        return None
    mirror_request(request, settings)
    if fail_if_unreadable(store, request, worker_id):
        return _mirrored(store.get(request.id), settings)
    folder = RunFolder.for_model(settings.data.benchmark_runs_dir(request.benchmark), request.model_id, request.revision)
    store.set_run_dir(request.id, worker_id, str(folder.path))
    with RunMonitor(store, request.id, worker_id, queue.heartbeat_interval_s, stale_after_s=queue.stale_after_s) as monitor:
        logger.info(
            "request #%d (attempt %d): running %s at %s into %s",
            request.id, request.attempts, request.model_id, request.revision, folder.path,
        )
        try:
            with guarded_writes(monitor.fence):  # a cancelled or taken-over request writes nothing more
                wait_for_folder(folder, queue.folder_wait_s, monitor.fence)  # a stalled previous holder's
                summary = runner(request, folder, settings, monitor.on_progress)
        except ClaimLost as exc:  # its state is the admin's or the new holder's to record, not ours
            logger.warning("request #%d stopped: %s", request.id, exc)
        except RunFolderBusy as exc:  # another process still writes the folder: not this attempt's failure
            logger.warning("request #%d: %s; requeued without using an attempt", request.id, exc)
            store.release_claim(request.id, worker_id, f"{exc}; requeued without using an attempt")
        except Exception as exc:  # any failure of one run is that run's outcome, never the worker's end
            logger.exception("request #%d failed", request.id)
            store.fail(request.id, worker_id, redact(f"{type(exc).__name__}: {exc}"))
        else:
            problem, publishable = run_outcome(summary, settings)
            if problem:
                logger.warning("request #%d not finished: %s", request.id, problem)
                store.fail(request.id, worker_id, problem)
            else:
                logger.info("request #%d finished -> %s", request.id, folder.summary_path)
                if store.finish(request.id, worker_id) and publishable:
                    push_run(folder, settings)
    return _mirrored(store.get(request.id), settings)


def _mirrored(request: QueueRequest, settings: Settings) -> QueueRequest:
    """The request, after pushing its row's copy to the requests repo (when one is set up)."""
    mirror_request(request, settings)
    return request


def run_outcome(summary: Mapping[str, Any], settings: Settings) -> tuple[str | None, bool]:
    """Why a run is not finished (None when it is), and whether it is complete, so published.

    Only a settled run is FINISHED, and only a complete one is published; the counts say what is
    missing. A limited run (a smoke deployment) is never complete.
    """
    coverage, run_pending = _coverage(summary)
    problem = unfinished_reason(coverage, run_pending, limited=settings.queue.run_limit is not None)
    return problem, problem is None and coverage.complete


def _coverage(summary: Mapping[str, Any]) -> tuple[Coverage, int]:
    """A run's coverage and how many of its own items are pending, from its summary."""
    return Coverage(**summary["coverage"]), summary["counts"]["pending_items"]


def worker_loop(
    store: QueueStore,
    settings: Settings,
    *,
    once: bool = False,
    stop: threading.Event | None = None,
    runner: Runner = run_request,
) -> int:
    """Poll until `stop` is set (or, with `once`, one poll); returns how many requests were run."""
    worker_id = new_worker_id()
    stop = stop or threading.Event()
    logger.info("worker %s polling %s every %gs", worker_id, store.location, settings.queue.poll_interval_s)
    handled = 0
    # Requests given back because another process held their folder: the rest of the queue goes first,
    # and they are tried again once nothing else is pending (a paused worker must not stall the queue).
    passed_over: set[int] = set()
    while not stop.is_set():
        ran = poll_once(store, settings, worker_id=worker_id, runner=runner, passed_over=passed_over)
        handled += ran is not None
        if once:
            break
        if ran is not None and ran.status is Status.PENDING:
            passed_over.add(ran.id)
        elif ran is None:
            passed_over.clear()
            stop.wait(settings.queue.poll_interval_s)
    return handled
