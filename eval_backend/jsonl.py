"""Append-only JSONL: the unit of durability of a run folder.

A line is written and flushed as soon as its work is done, so a crash loses at most the
work in flight. A crash mid-write can leave a torn last line; readers detect it and
`repair_torn_tail` cuts it off before new lines are appended after it. Every line passes
`redaction.mask_known_secrets` as it is written: whatever text a record carries (an answer, a
judge's reason, an error), no configured secret reaches the file.

Encoding: UTF-8 with non-ASCII text as is (`to_json`). A lone surrogate (`\\ud800`), which a
judge or model can send inside a JSON string and Python keeps, has no UTF-8 form: it is written
as its JSON escape, so the file stays valid UTF-8 and reading it back gives the same string.
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import Any, Iterator

from eval_backend.redaction import mask_known_secrets
from eval_backend.write_guard import check_write

logger = logging.getLogger(__name__)


class JsonlCorruptError(ValueError):
    """A line other than the last one is not valid JSON: the file needs a human."""


class StorageWriteError(OSError):
    """Writing a run's file failed (disk full, read-only folder…); what was written before is intact."""

    @classmethod
    def wrap(cls, exc: OSError, path: Path) -> StorageWriteError:
        return cls(exc.errno, f"cannot write {path}: {exc.strerror or exc}")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def to_json(data: Any, indent: int | None = None) -> str:
    """JSON text that always encodes as UTF-8 and reads back equal: lone surrogates are escaped."""
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    # A surrogate can only stand inside a JSON string here, where its \uXXXX escape means the same.
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def without_surrogates(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD, for formats whose strings must be valid UTF-8 (parquet)."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def parse_json(raw: str | bytes, where: object) -> Any:
    """`json.loads` whose every failure (syntax, bad UTF-8, a huge number, deep nesting) is a ValueError naming `where`.

    Bytes must be UTF-8 (json.loads would guess UTF-16 or UTF-32 from them).
    """
    try:
        return json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not valid JSON ({exc.msg})") from exc
    except UnicodeDecodeError as exc:
        raise ValueError(f"{where}: not valid UTF-8 (byte {exc.start})") from exc
    except ValueError as exc:  # an integer past Python's digit limit
        raise ValueError(f"{where}: unreadable JSON ({exc})") from exc
    except RecursionError as exc:
        raise ValueError(f"{where}: JSON nested too deeply") from exc


class JsonlAppender:
    """Appends one JSON object per line to a file, flushing each line to the OS."""

    def __init__(self, path: Path, *, fsync: bool = False) -> None:
        self.path = path
        self._fsync = fsync
        path.parent.mkdir(parents=True, exist_ok=True)
        repair_torn_tail(path)
        self._file = path.open("a", encoding="utf-8")

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as a line, every registered secret masked; it is on disk (in the OS) when this returns."""
        check_write()
        line = to_json(mask_known_secrets(record)) + "\n"
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

    Raises JsonlCorruptError naming the file and line when a line before the last is not a
    JSON object in UTF-8 (a crash can tear the last line inside a character).
    """
    if not path.exists():
        return
    try:
        lines = path.read_bytes().splitlines(keepends=True)
    except OSError as exc:  # a folder where the file should be, or no permission: the folder needs a human too
        raise JsonlCorruptError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = parse_json(line, f"{path}:{number}")
        except ValueError as exc:
            if number == len(lines):
                logger.warning("%s:%d: ignoring a torn last line", path, number)
                return
            raise JsonlCorruptError(str(exc)) from exc
        if not isinstance(data, dict):
            raise JsonlCorruptError(f"{path}:{number}: expected a JSON object, got {type(data).__name__}")
        yield number, data


def _is_json(raw: bytes) -> bool:
    try:
        parse_json(raw, "")
    except ValueError:
        return False
    return True
