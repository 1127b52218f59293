"""The queue under test on each backend: the SQLite file and a fresh database on the session's PostgreSQL server.

A test that takes the `store` fixture (or `queue_backend`) runs twice, once per backend: one suite
for both. `QueueBackend` says where the queue is, so a second process (a worker, the CLI) can
open the same one.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import psycopg
import pytest

from eval_backend.submissions import QueueStore, SqliteQueueStore
from eval_backend.submissions.queue_postgres import PostgresQueueStore


@dataclass(frozen=True)
class QueueBackend:
    """Where a test's queue lives, so a second process can open the same one: a file or a database URL."""

    name: str
    path: Path
    url: str | None

    def open(self) -> QueueStore:
        """Another handle on the same queue (as a second worker would open it)."""
        return PostgresQueueStore(self.url) if self.url else SqliteQueueStore(self.path)

    def env(self) -> dict[str, str]:
        """The environment variables that point a CLI or worker process at this queue."""
        return {"QUEUE_URL": self.url} if self.url else {"QUEUE_PATH": str(self.path)}

    def execute(self, sql: str) -> None:
        """Run one statement over a plain connection of the database itself, not through the store."""
        if self.url:
            with psycopg.connect(self.url, autocommit=True) as conn:
                conn.execute(sql)  # type: ignore[arg-type]
        else:
            with closing(sqlite3.connect(self.path)) as conn, conn:
                conn.execute(sql)

    def settings(self) -> dict[str, Any]:
        """The same, as QueueSettings fields (for `make_settings`)."""
        return {"queue_url": self.url} if self.url else {"queue_path": self.path}


@pytest.fixture(params=["sqlite", "postgres"])
def queue_backend(request: pytest.FixtureRequest, tmp_path: Path) -> QueueBackend:
    """Each queue test runs twice: on the SQLite file and on a fresh PostgreSQL database."""
    url = request.getfixturevalue("postgres_server").new_database() if request.param == "postgres" else None
    return QueueBackend(request.param, tmp_path / "data" / "queue.sqlite", url)


def on_backend(name: str) -> pytest.MarkDecorator:
    """Run a test that takes `queue_backend` (or `store`) on one backend only, "sqlite" or "postgres": for a scenario
    whose point is not the database (a Job, a worker process, a model run), where the store calls it makes are each
    tested on both backends in test_queue_store.py. Spread such scenarios over both, so each backend is still
    driven end to end."""
    return pytest.mark.parametrize("queue_backend", [name], indirect=True)


@pytest.fixture
def store(queue_backend: QueueBackend) -> Iterator[QueueStore]:
    with queue_backend.open() as opened:
        yield opened
