"""One folder per evaluated model revision: what was asked, answered, judged and scored.

    request.json      what was asked: model, revision, dataset, parameters
    items.jsonl       the items of the run (metadata and rubric; the query stays in the dataset)
    responses.jsonl   append-only, one line per (config, index)
    judgments.jsonl   append-only, one line per (config, index, criterion)
    summary.json      the aggregate the leaderboard shows
    details.parquet   one row per item, for download
"""

from __future__ import annotations

import fcntl
import os
import re
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from eval_backend.jsonl import JsonlAppender, StorageWriteError, parse_json, read_jsonl, to_json
from eval_backend.records import ItemKey, ResponseRecord, response_from_dict, to_json_dict
from eval_backend.redaction import mask_known_secrets
from eval_backend.write_guard import check_write

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


class RunFolderError(ValueError):
    """A run folder's file is unreadable; the message names the file and line."""


class RunFolderBusy(RunFolderError):
    """Another process holds the run folder: two writers would pay for every call twice."""


class RunFolder:
    """Paths and readers of one run folder; the writers append or replace atomically."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @classmethod
    def for_model(cls, runs_dir: Path, model_id: str, revision: str) -> RunFolder:
        """`runs/<org>__<name>/<revision>/`, each part a single safe folder name inside `runs_dir`."""
        return cls(Path(runs_dir) / _folder_name(model_id.replace("/", "__")) / _folder_name(revision or "main"))

    @property
    def request_path(self) -> Path:
        return self.path / "request.json"

    @property
    def items_path(self) -> Path:
        return self.path / "items.jsonl"

    @property
    def responses_path(self) -> Path:
        return self.path / "responses.jsonl"

    @property
    def judgments_path(self) -> Path:
        return self.path / "judgments.jsonl"

    @property
    def summary_path(self) -> Path:
        return self.path / "summary.json"

    @property
    def details_path(self) -> Path:
        return self.path / "details.parquet"

    @property
    def lock_path(self) -> Path:
        return self.path / ".lock"

    def create(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)

    def check_writable(self) -> None:
        """RunFolderError unless the folder is, or could be made, a folder this process can write in.

        Leaves nothing behind: it is the check made before anything of a run is written.
        """
        path = self.path.absolute()
        existing = next(p for p in (path, *path.parents) if p.exists() or p == p.parent)
        if not existing.is_dir():
            where = "is" if existing == path else f"is under {existing}, which is"
            raise RunFolderError(f"run folder {self.path} {where} a file, not a folder")
        try:  # a real write, not os.access: root passes every permission check, a read-only mount none
            probe, probe_path = tempfile.mkstemp(prefix=".write-probe-", dir=existing)
        except OSError as exc:
            raise RunFolderError(f"run folder {self.path}: cannot write in {existing} ({exc.strerror})") from exc
        os.close(probe)
        os.unlink(probe_path)

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the folder for this process; RunFolderBusy if another process holds it.

        An advisory `flock` on `.lock`: the kernel releases it when the holder exits in any way
        (`kill -9` included), so a dead process never leaves the folder blocked. Within one
        process the lock is not re-entrant.
        """
        self.create()
        handle = self.lock_path.open("a+", encoding="utf-8")
        try:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.seek(0)
                holder = handle.read().strip() or "another process"
                raise RunFolderBusy(
                    f"run folder {self.path} is in use by {holder}; wait for it to finish "
                    "(two runs on one folder would send every judge call twice)"
                ) from None
            handle.seek(0)
            handle.truncate()
            handle.write(f"pid {os.getpid()} on {os.uname().nodename}\n")
            handle.flush()
            yield
        finally:
            handle.close()  # closing the file releases the lock

    def write_request(self, request: dict[str, Any]) -> None:
        write_json_atomic(self.request_path, request)

    def read_request(self) -> dict[str, Any]:
        return _read_json(self.request_path)

    def write_items(self, items: Iterable[Any]) -> None:
        """Record the run's items (each a benchmark's frozen item record, `SuiteItem.meta()`); a resumed run
        with the same items leaves the file untouched. `recorded_items` reads them back."""
        text = "".join(to_json(to_json_dict(item)) + "\n" for item in items)
        if self.items_path.exists() and self.items_path.read_bytes() == text.encode("utf-8"):
            return
        _write_text_atomic(self.items_path, text)

    def response_appender(self) -> JsonlAppender:
        return JsonlAppender(self.responses_path)

    def read_responses(self) -> dict[ItemKey, ResponseRecord]:
        """The latest response line for each (config, index)."""
        return {record.key: record for record in read_records(self.responses_path, response_from_dict)}

    def write_summary(self, summary: dict[str, Any]) -> None:
        write_json_atomic(self.summary_path, summary)

    def read_summary(self) -> dict[str, Any]:
        return _read_json(self.summary_path)


def scored_stamp(folder: RunFolder, other: Path) -> tuple[str, int, int, int]:
    """The folder, its details.parquet's modification time and size, and `other`'s modification time: the key of
    a cached read of the scored run and one more of its files. RunFolderError when either is missing."""
    try:
        details, also = folder.details_path.stat(), other.stat()
    except FileNotFoundError as exc:
        raise RunFolderError(f"{folder.path}: no {exc.filename}; score the run first") from None
    return (str(folder.path), details.st_mtime_ns, details.st_size, also.st_mtime_ns)


def read_records(path: Path, build: Callable[[Mapping[str, Any]], Any], what: str = "record") -> Iterator[Any]:
    """Each line of a JSONL file of the run folder built into a record (`what` it is, for the error);
    RunFolderError names the file and the line at fault."""
    for number, data in _records(path):
        try:
            yield build(data)
        except (TypeError, ValueError, KeyError) as exc:
            raise RunFolderError(f"{path}:{number}: not a valid {what} ({exc})") from exc


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        yield from read_jsonl(path)
    except ValueError as exc:
        raise RunFolderError(str(exc)) from exc


def _folder_name(text: str) -> str:
    """`text` with path-unsafe characters replaced; never "." or "..", which would leave the folder."""
    name = _UNSAFE.sub("_", text)
    return name.replace(".", "_") if set(name) <= {"."} else name


def run_folder_of_id(runs_dir: Path, run_id: object) -> RunFolder | None:
    """The folder of run id `<org>__<name>/<revision>` inside `runs_dir`, or None for any other id.

    A run id may come from a client (a web request, a Hub listing), so it must name exactly one
    folder two levels under `runs_dir`: no absolute part (`/x`, `//x`, which `joinpath` would
    let replace `runs_dir`), no `.` or `..`, no backslash or NUL, no part longer than a file name
    may be (which `stat` would refuse with an error), and no symlink leading out.
    """
    if not isinstance(run_id, str):
        return None
    parts = run_id.split("/")
    if len(parts) != 2 or any(part in ("", ".", "..") or _FORBIDDEN_IN_ID.search(part)
                              or len(part.encode("utf-8", "surrogatepass")) > _MAX_NAME_BYTES for part in parts):
        return None
    root = Path(runs_dir)
    path = root / parts[0] / parts[1]
    try:
        inside = path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a symlink loop, or a name the OS refuses
        return None
    return RunFolder(path) if inside else None


_FORBIDDEN_IN_ID = re.compile(r"[\\\x00-\x1f]")
_MAX_NAME_BYTES = 255
"""The longest file name Linux and macOS allow, in bytes."""


def iter_run_folders(runs_dir: Path) -> Iterator[RunFolder]:
    """Every run folder under `runs_dir` that has a summary, in a stable order."""
    for summary in sorted(Path(runs_dir).glob("*/*/summary.json")):
        yield RunFolder(summary.parent)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON so a reader sees the old file or the new one, never half of one; registered secrets masked."""
    _write_text_atomic(path, to_json(mask_known_secrets(data), indent=2) + "\n")


def _write_text_atomic(path: Path, text: str) -> None:
    check_write()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise StorageWriteError.wrap(exc, path) from exc
    finally:
        tmp.unlink(missing_ok=True)


def _read_json(path: Path) -> dict[str, Any]:
    """The JSON object in `path`; RunFolderError naming the file for anything else."""
    try:
        data = parse_json(path.read_bytes(), path)
    except ValueError as exc:
        raise RunFolderError(str(exc)) from exc
    except OSError as exc:  # a folder where the file should be, or no permission
        raise RunFolderError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    if not isinstance(data, dict):
        raise RunFolderError(f"{path}: expected a JSON object, got {type(data).__name__}")
    return data


def recorded_items(benchmark: Any, folder: RunFolder) -> list[Any]:
    """The items a run folder recorded (items.jsonl), as its benchmark's `item_from_meta` reads them back."""
    return list(read_records(folder.items_path, benchmark.item_from_meta, "item"))
