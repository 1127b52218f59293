"""The submission queue: one SQLite row per request, claimed atomically by workers.

Plain SQL (no ORM, no SQLite-only types beyond `RETURNING`), so a server database could
replace the file later. Every operation opens its own connection, so the store can be
shared by threads and processes; WAL mode lets readers (the web app) run while a worker
writes, and the busy timeout makes concurrent writers wait for each other instead of failing.

    PENDING -> RUNNING -> FINISHED | FAILED        an admin may CANCEL a PENDING or RUNNING one
    RUNNING with a stale heartbeat -> PENDING (resumed from its run folder), or FAILED
    once its attempts are used up
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta, timezone
from enum import StrEnum
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from eval_backend.settings import Settings

LOG_TAIL_CHARS = 8000
_SCHEMA_VERSION = 1


class Status(StrEnum):
    PENDING = "PENDING"
    RUNNING = "RUNNING"
    FINISHED = "FINISHED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


class Phase(StrEnum):
    GENERATING = "generating"
    JUDGING = "judging"
    SCORING = "scoring"


ACTIVE = (Status.PENDING, Status.RUNNING, Status.FINISHED)
"""Statuses that make a second request for the same model revision a duplicate."""


def _sql_list(values: Any) -> str:
    return ", ".join(f"'{value}'" for value in values)


_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    model_id TEXT NOT NULL,
    revision TEXT NOT NULL,
    requested_revision TEXT NOT NULL,
    precision TEXT NOT NULL,
    reasoning INTEGER NOT NULL DEFAULT 0,
    backend_params TEXT NOT NULL DEFAULT '{{}}',
    submitter TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ({_sql_list(Status)})),
    phase TEXT CHECK (phase IS NULL OR phase IN ({_sql_list(Phase)})),
    progress_done INTEGER NOT NULL DEFAULT 0,
    progress_total INTEGER NOT NULL DEFAULT 0,
    worker_id TEXT,
    started_at TEXT,
    finished_at TEXT,
    heartbeat_at TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    log_tail TEXT NOT NULL DEFAULT '',
    run_dir TEXT,
    parameters INTEGER
);
CREATE INDEX IF NOT EXISTS requests_by_status ON requests (status, submitted_at, id);
CREATE INDEX IF NOT EXISTS requests_by_model ON requests (model_id, revision);
CREATE INDEX IF NOT EXISTS requests_by_submitter ON requests (submitter, submitted_at);
"""

# A worker may only write to a request it still holds: one an admin cancelled, or one that
# was requeued and taken by another worker after this one stalled, is no longer its own.
_HELD = f"id = ? AND status = '{Status.RUNNING}' AND worker_id = ?"


class QueueError(ValueError):
    """An admin operation that the request's state does not allow; the message says why."""


class RequestNotFound(QueueError):
    """No request has this id."""


class DuplicateRequest(QueueError):
    """The model revision is already queued, running or evaluated; `existing` is that request."""

    def __init__(self, existing: QueueRequest | None) -> None:
        super().__init__(f"already in the queue as request {existing.id if existing else '?'}")
        self.existing = existing


@dataclass(frozen=True)
class NewRequest:
    """What a validated submission puts in the queue."""

    model_id: str
    revision: str
    requested_revision: str
    precision: str
    reasoning: bool
    submitter: str
    backend_params: Mapping[str, Any] = field(default_factory=dict)
    parameters: int | None = None
    """The model's parameter count as its safetensors metadata gives it (None for unknown)."""


@dataclass(frozen=True)
class QueueRequest:
    """One row of the queue, as read."""

    id: int
    model_id: str
    revision: str
    requested_revision: str
    precision: str
    reasoning: bool
    backend_params: Mapping[str, Any]
    submitter: str
    submitted_at: str
    status: Status
    phase: Phase | None
    progress_done: int
    progress_total: int
    worker_id: str | None
    started_at: str | None
    finished_at: str | None
    heartbeat_at: str | None
    attempts: int
    error: str | None
    log_tail: str
    run_dir: str | None
    parameters: int | None = None


def _row_to_request(row: sqlite3.Row) -> QueueRequest:
    data = dict(row)
    data["reasoning"] = bool(data["reasoning"])
    data["backend_params"] = json.loads(data["backend_params"])
    data["status"] = Status(data["status"])
    data["phase"] = Phase(data["phase"]) if data["phase"] else None
    return QueueRequest(**data)


def timestamp(moment: datetime | None = None) -> str:
    """ISO-8601 UTC with milliseconds: one fixed width, so the strings sort and compare as times.

    Finer than `records.utc_now` because heartbeats are compared at the scale of seconds.
    """
    return (moment or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="milliseconds")


def _ago(seconds: float) -> str:
    return timestamp(datetime.now(timezone.utc) - timedelta(seconds=seconds))


class QueueStore:
    """The queue in one SQLite file; safe to share between threads and processes."""

    def __init__(self, path: Path, *, busy_timeout_s: float = 30.0) -> None:
        if sqlite3.sqlite_version_info < (3, 35):
            raise RuntimeError(f"the queue needs SQLite 3.35+ (for RETURNING); this Python has {sqlite3.sqlite_version}")
        self.path = Path(path)
        self._busy_timeout_s = busy_timeout_s
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            if conn.execute("PRAGMA user_version").fetchone()[0] < _SCHEMA_VERSION:
                conn.executescript(_SCHEMA)
                conn.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # Autocommit: each statement is its own transaction unless a block opens one.
        conn = sqlite3.connect(self.path, timeout=self._busy_timeout_s, isolation_level=None)
        conn.row_factory = sqlite3.Row
        with closing(conn):
            yield conn

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _one(self, sql: str, params: tuple[Any, ...]) -> QueueRequest | None:
        with self._connect() as conn:
            row = conn.execute(sql, params).fetchone()
        return _row_to_request(row) if row else None

    def _many(self, sql: str, params: tuple[Any, ...] = ()) -> list[QueueRequest]:
        with self._connect() as conn:
            return [_row_to_request(row) for row in conn.execute(sql, params).fetchall()]

    # -- submitting and reading -------------------------------------------------------------

    def add(self, request: NewRequest) -> QueueRequest:
        """Append a PENDING request and return its row.

        Raises DuplicateRequest when the same model revision is already PENDING, RUNNING or
        FINISHED; the check and the insert are one statement, so two submitters cannot race.
        """
        added = self._one(
            "INSERT INTO requests (model_id, revision, requested_revision, precision, reasoning,"
            " backend_params, submitter, submitted_at, parameters) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?"
            f" WHERE NOT EXISTS (SELECT 1 FROM requests WHERE model_id = ? AND revision = ?"
            f" AND status IN ({_sql_list(ACTIVE)})) RETURNING *",
            (
                request.model_id,
                request.revision,
                request.requested_revision,
                request.precision,
                int(request.reasoning),
                json.dumps(dict(request.backend_params), sort_keys=True),
                request.submitter,
                timestamp(),
                request.parameters,
                request.model_id,
                request.revision,
            ),
        )
        if added is None:
            raise DuplicateRequest(self.active_duplicate(request.model_id, request.revision))
        return added

    def active_duplicate(self, model_id: str, revision: str) -> QueueRequest | None:
        """The request that makes a new one for this model revision a duplicate, if any."""
        return next((r for r in self.find(model_id, revision) if r.status in ACTIVE), None)

    def get(self, request_id: int) -> QueueRequest:
        """The request with this id; RequestNotFound if there is none."""
        found = self._one("SELECT * FROM requests WHERE id = ?", (request_id,))
        if found is None:
            raise RequestNotFound(f"no queue request with id {request_id}")
        return found

    def list_requests(self, status: Status | None = None) -> list[QueueRequest]:
        """Requests in queue order (oldest first), optionally only those with one status."""
        if status is None:
            return self._many("SELECT * FROM requests ORDER BY submitted_at, id")
        return self._many("SELECT * FROM requests WHERE status = ? ORDER BY submitted_at, id", (Status(status),))

    def find(self, model_id: str, revision: str) -> list[QueueRequest]:
        """Every request for this model at this revision, oldest first (for duplicate checks)."""
        return self._many(
            "SELECT * FROM requests WHERE model_id = ? AND revision = ? ORDER BY submitted_at, id", (model_id, revision)
        )

    def submission_times(self, submitter: str, since: datetime) -> list[str]:
        """When `submitter` submitted since `since`, oldest first (for the per-user limit)."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT submitted_at FROM requests WHERE submitter = ? AND submitted_at >= ? ORDER BY submitted_at",
                (submitter, timestamp(since)),
            ).fetchall()
        return [row[0] for row in rows]

    # -- the worker's side ------------------------------------------------------------------

    def claim(self, worker_id: str) -> QueueRequest | None:
        """Take the oldest PENDING request for `worker_id`, or None; one statement, so atomic."""
        now = timestamp()
        return self._one(
            f"UPDATE requests SET status = '{Status.RUNNING}', worker_id = ?, started_at = ?, heartbeat_at = ?,"
            " finished_at = NULL, attempts = attempts + 1"
            " WHERE id = (SELECT id FROM requests WHERE status = ? ORDER BY submitted_at, id LIMIT 1)"
            " RETURNING *",
            (worker_id, now, now, Status.PENDING),
        )

    def _update_held(self, request_id: int, worker_id: str, assignments: str, params: tuple[Any, ...]) -> bool:
        with self._connect() as conn:
            cursor = conn.execute(
                f"UPDATE requests SET {assignments} WHERE {_HELD}", (*params, request_id, worker_id)
            )
        return cursor.rowcount == 1

    def heartbeat(self, request_id: int, worker_id: str) -> bool:
        """Say the worker is alive; False when the request is no longer its own."""
        return self._update_held(request_id, worker_id, "heartbeat_at = ?", (timestamp(),))

    def set_run_dir(self, request_id: int, worker_id: str, run_dir: str) -> bool:
        return self._update_held(request_id, worker_id, "run_dir = ?", (run_dir,))

    def update_progress(self, request_id: int, worker_id: str, phase: Phase, done: int, total: int) -> bool:
        """Record the phase and how far it is (also a heartbeat)."""
        return self._update_held(
            request_id,
            worker_id,
            "phase = ?, progress_done = ?, progress_total = ?, heartbeat_at = ?",
            (Phase(phase), done, total, timestamp()),
        )

    def append_log(self, request_id: int, text: str, *, keep_chars: int = LOG_TAIL_CHARS) -> None:
        """Append to the request's log tail, keeping only its last `keep_chars` characters."""
        if not text:
            return
        with self._connect() as conn:
            conn.execute(
                "UPDATE requests SET log_tail = substr(log_tail || ?, -?) WHERE id = ?",
                (text, keep_chars, request_id),
            )

    def finish(self, request_id: int, worker_id: str) -> bool:
        """Mark the request FINISHED; False if it was cancelled or taken over meanwhile."""
        return self._update_held(
            request_id, worker_id, f"status = '{Status.FINISHED}', finished_at = ?, error = NULL", (timestamp(),)
        )

    def fail(self, request_id: int, worker_id: str, error: str) -> bool:
        """Mark the request FAILED with `error`; False if it was cancelled or taken over meanwhile."""
        return self._update_held(
            request_id, worker_id, f"status = '{Status.FAILED}', finished_at = ?, error = ?", (timestamp(), error)
        )

    def requeue_stale(self, max_age_s: float, max_attempts: int) -> list[QueueRequest]:
        """RUNNING requests without a heartbeat for `max_age_s`: back to PENDING, or FAILED after `max_attempts`.

        Returns the requests changed, in their new state.
        """
        cutoff = _ago(max_age_s)
        reason = (
            "'worker ' || coalesce(worker_id, '?') || ' stopped responding (last heartbeat '"
            " || coalesce(heartbeat_at, 'never') || ') on attempt ' || attempts"
        )
        stale = f"status = '{Status.RUNNING}' AND (heartbeat_at IS NULL OR heartbeat_at < ?)"
        with self._transaction() as conn:
            failed = conn.execute(
                f"UPDATE requests SET status = '{Status.FAILED}', finished_at = ?,"
                f" error = {reason} || ' of ' || ? || '; giving up'"
                f" WHERE {stale} AND attempts >= ? RETURNING *",
                (timestamp(), max_attempts, cutoff, max_attempts),
            ).fetchall()
            requeued = conn.execute(
                f"UPDATE requests SET status = '{Status.PENDING}', worker_id = NULL,"
                f" error = {reason} || '; requeued to resume from its run folder'"
                f" WHERE {stale} RETURNING *",
                (cutoff,),
            ).fetchall()
        return [_row_to_request(row) for row in (*failed, *requeued)]

    # -- the admin's side -------------------------------------------------------------------

    def _admin_transition(
        self, request_id: int, allowed: tuple[Status, ...], assignments: str, params: tuple[Any, ...], verb: str
    ) -> QueueRequest:
        changed = self._one(
            f"UPDATE requests SET {assignments} WHERE id = ? AND status IN ({_sql_list(allowed)}) RETURNING *",
            (*params, request_id),
        )
        if changed is None:
            current = self.get(request_id)
            raise QueueError(
                f"request {request_id} is {current.status}; only {' or '.join(allowed)} requests can be {verb}"
            )
        return changed

    def cancel(self, request_id: int) -> QueueRequest:
        """Cancel a PENDING or RUNNING request (a running worker stops recording it)."""
        return self._admin_transition(
            request_id,
            (Status.PENDING, Status.RUNNING),
            f"status = '{Status.CANCELLED}', finished_at = ?, worker_id = NULL",
            (timestamp(),),
            "cancelled",
        )

    def retry(self, request_id: int) -> QueueRequest:
        """Put a FAILED or CANCELLED request back to PENDING with fresh attempts; its run folder is resumed."""
        return self._admin_transition(
            request_id,
            (Status.FAILED, Status.CANCELLED),
            f"status = '{Status.PENDING}', attempts = 0, error = NULL, worker_id = NULL,"
            " started_at = NULL, finished_at = NULL, heartbeat_at = NULL",
            (),
            "retried",
        )

    # -- rebuilding from a mirror (eval_backend.hub_sync) -----------------------------------

    def restore(self, requests: Iterable[QueueRequest]) -> int:
        """Insert rows exactly as given, ids and states included, in one transaction; returns how many.

        For rebuilding an empty queue from its copy in the requests repo; a row whose id exists
        makes the whole restore fail (sqlite3.IntegrityError) and nothing is inserted.
        """
        columns = [column.name for column in fields(QueueRequest)]
        rows = [
            {
                **{name: getattr(request, name) for name in columns},
                "reasoning": int(request.reasoning),
                "backend_params": json.dumps(dict(request.backend_params), sort_keys=True),
            }
            for request in requests
        ]
        with self._transaction() as conn:
            conn.executemany(
                f"INSERT INTO requests ({', '.join(columns)}) VALUES ({', '.join(':' + name for name in columns)})", rows
            )
        return len(rows)


def queue_path(settings: Settings) -> Path:
    """QUEUE_PATH, else `DATA_DIR/queue.sqlite`."""
    return settings.queue.queue_path or settings.data.data_dir / "queue.sqlite"


def open_queue(settings: Settings) -> QueueStore:
    """The queue the settings name (created on first use)."""
    return QueueStore(queue_path(settings))
