"""What a worker records about a running request while the pipeline works: heartbeat, progress, log tail.

A background thread sends the heartbeat every few seconds, so the queue can tell a slow run
from a dead worker, and writes the run's new log lines to the request's log tail at the same
time. Each heartbeat also renews or drops the run's `ClaimFence`: a cancelled or taken-over
request stops at its next write, within a beat. Progress reports are written when the phase changes, when a phase completes, and at
most once per beat in between, so a judge finishing hundreds of calls a second does not
turn into hundreds of database writes.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from eval_backend.pipeline import PhaseProgress
from eval_backend.redaction import redact
from eval_backend.submissions.fence import ClaimFence
from eval_backend.submissions.queue_store import Phase, QueueStore

logger = logging.getLogger(__name__)

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_ENGINE_LOGGER = logging.getLogger("eval_backend")


class _ThreadLogBuffer(logging.Handler):
    """Collects the formatted log records of one thread (the one running the pipeline)."""

    def __init__(self, thread_id: int) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(logging.Formatter(LOG_FORMAT))
        self._thread_id = thread_id
        self._lines: list[str] = []
        self._lock_lines = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self._thread_id:
            return
        line = self.format(record) + "\n"
        with self._lock_lines:
            self._lines.append(line)

    def take(self) -> str:
        with self._lock_lines:
            text, self._lines = "".join(self._lines), []
        return text


class RunMonitor:
    """Heartbeat, progress and log tail of one claimed request; use as a context manager around the run."""

    def __init__(
        self, store: QueueStore, request_id: int, worker_id: str, interval_s: float, *, stale_after_s: float = 300.0
    ) -> None:
        self._store = store
        self.fence = ClaimFence(store, request_id, worker_id, lease_s=stale_after_s / 2)
        """The run's write guard, renewed by each heartbeat."""
        self._request_id = request_id
        self._worker_id = worker_id
        self._interval_s = interval_s
        self._stop = threading.Event()
        self._logs = _ThreadLogBuffer(threading.get_ident())
        self._thread = threading.Thread(target=self._beat, name=f"heartbeat-{request_id}", daemon=True)
        self._last_phase: str | None = None
        self._last_write = 0.0
        self._pending: PhaseProgress | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> RunMonitor:
        logging.getLogger().addHandler(self._logs)
        # The log tail is the admin's view of a run: the engine's INFO lines belong in it even
        # when the host process logs only warnings.
        self._engine_level = _ENGINE_LOGGER.level
        if _ENGINE_LOGGER.getEffectiveLevel() > logging.INFO:
            _ENGINE_LOGGER.setLevel(logging.INFO)
        self._thread.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._stop.set()
        self._thread.join()
        _ENGINE_LOGGER.setLevel(self._engine_level)
        logging.getLogger().removeHandler(self._logs)
        self._flush()

    def on_progress(self, progress: PhaseProgress) -> None:
        """The pipeline's progress callback; raises ClaimLost once the request is no longer this worker's."""
        self.fence()
        now = time.monotonic()
        with self._lock:
            due = (
                progress.phase != self._last_phase
                or progress.done >= progress.total
                or now - self._last_write >= self._interval_s
            )
            self._pending = None if due else progress
            if due:
                self._last_phase, self._last_write = progress.phase, now
        if due:
            self._write_progress(progress)

    def _write_progress(self, progress: PhaseProgress) -> None:
        self._store.update_progress(
            self._request_id, self._worker_id, Phase(progress.phase), progress.done, progress.total
        )

    def _beat(self) -> None:
        while not self._stop.wait(self._interval_s):
            try:
                was_lost = self.fence.lost
                self.fence.report(self._store.heartbeat(self._request_id, self._worker_id))
                if self.fence.lost and not was_lost:
                    logger.warning(
                        "request #%d is no longer held by this worker (cancelled, or taken over after a stall); "
                        "the run stops before its next write and its outcome is not recorded", self._request_id,
                    )
                self._flush()
            except self._store.database_errors:  # a database busy or away must not kill the heartbeat thread
                logger.exception("request #%d: could not record the heartbeat", self._request_id)

    def _flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            self._write_progress(pending)
        # Log records are redacted where made once `install_log_redaction` ran; this covers a host that never ran it.
        self._store.append_log(self._request_id, redact(self._logs.take()))
