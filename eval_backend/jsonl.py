"""Append-only JSONL: the unit of durability of a run folder.

A line is written and flushed as soon as its work is done, so a crash loses at most the
work in flight. A crash mid-write can leave a torn last line; readers detect it and
`repair_torn_tail` cuts it off before new lines are appended after it.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Iterator

logger = logging.getLogger(__name__)


class JsonlCorruptError(ValueError):
    """A line other than the last one is not valid JSON: the file needs a human."""


class StorageWriteError(OSError):
    """Writing a run's file failed (disk full, read-only folder…); what was written before is intact."""

    @classmethod
    def wrap(cls, exc: OSError, path: Path) -> StorageWriteError:
        return cls(exc.errno, f"cannot write {path}: {exc.strerror or exc}")


class JsonlAppender:
    """Appends one JSON object per line to a file, flushing each line to the OS."""

    def __init__(self, path: Path, *, fsync: bool = False) -> None:
        self.path = path
        self._fsync = fsync
        path.parent.mkdir(parents=True, exist_ok=True)
        repair_torn_tail(path)
        self._file = path.open("a", encoding="utf-8")

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as a line; it is on disk (in the OS) when this returns."""
        line = json.dumps(record, ensure_ascii=False) + "\n"
        try:
            self._file.write(line)
            self._file.flush()
            if self._fsync:
                os.fsync(self._file.fileno())
        except OSError as exc:
            raise StorageWriteError.wrap(exc, self.path) from exc

    def close(self) -> None:
        try:
            self._file.close()
        except OSError:
            logger.warning("%s: buffered data could not be flushed on close", self.path)

    def __enter__(self) -> JsonlAppender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def repair_torn_tail(path: Path) -> bool:
    """Cut a torn last line (no newline, or not JSON) off `path`; True if it did."""
    if not path.exists() or path.stat().st_size == 0:
        return False
    data = path.read_bytes()
    last_start = data.rfind(b"\n", 0, len(data) - 1) + 1
    tail = data[last_start:]
    if _is_json(tail):
        if not tail.endswith(b"\n"):
            with path.open("ab") as handle:
                handle.write(b"\n")
        return False
    logger.warning("%s: removing a torn last line (%d bytes) left by an interrupted write", path, len(tail))
    with path.open("r+b") as handle:
        handle.truncate(last_start)
    return True


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each line; a torn last line is skipped.

    Raises JsonlCorruptError naming the line when a line before the last is not JSON.
    """
    if not path.exists():
        return
    with path.open("r", encoding="utf-8") as handle:
        lines = handle.readlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            if number == len(lines):
                logger.warning("%s:%d: ignoring a torn last line", path, number)
                return
            raise JsonlCorruptError(f"{path}:{number}: not valid JSON ({exc.msg})") from exc


def _is_json(raw: bytes) -> bool:
    try:
        json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return False
    return True
