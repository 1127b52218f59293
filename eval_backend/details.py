"""details.parquet, every benchmark's per-item download: its single writer and reader.

Run metadata (model, revision, judge) is kept in columns, so a file means the same thing wherever
it is copied; what the rows hold is each benchmark's (`scorer_runs.details_row` by default,
WritingBench's `benchmarks.writing_bench.details`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd
import pyarrow.parquet as pq

from eval_backend.jsonl import StorageWriteError
from eval_backend.redaction import mask_known_secrets
from eval_backend.write_guard import check_write


def write_details(frame: pd.DataFrame, path: Path) -> None:
    """Write the table atomically as parquet, every registered secret masked in its texts (lines
    written before a secret was registered included)."""
    check_write()
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        _texts_masked(frame).to_parquet(tmp, index=False)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise StorageWriteError.wrap(exc, path) from exc


def _texts_masked(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with `mask_known_secrets` applied to its text cells (a copy only when one changes)."""
    masked = frame
    for column in frame.columns:
        if not (pd.api.types.is_object_dtype(frame[column]) or pd.api.types.is_string_dtype(frame[column])):
            continue
        cells = frame[column].tolist()
        cleaned = [mask_known_secrets(cell) if isinstance(cell, str) else cell for cell in cells]
        if any(new is not old for new, old in zip(cleaned, cells)):
            masked = frame.copy() if masked is frame else masked
            masked[column] = cleaned
    return masked


def read_details(path: Path, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Read a details.parquet written by `write_details`; with `columns`, only those of them it has
    (the per-item texts are most of the file, and a statistic needs none of them)."""
    if columns is None:
        return pd.read_parquet(path)
    present = set(pq.read_schema(path).names)
    return pd.read_parquet(path, columns=[column for column in columns if column in present])
