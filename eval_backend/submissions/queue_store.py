"""The submission queue, backend-neutral: one row per (submission, benchmark), claimed atomically by workers.

Every operation is plain SQL that SQLite (`queue_sqlite`, the default: one file on one host)
and PostgreSQL (`queue_postgres`, `QUEUE_URL=postgresql://…`: workers on many hosts) both run;
a backend supplies its connection, its serialised write transaction and a few expressions of
its dialect. Every time the queue records (submitted, claimed, heartbeat, finished) and every
staleness cutoff comes from the database's clock, so workers whose clocks disagree still agree
on who holds what.

    PENDING -> RUNNING -> FINISHED | FAILED        an admin may CANCEL a PENDING or RUNNING one
    RUNNING with a stale heartbeat -> PENDING (resumed from its run folder), or FAILED
    once its attempts are used up

A model revision is the same model whatever the case of its id (the Hub's ids are
case-insensitive), so duplicates are keyed on (lower-cased model id, revision, benchmark).
"""

from __future__ import annotations

import json
import math
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone
from enum import StrEnum
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Mapping, Protocol, Sequence

from eval_backend.benchmarks.chat_mode import ChatMode
from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK
from eval_backend.settings import Settings

LOG_TAIL_CHARS = 8000
WEEK_S = 7 * 24 * 3600.0


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
"""Statuses that make a second request for the same model revision and benchmark a duplicate."""


def sql_list(values: Any) -> str:
    """Enum values as an SQL list of literals (they are ours, never user input)."""
    return ", ".join(f"'{value}'" for value in values)


class QueueError(ValueError):
    """An admin operation that the request's state does not allow; the message says why."""


class RequestNotFound(QueueError):
    """No request has this id."""


class QueueUnavailable(QueueError):
    """The queue's database cannot be reached or opened; the message names where (never a password)."""


class DuplicateRequest(QueueError):
    """The model revision is already queued, running or evaluated on this benchmark; `existing` is that request."""

    def __init__(self, existing: QueueRequest | None) -> None:
        super().__init__(f"already in the queue as request {existing.id if existing else '?'}")
        self.existing = existing


class LimitReached(QueueError):
    """The submitter used up the per-user limit; `times` are their submissions in the window, oldest first."""

    def __init__(self, submitter: str, times: list[str], limit: int) -> None:
        super().__init__(f"{submitter!r} has made {len(times)} submissions in the window; the limit is {limit}")
        self.submitter, self.times, self.limit = submitter, times, limit


@dataclass(frozen=True)
class NewRequest:
    """What a validated submission puts in the queue (one per benchmark)."""

    model_id: str
    revision: str
    requested_revision: str
    precision: str
    reasoning: bool
    submitter: str
    backend_params: Mapping[str, Any] = field(default_factory=dict)
    parameters: int | None = None
    """The model's parameter count as its safetensors metadata gives it (None for unknown)."""
    benchmark: str = DEFAULT_BENCHMARK
    chat_mode: ChatMode = ChatMode.CHAT
    """How the prompts are asked: in the model's chat template, or as raw text (a benchmark that offers it)."""
    license: str | None = None
    """The license the model card declared at submission (`model_facts.card_license`; None: not declared)."""
    open_weights: bool | None = None
    """Whether the weights were downloadable without a gate at submission (`model_facts.weights_are_open`)."""


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
    benchmark: str = DEFAULT_BENCHMARK
    submission_id: int | None = None
    """The id of the first row of the submission this row belongs to (one row per benchmark)."""
    chat_mode: ChatMode = ChatMode.CHAT
    """Chat or raw prompts, as the submitter chose (or `auto` resolved) when it was queued."""
    license: str | None = None
    """The model card's license at submission; None when not declared or not recorded (older rows)."""
    open_weights: bool | None = None
    """Open weights at submission; None when unknown (a local folder, or a row from before it was recorded)."""
    job_id: str | None = None
    """The Hugging Face Job running this request (`WORKER_DISPATCH=hf-jobs`); None when run in a worker's process."""
    job_url: str | None = None
    job_flavor: str | None = None
    """The Job's hardware flavor, e.g. `l4x1`."""
    job_stage: str | None = None
    """The Job's stage as the Hub last reported it: SCHEDULING, RUNNING, COMPLETED, ERROR, CANCELED, DELETED."""
    job_wall_s: float | None = None
    """Seconds the Job has run (the Hub's count), so far or in all."""
    job_price_usd: float | None = None
    """What the Job's running time costs at its flavor's price."""
    problem: str | None = None
    """What in the stored row could not be decoded (column and reason), None when every column could; such a
    row is listed, and failed with this reason when claimed, never run. Not a column: it is made when read."""


_COLUMNS = [column.name for column in fields(QueueRequest) if column.name != "problem"]


def row_to_request(row: Mapping[str, Any]) -> QueueRequest:
    """A database row (a mapping of column to value) as a QueueRequest; never raises on what a column holds.

    A column whose value cannot be decoded takes a stand-in (`{}`, 0, None, the text as stored) and is
    named in `problem`, so one bad row is listed with its problem instead of failing every read of the queue.
    """
    data: dict[str, Any] = {}
    problems: list[str] = []
    for name in _COLUMNS:
        decode, stand_in = _DECODERS.get(name, (_text, _as_text))
        try:
            data[name] = decode(row[name])
        except (ValueError, TypeError) as exc:
            problems.append(f"{name} {exc}")
            data[name] = stand_in(row[name])
    return QueueRequest(**data, problem="; ".join(problems) or None)


Decoder = Callable[[Any], Any]


def _json_object(value: Any) -> dict[str, Any]:
    try:
        decoded = json.loads(_text(value))
    except json.JSONDecodeError as exc:
        raise ValueError(f"is not JSON ({exc})") from exc
    if not isinstance(decoded, dict):
        raise ValueError(f"is not a JSON object (a {type(decoded).__name__})")
    return decoded


def _integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"is not an integer ({_shown(value)})")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TypeError(f"is not a finite number ({_shown(value)})")
    return float(value)


def _flag_of(value: Any) -> bool:
    if value not in (0, 1) or isinstance(value, float):
        raise ValueError(f"is not 0 or 1 ({_shown(value)})")
    return bool(value)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"is not text ({_shown(value)})")
    return value


def _optional(decode: Decoder) -> Decoder:
    """The decoder for a column that may be NULL."""
    return lambda value: None if value is None else decode(value)


def _member(kind: type[StrEnum]) -> Decoder:
    def decode(value: Any) -> StrEnum:
        try:
            return kind(value)
        except ValueError:
            raise ValueError(f"is not one of {', '.join(kind)} ({_shown(value)})") from None
    return decode


def _shown(value: Any) -> str:
    """A stored value in a problem message, cut short (the row is the admin's to read in full)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _as_text(value: Any) -> str:
    return "" if value is None else str(value)


def _none(value: Any) -> None:
    return None


_DECODERS: dict[str, tuple[Decoder, Decoder]] = {
    # column: (decode, stand-in when it cannot be decoded)
    "id": (_integer, lambda value: -1),
    "reasoning": (_flag_of, lambda value: False),
    "backend_params": (_json_object, lambda value: {}),
    "status": (_member(Status), lambda value: Status.FAILED),
    "phase": (lambda value: _member(Phase)(value) if value else None, _none),  # no phase yet: NULL (or '')
    "progress_done": (_integer, lambda value: 0),
    "progress_total": (_integer, lambda value: 0),
    "attempts": (_integer, lambda value: 0),
    "parameters": (_optional(_integer), _none),
    "submission_id": (_optional(_integer), _none),
    "chat_mode": (_member(ChatMode), lambda value: ChatMode.CHAT),
    "open_weights": (_optional(_flag_of), _none),
    **{name: (_optional(_text), _none) for name in (
        "worker_id", "started_at", "finished_at", "heartbeat_at", "error", "run_dir", "license",
        "job_id", "job_url", "job_flavor", "job_stage")},
    **{name: (_optional(_number), _none) for name in ("job_wall_s", "job_price_usd")},
}


def timestamp(moment: datetime | None = None) -> str:
    """ISO-8601 UTC with milliseconds, the format the queue stores: fixed width, so strings sort as times."""
    return (moment or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="milliseconds")


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Mapping[str, Any] | None: ...

    def fetchall(self) -> list[Mapping[str, Any]]: ...


class Connection(Protocol):
    """What the store needs of a backend's connection: `?` placeholders, rows as mappings."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...


# A worker may only write to a request it still holds: one an admin cancelled, or one that
# was requeued and taken by another worker after this one stalled, is no longer its own.
_HELD = f"id = ? AND status = '{Status.RUNNING}' AND worker_id = ?"
_SAME_WORK = "lower(model_id) = lower(?) AND revision = ? AND benchmark = ?"

# The schema, step by step; a database at version N runs the steps after N, in one transaction.
# `{id}` is the backend's auto-increment key, `{big}` its 64-bit integer (parameter counts pass 2**31).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        f"""CREATE TABLE IF NOT EXISTS requests (
    id {{id}},
    model_id TEXT NOT NULL,
    revision TEXT NOT NULL,
    requested_revision TEXT NOT NULL,
    precision TEXT NOT NULL,
    reasoning INTEGER NOT NULL DEFAULT 0,
    backend_params TEXT NOT NULL DEFAULT '{{{{}}}}',
    submitter TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ({sql_list(Status)})),
    phase TEXT CHECK (phase IS NULL OR phase IN ({sql_list(Phase)})),
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
    parameters {{big}}
)""",
        "CREATE INDEX IF NOT EXISTS requests_by_status ON requests (status, submitted_at, id)",
        "CREATE INDEX IF NOT EXISTS requests_by_model ON requests (model_id, revision)",
        "CREATE INDEX IF NOT EXISTS requests_by_submitter ON requests (submitter, submitted_at)",
    ),
    (
        f"ALTER TABLE requests ADD COLUMN benchmark TEXT NOT NULL DEFAULT '{DEFAULT_BENCHMARK}'",
        "ALTER TABLE requests ADD COLUMN submission_id {big}",
        "UPDATE requests SET submission_id = id",
        "CREATE INDEX IF NOT EXISTS requests_by_work ON requests (lower(model_id), revision, benchmark)",
    ),
    (  # rows queued before the choice existed were all asked in chat
        "ALTER TABLE requests ADD COLUMN chat_mode TEXT NOT NULL DEFAULT 'chat'"
        f" CHECK (chat_mode IN ({sql_list(ChatMode)}))",
    ),
    (  # rows queued before these facts were recorded: unknown (NULL)
        "ALTER TABLE requests ADD COLUMN license TEXT",
        "ALTER TABLE requests ADD COLUMN open_weights INTEGER CHECK (open_weights IS NULL OR open_weights IN (0, 1))",
    ),
    (  # requests run as Hugging Face Jobs: the Job, its stage and its cost (NULL for every other row)
        "ALTER TABLE requests ADD COLUMN job_id TEXT",
        "ALTER TABLE requests ADD COLUMN job_url TEXT",
        "ALTER TABLE requests ADD COLUMN job_flavor TEXT",
        "ALTER TABLE requests ADD COLUMN job_stage TEXT",
        "ALTER TABLE requests ADD COLUMN job_wall_s DOUBLE PRECISION",
        "ALTER TABLE requests ADD COLUMN job_price_usd DOUBLE PRECISION",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


class QueueStore(ABC):
    """The queue; safe to share between threads, processes and (on PostgreSQL) hosts."""

    location: str
    """Where the queue lives, for logs: a file path, or a database URL without its password."""

    # -- what a backend supplies ------------------------------------------------------------

    @abstractmethod
    def _connect(self) -> AbstractContextManager[Connection]:
        """A connection in autocommit mode: each statement is its own transaction."""

    @abstractmethod
    def _transaction(self, *, exclusive: bool = False) -> AbstractContextManager[Connection]:
        """A transaction; with `exclusive`, serialised against every other exclusive one."""

    @property
    @abstractmethod
    def _now(self) -> str:
        """SQL for the database's current time, formatted as `timestamp()` formats."""

    @abstractmethod
    def _ago(self) -> str:
        """SQL for the database's time a bound number of seconds ago (one `?`)."""

    @abstractmethod
    def _tail(self) -> str:
        """SQL for the last `?` characters of `log_tail || ?` (parameters: text, count)."""

    _skip_locked = ""
    """What makes the claim's row lookup skip rows another claim is taking (FOR UPDATE SKIP LOCKED)."""

    database_errors: tuple[type[Exception], ...] = ()
    """The backend's errors for a database that is busy, away or failing (what a caller may retry later)."""

    def close(self) -> None:
        """Release connections; the store is unusable afterwards."""

    def __enter__(self) -> QueueStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers ----------------------------------------------------------------------------

    def _one(self, sql: str, params: Sequence[Any]) -> QueueRequest | None:
        with self._connect() as conn:
            row = conn.execute(sql, params).fetchone()
        return row_to_request(row) if row else None

    def _many(self, sql: str, params: Sequence[Any] = ()) -> list[QueueRequest]:
        with self._connect() as conn:
            return [row_to_request(row) for row in conn.execute(sql, params).fetchall()]

    def _migrate(self, conn: Connection, version: int, dialect: Mapping[str, str]) -> int:
        """Run the schema steps after `version` on `conn` (inside the caller's transaction); returns the new version."""
        for step in MIGRATIONS[version:]:
            for statement in step:
                conn.execute(statement.format(**dialect))
        return SCHEMA_VERSION

    # -- submitting and reading -------------------------------------------------------------

    def add(self, request: NewRequest) -> QueueRequest:
        """Append one PENDING request and return its row (see `add_submission`)."""
        return self.add_submission([request])[0]

    def add_submission(
        self, requests: Sequence[NewRequest], *, per_user_limit: int | None = None, window_s: float = WEEK_S
    ) -> list[QueueRequest]:
        """Queue one submission: a PENDING row per benchmark, all or none, sharing one `submission_id`.

        In one serialised transaction: DuplicateRequest if any benchmark of this model revision is
        already PENDING, RUNNING or FINISHED; LimitReached if the submitter already made
        `per_user_limit` submissions within `window_s`. So parallel submissions cannot both pass.
        """
        if not requests or len({(r.submitter, r.model_id, r.revision) for r in requests}) != 1:
            raise ValueError("a submission is one or more benchmarks of one model revision by one submitter")
        with self._transaction(exclusive=True) as conn:
            for request in requests:
                existing = self._active(conn, request.model_id, request.revision, request.benchmark)
                if existing is not None:
                    raise DuplicateRequest(existing)
            submitter = requests[0].submitter
            if per_user_limit is not None:
                times = self._submission_times(conn, submitter, window_s)
                if len(times) >= per_user_limit:
                    raise LimitReached(submitter, times, per_user_limit)
            added = [self._insert(conn, request) for request in requests]
            first = added[0].id
            rows = conn.execute(
                f"UPDATE requests SET submission_id = ? WHERE id IN ({', '.join('?' for _ in added)}) RETURNING *",
                (first, *(row.id for row in added)),
            ).fetchall()
        return sorted((row_to_request(row) for row in rows), key=lambda row: row.id)

    def _insert(self, conn: Connection, request: NewRequest) -> QueueRequest:
        row = conn.execute(
            "INSERT INTO requests (model_id, revision, requested_revision, precision, reasoning,"
            " backend_params, submitter, submitted_at, parameters, benchmark, chat_mode, license, open_weights)"
            f" VALUES (?, ?, ?, ?, ?, ?, ?, {self._now}, ?, ?, ?, ?, ?)"
            " RETURNING *",
            (
                request.model_id,
                request.revision,
                request.requested_revision,
                request.precision,
                int(request.reasoning),
                json.dumps(dict(request.backend_params), sort_keys=True),
                request.submitter,
                request.parameters,
                request.benchmark,
                ChatMode(request.chat_mode).value,
                request.license,
                _flag(request.open_weights),
            ),
        ).fetchone()
        assert row is not None  # INSERT … RETURNING always returns the row
        return row_to_request(row)

    def _active(
        self, conn: Connection, model_id: str, revision: str, benchmark: str, *, other_than: int | None = None
    ) -> QueueRequest | None:
        row = conn.execute(
            f"SELECT * FROM requests WHERE {_SAME_WORK} AND status IN ({sql_list(ACTIVE)}) AND id <> ?"
            " ORDER BY submitted_at, id LIMIT 1",
            (model_id, revision, benchmark, -1 if other_than is None else other_than),
        ).fetchone()
        return row_to_request(row) if row else None

    def active_duplicate(self, model_id: str, revision: str, benchmark: str = DEFAULT_BENCHMARK) -> QueueRequest | None:
        """The request that makes a new one for this model revision and benchmark a duplicate, if any."""
        with self._connect() as conn:
            return self._active(conn, model_id, revision, benchmark)

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
        return self._many("SELECT * FROM requests WHERE status = ? ORDER BY submitted_at, id", (Status(status).value,))

    def find(self, model_id: str, revision: str) -> list[QueueRequest]:
        """Every request for this model (in any case) at this revision, oldest first."""
        return self._many(
            "SELECT * FROM requests WHERE lower(model_id) = lower(?) AND revision = ? ORDER BY submitted_at, id",
            (model_id, revision),
        )

    def submission_times(self, submitter: str, window_s: float = WEEK_S) -> list[str]:
        """When `submitter` submitted within the last `window_s` (database time), one per submission, oldest first."""
        with self._connect() as conn:
            return self._submission_times(conn, submitter, window_s)

    def _submission_times(self, conn: Connection, submitter: str, window_s: float) -> list[str]:
        rows = conn.execute(
            f"SELECT min(submitted_at) AS first_at FROM requests WHERE submitter = ? AND submitted_at >= {self._ago()}"
            " GROUP BY coalesce(submission_id, id) ORDER BY first_at",
            (submitter, window_s),
        ).fetchall()
        return [row["first_at"] for row in rows]

    def database_time(self) -> str:
        """The database's clock now, as the queue records times."""
        with self._connect() as conn:
            row = conn.execute(f"SELECT {self._now} AS now").fetchone()
        assert row is not None
        return str(row["now"])

    # -- the worker's side ------------------------------------------------------------------

    def claim(self, worker_id: str, *, passed_over: Collection[int] = ()) -> QueueRequest | None:
        """Take the oldest PENDING request for `worker_id` but those `passed_over`, or None; one statement, so atomic."""
        skip = f" AND id NOT IN ({', '.join('?' for _ in passed_over)})" if passed_over else ""
        return self._one(
            f"UPDATE requests SET status = '{Status.RUNNING}', worker_id = ?, started_at = {self._now},"
            f" heartbeat_at = {self._now}, finished_at = NULL, attempts = attempts + 1"
            f" WHERE id = (SELECT id FROM requests WHERE status = '{Status.PENDING}'{skip}"
            f" ORDER BY submitted_at, id LIMIT 1{self._skip_locked})"
            " RETURNING *",
            (worker_id, *passed_over),
        )

    def _update_held(self, request_id: int, worker_id: str, assignments: str, params: Sequence[Any]) -> bool:
        with self._connect() as conn:
            cursor = conn.execute(f"UPDATE requests SET {assignments} WHERE {_HELD}", (*params, request_id, worker_id))
        return cursor.rowcount == 1

    def heartbeat(self, request_id: int, worker_id: str) -> bool:
        """Say the worker is alive; False when the request is no longer its own (the fencing check)."""
        return self._update_held(request_id, worker_id, f"heartbeat_at = {self._now}", ())

    def set_run_dir(self, request_id: int, worker_id: str, run_dir: str) -> bool:
        return self._update_held(request_id, worker_id, "run_dir = ?", (run_dir,))

    def update_progress(self, request_id: int, worker_id: str, phase: Phase, done: int, total: int) -> bool:
        """Record the phase and how far it is (also a heartbeat)."""
        return self._update_held(
            request_id,
            worker_id,
            f"phase = ?, progress_done = ?, progress_total = ?, heartbeat_at = {self._now}",
            (Phase(phase).value, done, total),
        )

    def append_log(self, request_id: int, text: str, *, keep_chars: int = LOG_TAIL_CHARS) -> None:
        """Append to the request's log tail, keeping only its last `keep_chars` characters."""
        if not text:
            return
        with self._connect() as conn:
            conn.execute(f"UPDATE requests SET log_tail = {self._tail()} WHERE id = ?", (text, keep_chars, request_id))

    def finish(self, request_id: int, worker_id: str) -> bool:
        """Mark the request FINISHED; False if it was cancelled or taken over meanwhile."""
        return self._update_held(
            request_id, worker_id, f"status = '{Status.FINISHED}', finished_at = {self._now}, error = NULL", ()
        )

    def fail(self, request_id: int, worker_id: str, error: str) -> bool:
        """Mark the request FAILED with `error`; False if it was cancelled or taken over meanwhile."""
        return self._update_held(
            request_id, worker_id, f"status = '{Status.FAILED}', finished_at = {self._now}, error = ?", (error,)
        )

    def release_claim(self, request_id: int, worker_id: str, reason: str) -> bool:
        """Put a request this worker holds back to PENDING without using an attempt (it could not start);
        False if it was cancelled or taken over meanwhile."""
        return self._update_held(
            request_id, worker_id,
            f"status = '{Status.PENDING}', worker_id = NULL, attempts = attempts - 1, error = ?", (reason,),
        )

    def requeue_stale(self, max_age_s: float, max_attempts: int) -> list[QueueRequest]:
        """RUNNING requests without a heartbeat for `max_age_s`: back to PENDING, or FAILED after `max_attempts`.

        Age is measured on the database's clock, which also wrote every heartbeat; a heartbeat
        later than that clock's now cannot be one of its own (a row written by a skewed clock)
        and counts as stale. Returns the requests changed, in their new state.
        """
        reason = (
            "'worker ' || coalesce(worker_id, 'unknown') || ' stopped responding (last heartbeat '"
            " || coalesce(heartbeat_at, 'never') || ') on attempt ' || attempts"
        )
        stale = (
            f"status = '{Status.RUNNING}'"
            f" AND (heartbeat_at IS NULL OR heartbeat_at < {self._ago()} OR heartbeat_at > {self._now})"
        )
        with self._transaction() as conn:
            failed = conn.execute(
                f"UPDATE requests SET status = '{Status.FAILED}', finished_at = {self._now},"
                f" error = {reason} || ' of ' || ? || '; giving up'"
                f" WHERE {stale} AND attempts >= ? RETURNING *",
                (str(max_attempts), max_age_s, max_attempts),
            ).fetchall()
            requeued = conn.execute(
                f"UPDATE requests SET status = '{Status.PENDING}', worker_id = NULL,"
                f" error = {reason} || '; requeued to resume from its run folder'"
                f" WHERE {stale} RETURNING *",
                (max_age_s,),
            ).fetchall()
        return [row_to_request(row) for row in (*failed, *requeued)]

    # -- requests run as Hugging Face Jobs (eval_backend.submissions.job_dispatch) ------------

    def set_job(self, request_id: int, worker_id: str, job_id: str, job_url: str, flavor: str) -> bool:
        """Record the Job now running a request this worker holds; False if it was cancelled or taken over."""
        return self._update_held(
            request_id, worker_id, f"job_id = ?, job_url = ?, job_flavor = ?, job_stage = NULL, heartbeat_at = {self._now}",
            (job_id, job_url, flavor),
        )

    def update_job(self, request_id: int, stage: str, wall_s: float | None, price_usd: float | None) -> None:
        """Record the Job's stage and cost so far, whatever the request's state (a cancelled one's Job still costs)."""
        with self._connect() as conn:
            conn.execute(
                "UPDATE requests SET job_stage = ?, job_wall_s = ?, job_price_usd = ? WHERE id = ?",
                (stage, wall_s, price_usd, request_id),
            )

    def adopt_jobs(self, worker_id: str) -> list[QueueRequest]:
        """Take over every RUNNING request that has a Job (a dispatcher restarted): their Jobs run on without it."""
        return self._many(
            f"UPDATE requests SET worker_id = ?, heartbeat_at = {self._now}"
            f" WHERE status = '{Status.RUNNING}' AND job_id IS NOT NULL RETURNING *",
            (worker_id,),
        )

    # -- the admin's side -------------------------------------------------------------------

    def _admin_transition(
        self, conn: Connection, request_id: int, allowed: tuple[Status, ...], assignments: str, verb: str
    ) -> QueueRequest:
        row = conn.execute(
            f"UPDATE requests SET {assignments} WHERE id = ? AND status IN ({sql_list(allowed)}) RETURNING *",
            (request_id,),
        ).fetchone()
        if row is None:
            current = conn.execute("SELECT * FROM requests WHERE id = ?", (request_id,)).fetchone()
            if current is None:
                raise RequestNotFound(f"no queue request with id {request_id}")
            raise QueueError(
                f"request {request_id} is {current['status']}; only {' or '.join(allowed)} requests can be {verb}"
            )
        return row_to_request(row)

    def cancel(self, request_id: int) -> QueueRequest:
        """Cancel a PENDING or RUNNING request; its worker loses the claim and stops before its next write."""
        with self._transaction() as conn:
            return self._admin_transition(
                conn,
                request_id,
                (Status.PENDING, Status.RUNNING),
                f"status = '{Status.CANCELLED}', finished_at = {self._now}, worker_id = NULL",
                "cancelled",
            )

    def retry(self, request_id: int) -> QueueRequest:
        """Put a FAILED or CANCELLED request back to PENDING with fresh attempts; its run folder is resumed.

        Refused when another request for the same work is active meanwhile (a resubmission).
        """
        with self._transaction(exclusive=True) as conn:
            retried = self._admin_transition(
                conn,
                request_id,
                (Status.FAILED, Status.CANCELLED),
                f"status = '{Status.PENDING}', attempts = 0, error = NULL, worker_id = NULL,"
                " started_at = NULL, finished_at = NULL, heartbeat_at = NULL",
                "retried",
            )
            other = self._active(conn, retried.model_id, retried.revision, retried.benchmark, other_than=request_id)
            if other is not None:
                raise QueueError(
                    f"request {request_id} cannot be retried: request {other.id} for the same model revision and "
                    f"benchmark is {other.status}"
                )
        return retried

    # -- rebuilding from a mirror (eval_backend.hub_sync) -----------------------------------

    def restore(self, requests: Iterable[QueueRequest]) -> int:
        """Insert rows exactly as given, ids and states included, in one transaction; returns how many.

        For rebuilding an empty queue from its copy in the requests repo; a row whose id exists
        makes the whole restore fail (the backend's integrity error) and nothing is inserted.
        """
        rows = [tuple(_column_value(request, name) for name in _COLUMNS) for request in requests]
        with self._transaction(exclusive=True) as conn:
            for row in rows:
                conn.execute(
                    f"INSERT INTO requests ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' for _ in _COLUMNS)})", row
                )
            self._after_restore(conn)
        return len(rows)

    def _after_restore(self, conn: Connection) -> None:
        """Let the id generator continue after the restored ids (a no-op where it does by itself)."""


def _column_value(request: QueueRequest, name: str) -> Any:
    """A field as the database stores it: JSON text, 0/1, enum values as plain strings."""
    value = getattr(request, name)
    if name == "backend_params":
        return json.dumps(dict(value), sort_keys=True)
    if name == "reasoning":
        return int(value)
    if name == "open_weights":
        return _flag(value)
    return value.value if isinstance(value, StrEnum) else value


def _flag(value: bool | None) -> int | None:
    """A yes / no / unknown fact as the database stores it: 1, 0 or NULL."""
    return None if value is None else int(value)


def queue_path(settings: Settings) -> Path:
    """QUEUE_PATH, else `DATA_DIR/queue.sqlite` (the SQLite backend's file)."""
    return settings.queue.queue_path or settings.data.data_dir / "queue.sqlite"


def open_queue(settings: Settings) -> QueueStore:
    """The queue the settings name: PostgreSQL when QUEUE_URL is set, else the SQLite file (created on first use)."""
    if settings.queue.queue_url is not None:
        url = settings.queue.queue_url.get_secret_value()
        if not url.startswith(("postgresql://", "postgres://")):
            raise QueueUnavailable("QUEUE_URL must be a postgresql://user:password@host:port/database URL")
        from eval_backend.submissions.queue_postgres import PostgresQueueStore  # psycopg only where it is used

        return PostgresQueueStore(
            url, pool_size=settings.queue.pool_size, connect_timeout_s=settings.queue.connect_timeout_s
        )
    from eval_backend.submissions.queue_sqlite import SqliteQueueStore

    return SqliteQueueStore(queue_path(settings))
