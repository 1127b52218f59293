"""The queue in one SQLite file: the default, for a single Space or one machine.

Every operation opens its own connection, so the store can be shared by threads and
processes; WAL mode lets readers (the web app) run while a worker writes, and the busy
timeout makes concurrent writers wait for each other instead of failing. SQLite serialises
writers itself (`BEGIN IMMEDIATE`), which is what makes a claim or a submission atomic; its
clock is the one machine's clock, read in SQL like the server database's.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Iterator

from eval_backend.submissions.queue_store import SCHEMA_VERSION, Connection, QueueStore, QueueUnavailable

_DIALECT = {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "big": "INTEGER"}
_FORMAT = "'%Y-%m-%dT%H:%M:%f+00:00'"


class SqliteQueueStore(QueueStore):
    """The queue in the SQLite file at `path` (created, or migrated to the current schema, on open)."""

    database_errors = (sqlite3.Error,)

    def __init__(self, path: Path, *, busy_timeout_s: float = 30.0) -> None:
        if sqlite3.sqlite_version_info < (3, 35):
            raise RuntimeError(f"the queue needs SQLite 3.35+ (for RETURNING); this Python has {sqlite3.sqlite_version}")
        self.path = Path(path)
        self.location = str(self.path)
        self._busy_timeout_s = busy_timeout_s
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as conn:
                conn.execute("PRAGMA journal_mode=WAL")
            with self._transaction() as conn:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version < SCHEMA_VERSION:
                    conn.execute(f"PRAGMA user_version = {self._migrate(conn, version, _DIALECT)}")
        except (OSError, sqlite3.DatabaseError) as exc:
            raise QueueUnavailable(f"cannot open the queue file {self.path}: {exc}") from exc

    @contextmanager
    def _connect(self) -> Iterator[Connection]:
        # Autocommit: each statement is its own transaction unless a block opens one.
        conn = sqlite3.connect(self.path, timeout=self._busy_timeout_s, isolation_level=None)
        conn.row_factory = sqlite3.Row
        with closing(conn):
            yield conn  # type: ignore[misc]  # sqlite3.Connection satisfies the protocol

    @contextmanager
    def _transaction(self, *, exclusive: bool = False) -> Iterator[Connection]:
        # BEGIN IMMEDIATE takes the write lock at once: every write transaction is already exclusive.
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @property
    def _now(self) -> str:
        return f"strftime({_FORMAT}, 'now')"

    def _ago(self) -> str:
        return f"strftime({_FORMAT}, 'now', printf('-%.3f seconds', ?))"

    def _tail(self) -> str:
        return "substr(log_tail || ?, -?)"
