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
from eval_backend.write_guard import check_write


def write_details(frame: pd.DataFrame, path: Path) -> None:
    """Write the table atomically as parquet."""
    check_write()
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        frame.to_parquet(tmp, index=False)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise StorageWriteError.wrap(exc, path) from exc


def read_details(path: Path, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Read a details.parquet written by `write_details`; with `columns`, only those of them it has
    (the per-item texts are most of the file, and a statistic needs none of them)."""
    if columns is None:
        return pd.read_parquet(path)
    present = set(pq.read_schema(path).names)
    return pd.read_parquet(path, columns=[column for column in columns if column in present])
