"""A real PostgreSQL server for the tests, in a temporary folder: `initdb`, then `pg_ctl start`.

Debian's `postgresql-15` package (which `make test` installs when missing) puts the binaries in
`/usr/lib/postgresql/<version>/bin`. The server listens on 127.0.0.1 at a free port with trust
authentication and no Unix socket, and is stopped (`pg_ctl stop -m immediate`) and its folder
removed at the end. `initdb` refuses to run as root, so under root (as in CI) the server runs
as the `postgres` user the package creates, in a folder that user owns.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Iterator

import psycopg

SERVER_USER = "postgres"
START_TIMEOUT_S = 60


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL binaries or the user to run them as are missing; the message says how to install them."""


def _binary(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    if not found:
        raise PostgresUnavailable(
            f"PostgreSQL's `{name}` was not found (on PATH or in /usr/lib/postgresql/*/bin); "
            "`make test` installs it, or run `apt-get install postgresql-15`"
        )
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    """One throwaway server; `new_database()` gives each test its own empty database."""

    def __init__(self) -> None:
        self._as_root = os.geteuid() == 0
        self.root = Path(tempfile.mkdtemp(prefix="wb-postgres-"))
        self.data_dir = self.root / "data"
        self.port = _free_port()
        self.log = self.root / "server.log"

    def _run(self, *command: str) -> None:
        argv = ["runuser", "-u", SERVER_USER, "--", *command] if self._as_root else list(command)
        result = subprocess.run(argv, capture_output=True, text=True, timeout=START_TIMEOUT_S, check=False)
        if result.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed ({result.returncode}): {result.stderr[-2000:]}\n{log}")

    def start(self) -> PostgresServer:
        if self._as_root:
            try:
                owner = pwd.getpwnam(SERVER_USER)
            except KeyError as exc:
                raise PostgresUnavailable(
                    f"running as root, the test server needs the `{SERVER_USER}` user that postgresql-15 creates"
                ) from exc
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        self._run(_binary("initdb"), "-D", str(self.data_dir), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--no-sync", "--no-instructions")
        self.restart()
        return self

    def restart(self) -> None:
        """Start the server on its folder and port (again, after `halt`)."""
        options = f"-h 127.0.0.1 -p {self.port} -k '' -F -c max_connections=200"
        self._run(_binary("pg_ctl"), "-D", str(self.data_dir), "-l", str(self.log), "-o", options, "-w",
                  "-t", str(START_TIMEOUT_S), "start")

    def halt(self) -> None:
        """Stop the server as an administrator would (`-m fast`: clients get AdminShutdown), keeping its data."""
        self._run(_binary("pg_ctl"), "-D", str(self.data_dir), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        try:
            if (self.data_dir / "postmaster.pid").exists():  # not already halted
                self._run(_binary("pg_ctl"), "-D", str(self.data_dir), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database on this server."""
        name = f"test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def running_server() -> Iterator[PostgresServer]:
    """A started server, stopped and removed when the generator is closed (for a session fixture)."""
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()
