"""Download files, written to a temporary folder of the app (never into a run folder).

Each file is a pure function of what it exports, so it is written once under a name that says which version of the
data it holds and shared by every viewer who asks for it: a full run's judgments are tens of MB. CSV files start
with a UTF-8 byte-order mark (without it Excel reads Indic text in the system's legacy code page) and no text cell
can start a formula (OWASP's CSV injection rule).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Mapping

import pandas as pd

EXPORT_FORMATS = ("jsonl", "csv", "parquet")
KEEP_S = 3600.0
MAX_KEPT_FOLDERS = 256
"""Download folders kept at most, the least recently used removed first: each new query of the board writes its
own CSV, and a visitor sending a new search every second must not fill the disk within the hour. Above every
render cache's size (64 views each), so a view still cached keeps its file."""
MAX_KEPT_BYTES = 2 * 1024**3
"""Bytes of download files kept at most (a full run's judgments are tens of MB in each format)."""
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is a formula (or becomes one) in a spreadsheet."""


def export_judgments(details: pd.DataFrame, fmt: str, downloads_dir: Path, run_id: str, version: str) -> Path:
    """Every per-item judgment of a run in one format; `version` names the state of its details."""
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; expected one of {EXPORT_FORMATS}")
    writers: dict[str, Callable[[Path], object]] = {
        "jsonl": lambda path: details.to_json(path, orient="records", lines=True, force_ascii=False),
        "csv": lambda path: write_csv(details, path),
        "parquet": lambda path: details.to_parquet(path, index=False),
    }
    name = _UNSAFE.sub("_", run_id)
    return _write_once(Path(downloads_dir), f"judgments-{name}-{version}", f"{name}-judgments.{fmt}", writers[fmt])


def export_view_csv(view: pd.DataFrame, downloads_dir: Path, version: str, file_name: str) -> Path:
    """The rows and columns on screen, at full precision, as CSV named `file_name`; `version` names the view."""
    return _write_once(Path(downloads_dir), f"board-{version}", file_name, lambda path: write_csv(view, path))


def export_json(document: Mapping[str, Any], downloads_dir: Path, file_name: str) -> Path:
    """`document` as indented UTF-8 JSON (json.dumps, as the CLI prints it), written once per content."""
    text = json.dumps(document, ensure_ascii=False, indent=2)
    return _write_once(Path(downloads_dir), f"json-{content_digest(text)}", file_name,
                       lambda path: path.write_text(text, encoding="utf-8"))


def export_bytes(data: bytes, downloads_dir: Path, file_name: str) -> Path:
    """`data` as a download named `file_name`, written once per content (atomically: a reader never sees part)."""
    folder = f"file-{content_digest(data)}"
    return _write_once(Path(downloads_dir), folder, file_name, lambda path: path.write_bytes(data))


def content_digest(content: str | bytes) -> str:
    """A short name for a download's content: the same content, the same name."""
    return hashlib.sha256(content.encode("utf-8") if isinstance(content, str) else content).hexdigest()[:20]


def safe_name(text: str, limit: int = 80) -> str:
    """`text` as a file name part: only letters, digits and `._-`, at most `limit` characters."""
    return _UNSAFE.sub("_", text)[:limit]


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """`frame` as a spreadsheet-safe CSV: BOM first, every text cell and header neutralised."""
    safe = frame.rename(columns=neutralise_cell)
    text_columns = [name for name in safe.columns if not pd.api.types.is_numeric_dtype(safe[name])]
    safe[text_columns] = safe[text_columns].map(neutralise_cell)
    # CRLF rows (RFC 4180) also make the writer quote a cell holding a lone CR, which would
    # otherwise split its row in two.
    safe.to_csv(path, index=False, encoding="utf-8-sig", lineterminator="\r\n")


def neutralise_cell(value: Any) -> Any:
    """A text that a spreadsheet would run as a formula, prefixed with `'` so it is shown as text."""
    return f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def _write_once(downloads_dir: Path, folder_name: str, file_name: str, write: Callable[[Path], object]) -> Path:
    folder = downloads_dir / _UNSAFE.sub("_", folder_name)
    path = folder / file_name
    if path.exists():
        os.utime(folder)  # in use: keep it from being pruned
        return path
    _prune(downloads_dir)
    folder.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=folder, suffix=".part")  # two viewers may write it at once
    os.close(handle)
    write(Path(tmp))
    os.replace(tmp, path)
    return path


def _prune(downloads_dir: Path) -> None:
    """Remove export folders unused for KEEP_S, then the least recently used past MAX_KEPT_FOLDERS or
    MAX_KEPT_BYTES (a new one is about to be written)."""
    if not downloads_dir.exists():
        return
    cutoff = time.time() - KEEP_S
    kept = []
    for folder in downloads_dir.iterdir():
        try:
            if not folder.is_dir():
                continue
            used = folder.stat().st_mtime
            if used < cutoff:
                shutil.rmtree(folder)
            else:
                kept.append((used, sum(path.stat().st_size for path in folder.iterdir()), folder))
        except OSError:
            continue  # another request pruned it first
    kept.sort()
    total = sum(size for _, size, _ in kept)
    while kept and (len(kept) >= MAX_KEPT_FOLDERS or total > MAX_KEPT_BYTES):
        _, size, folder = kept.pop(0)
        total -= size
        shutil.rmtree(folder, ignore_errors=True)
