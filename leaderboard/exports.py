"""Download files, written to a temporary folder of the app (never into a run folder)."""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path

import pandas as pd

EXPORT_FORMATS = ("jsonl", "csv", "parquet")
KEEP_S = 3600.0
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def export_judgments(details: pd.DataFrame, fmt: str, downloads_dir: Path, run_id: str) -> Path:
    """Every per-item judgment of a run in one format, in a fresh folder under `downloads_dir`."""
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; expected one of {EXPORT_FORMATS}")
    path = _fresh_path(downloads_dir, f"{_UNSAFE.sub('_', run_id)}-judgments.{fmt}")
    if fmt == "jsonl":
        details.to_json(path, orient="records", lines=True, force_ascii=False)
    elif fmt == "csv":
        details.to_csv(path, index=False)
    else:
        details.to_parquet(path, index=False)
    return path


def export_view_csv(view: pd.DataFrame, downloads_dir: Path) -> Path:
    """The leaderboard rows and columns on screen, at full precision, as CSV."""
    path = _fresh_path(downloads_dir, "indic-writingbench-leaderboard.csv")
    view.to_csv(path, index=False)
    return path


def _fresh_path(downloads_dir: Path, name: str) -> Path:
    # One folder per file: two people downloading at once never overwrite each other's file.
    Path(downloads_dir).mkdir(parents=True, exist_ok=True)
    _prune(Path(downloads_dir))
    return Path(tempfile.mkdtemp(dir=downloads_dir)) / name


def _prune(downloads_dir: Path) -> None:
    """Remove export folders older than KEEP_S: each view change writes a fresh CSV."""
    cutoff = time.time() - KEEP_S
    for folder in downloads_dir.iterdir():
        try:
            if folder.is_dir() and folder.stat().st_mtime < cutoff:
                shutil.rmtree(folder)
        except OSError:
            continue  # another request pruned it first
