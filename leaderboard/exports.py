"""Download files, written to a temporary folder of the app (never into a run folder).

Each file is a pure function of what it exports, so it is written once under a name that
says which version of the data it holds, and shared by every viewer who asks for it: a
full run's judgments are tens of MB, and every view of the board offers its CSV.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable

import pandas as pd

EXPORT_FORMATS = ("jsonl", "csv", "parquet")
KEEP_S = 3600.0
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def export_judgments(details: pd.DataFrame, fmt: str, downloads_dir: Path, run_id: str, version: str) -> Path:
    """Every per-item judgment of a run in one format; `version` names the state of its details."""
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; expected one of {EXPORT_FORMATS}")
    writers: dict[str, Callable[[Path], object]] = {
        "jsonl": lambda path: details.to_json(path, orient="records", lines=True, force_ascii=False),
        "csv": lambda path: details.to_csv(path, index=False),
        "parquet": lambda path: details.to_parquet(path, index=False),
    }
    name = _UNSAFE.sub("_", run_id)
    return _write_once(Path(downloads_dir), f"judgments-{name}-{version}", f"{name}-judgments.{fmt}", writers[fmt])


def export_view_csv(view: pd.DataFrame, downloads_dir: Path, version: str) -> Path:
    """The leaderboard rows and columns on screen, at full precision, as CSV; `version` names the view."""
    return _write_once(
        Path(downloads_dir), f"board-{version}", "indic-writingbench-leaderboard.csv",
        lambda path: view.to_csv(path, index=False),
    )


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
    """Remove export folders unused for KEEP_S."""
    if not downloads_dir.exists():
        return
    cutoff = time.time() - KEEP_S
    for folder in downloads_dir.iterdir():
        try:
            if folder.is_dir() and folder.stat().st_mtime < cutoff:
                shutil.rmtree(folder)
        except OSError:
            continue  # another request pruned it first
