"""What the mirror remembers on the local disk, under `DATA_DIR/hub_sync/`.

    outbox/<key>.json   a run folder whose push has not succeeded yet (written before the push)
    synced/<key>.json   the remote files of a run folder as last pushed or pulled
    results_head.txt    the results repo commit the last complete pull saw

One small file per run folder, each replaced atomically, so the app and a worker in other
processes never read-modify-write the same file. `<key>` is the run folder's path under
`runs/` with the `/` replaced by `+` (a character RunFolder never puts in a name).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from eval_backend.hub_sync._hub import RemoteFile
from eval_backend.records import utc_now
from eval_backend.run_folder import write_json_atomic


@dataclass(frozen=True)
class PendingPush:
    """A run folder waiting to be pushed: since when, how many tries failed, and the last error."""

    run: str
    queued_at: str
    failed_attempts: int = 0
    last_error: str | None = None


def run_key(run: str) -> str:
    return run.replace("/", "+")


class Ledger:
    """The outbox of pending pushes and the record of what each run folder was synced to."""

    def __init__(self, data_dir: Path) -> None:
        self.root = Path(data_dir) / "hub_sync"

    # -- the outbox ---------------------------------------------------------------------------

    def _outbox_path(self, run: str) -> Path:
        return self.root / "outbox" / f"{run_key(run)}.json"

    def enqueue(self, run: str) -> PendingPush:
        """Mark `run` (e.g. "org__name/rev") as to be pushed, keeping an existing marker's history."""
        pending = self.pending(run) or PendingPush(run, utc_now())
        write_json_atomic(self._outbox_path(run), asdict(pending))
        return pending

    def record_failure(self, run: str, error: str) -> None:
        pending = self.pending(run) or PendingPush(run, utc_now())
        failed = PendingPush(run, pending.queued_at, pending.failed_attempts + 1, error)
        write_json_atomic(self._outbox_path(run), asdict(failed))

    def done(self, run: str) -> None:
        self._outbox_path(run).unlink(missing_ok=True)

    def pending(self, run: str) -> PendingPush | None:
        path = self._outbox_path(run)
        return PendingPush(**json.loads(path.read_text(encoding="utf-8"))) if path.exists() else None

    def all_pending(self) -> list[PendingPush]:
        """Every pending push, oldest first."""
        markers = sorted((self.root / "outbox").glob("*.json"))
        pushes = [PendingPush(**json.loads(path.read_text(encoding="utf-8"))) for path in markers]
        return sorted(pushes, key=lambda push: push.queued_at)

    # -- what each run folder was synced to ----------------------------------------------------

    def _synced_path(self, run: str) -> Path:
        return self.root / "synced" / f"{run_key(run)}.json"

    def synced(self, run: str) -> dict[str, RemoteFile] | None:
        """The run folder's files (name -> remote identity) as last pushed or pulled; None if never."""
        path = self._synced_path(run)
        if not path.exists():
            return None
        return {name: RemoteFile(**entry) for name, entry in json.loads(path.read_text(encoding="utf-8")).items()}

    def record_synced(self, run: str, files: dict[str, RemoteFile]) -> None:
        write_json_atomic(self._synced_path(run), {name: asdict(file) for name, file in sorted(files.items())})

    # -- the results repo head seen by the last pull ------------------------------------------

    def results_head(self) -> str | None:
        path = self.root / "results_head.txt"
        return path.read_text(encoding="utf-8").strip() if path.exists() else None

    def record_results_head(self, sha: str) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "results_head.txt").write_text(sha + "\n", encoding="utf-8")
