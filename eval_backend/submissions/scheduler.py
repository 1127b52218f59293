"""The in-app worker: an APScheduler background job that calls `poll_once` every few seconds.

One request at a time (`max_instances=1`), and missed ticks collapse into one (`coalesce`).
`WORKER_ENABLED=false` leaves it off, for a UI-only Space whose runs happen on a GPU
machine with `python -m eval_backend worker` over the same data folder.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone

from apscheduler.schedulers.background import BackgroundScheduler

from eval_backend.settings import Settings
from eval_backend.submissions.queue_store import QueueStore
from eval_backend.submissions.service import open_queue
from eval_backend.submissions.worker import new_worker_id, poll_once

logger = logging.getLogger(__name__)

JOB_ID = "queue-worker"


class _SkipWhileRunning(logging.Filter):
    """While a run takes hours, every tick is skipped by design: not worth a warning each time."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "maximum number of running instances reached" not in record.getMessage()


def start_scheduler(settings: Settings, store: QueueStore | None = None) -> BackgroundScheduler | None:
    """Start the background worker job, or return None when WORKER_ENABLED is false; shut it down at exit."""
    if not settings.queue.worker_enabled:
        logger.info("in-app worker is off (WORKER_ENABLED=false): queued requests wait for an external worker")
        return None
    store = store or open_queue(settings)
    scheduler_logger = logging.getLogger(f"{__name__}.apscheduler")
    scheduler_logger.addFilter(_SkipWhileRunning())
    scheduler = BackgroundScheduler(daemon=True, logger=scheduler_logger, timezone=timezone.utc)
    worker_id = new_worker_id()
    scheduler.add_job(
        poll_once,
        "interval",
        seconds=settings.queue.poll_interval_s,
        args=[store, settings],
        kwargs={"worker_id": worker_id},
        id=JOB_ID,
        max_instances=1,
        coalesce=True,
        next_run_time=datetime.now(timezone.utc),
    )
    scheduler.start()
    logger.info("in-app worker %s polls %s every %gs", worker_id, store.path, settings.queue.poll_interval_s)
    return scheduler
