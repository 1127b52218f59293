"""The in-app worker: an APScheduler background job that calls `poll_once` every few seconds.

One request at a time (`max_instances=1`), and missed ticks collapse into one (`coalesce`).
`WORKER_ENABLED=false` leaves it off, for a UI-only Space whose runs happen on a GPU
machine with `python -m eval_backend worker` over the same data folder.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any

from apscheduler.schedulers.background import BackgroundScheduler

from eval_backend.hub_sync import sync_once
from eval_backend.settings import Settings
from eval_backend.submissions.job_dispatch import JobDispatcher
from eval_backend.submissions.queue_store import QueueStore, open_queue
from eval_backend.submissions.worker import new_worker_id, poll_once

logger = logging.getLogger(__name__)

JOB_ID = "queue-worker"
HUB_SYNC_JOB_ID = "hub-sync"


class _SkipWhileRunning(logging.Filter):
    """While a run takes hours, every tick is skipped by design: not worth a warning each time."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "maximum number of running instances reached" not in record.getMessage()


def start_scheduler(settings: Settings, store: QueueStore | None = None) -> BackgroundScheduler | None:
    """Start the background jobs: the worker (unless WORKER_ENABLED is false) and, when the Hub
    mirror is configured, its sync. Returns None when neither is on."""
    if not settings.queue.worker_enabled:
        logger.info("in-app worker is off (WORKER_ENABLED=false): queued requests wait for an external worker")
    if not (settings.queue.worker_enabled or settings.hub.enabled):
        return None
    scheduler_logger = logging.getLogger(f"{__name__}.apscheduler")
    scheduler_logger.addFilter(_SkipWhileRunning())
    scheduler = BackgroundScheduler(daemon=True, logger=scheduler_logger, timezone=timezone.utc)
    if settings.queue.worker_enabled:
        _add_worker_job(scheduler, store or open_queue(settings), settings)
    if settings.hub.enabled:
        _add_job(scheduler, HUB_SYNC_JOB_ID, sync_once, settings.hub.sync_interval_s, args=[settings])
        logger.info("Hub sync every %gs", settings.hub.sync_interval_s)
    scheduler.start()
    return scheduler


def _add_worker_job(scheduler: BackgroundScheduler, store: QueueStore, settings: Settings) -> None:
    worker_id = new_worker_id()
    if settings.jobs.enabled:  # each request runs as a Hugging Face Job; this process only follows them
        dispatcher = JobDispatcher(store, settings, worker_id=worker_id)
        _add_job(scheduler, JOB_ID, dispatcher.tick, settings.queue.poll_interval_s)
        logger.info("dispatching requests as Hugging Face Jobs, at most %d at once", settings.jobs.max_concurrent)
    else:
        _add_job(scheduler, JOB_ID, poll_once, settings.queue.poll_interval_s, args=[store, settings],
                 kwargs={"worker_id": worker_id})
    logger.info("in-app worker %s polls %s every %gs", worker_id, store.location, settings.queue.poll_interval_s)


def _add_job(scheduler: BackgroundScheduler, job_id: str, func: Any, every_s: float, **call: Any) -> None:
    """A job that runs now, then every `every_s`; never two at once, missed ticks collapsed."""
    scheduler.add_job(
        func, "interval", seconds=every_s, id=job_id, max_instances=1, coalesce=True,
        next_run_time=datetime.now(timezone.utc), **call,
    )
