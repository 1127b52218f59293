"""A run's per-item figure values: read from details.parquet once, checked, kept beside it in a compact file.

What the statistics take of a run (the joint bootstrap, the pairwise matrix, `compare`, About's
precision) is the benchmark's `ItemStatistics.values` of its details.parquet: the item keys, the
subset columns and one float column per figure. Reading that from a full-size details.parquet
(tens of MB of answers and reasons) costs tens of ms, and a board of 500 runs paid it at every
start; so the engine writes the values once at scoring, as an Arrow file (ITEM_VALUES_FILE: text
columns as dictionaries, LZ4; about 30 KB at full size, read in about a ms), and a run scored
before that gets it on its first read. It is mirrored to the Hub with the folder, so its bytes depend only on what it
was taken from: the details.parquet (its size and a hash of its last 64 KiB, where parquet keeps
its footer of column sizes and statistics) and the figures it holds. It is stale, and taken
again, when that fingerprint differs, when details.parquet is newer than it (written in place
since), or when the benchmark's figures changed. A folder that cannot be written (read-only)
still reads, from details.parquet.

The checks (`checked_values`) are the declared shape every reader relies on: the key columns
present, `config` text and `index` whole numbers, each (config, index) once, at least one item,
and each figure's values finite and within the figure's declared bounds (NaN: the item does not
count in it). A file that fails is a RunFolderError naming the file and the column.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.feather as feather

from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.details import read_details
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.write_guard import check_write

logger = logging.getLogger(__name__)

ITEM_VALUES_FILE = "item_values.arrow"
KEY = ["config", "index"]
_SOURCE, _FIGURES, _MEASURES = b"details_parquet", b"figures", b"answer_measures"
MEASURE_PREFIX = "answer."
"""The compact file's answer measures (`answer_style`) are its columns named with this prefix, apart from the
figure values, which every reader of `item_values` takes without them."""
_UNREADABLE = (OSError, ValueError, TypeError, pa.ArrowException)
"""What pyarrow and pandas raise on a damaged, truncated or foreign file."""


def item_values(folder: RunFolder, statistics: ItemStatistics) -> pd.DataFrame:
    """The run's checked per-item values (`checked_values`): from the compact file when it is current, else
    from details.parquet, then kept in the compact file. RunFolderError names the file and what is wrong."""
    source = _fingerprint(folder.details_path)
    kept = _read_kept(folder, statistics, source)
    if kept is not None:
        return kept
    values = values_of_details(folder, statistics)
    _keep(folder, statistics, values, source)
    return values


def kept_measures(folder: RunFolder, statistics: ItemStatistics, columns: list[str]) -> pd.DataFrame | None:
    """The answer measures kept in the compact file (KEY and `columns`), when it is current (and newer than
    responses.jsonl, whose token counts they hold) and holds exactly those columns; else None."""
    table = _kept_table(folder, statistics, _fingerprint(folder.details_path))
    if table is None or (table.schema.metadata or {}).get(_MEASURES) != ",".join(columns).encode():
        return None
    if _mtime(folder.path / ITEM_VALUES_FILE) < _mtime(folder.responses_path):
        return None  # answers recorded since: their token counts are taken again
    measures = _decoded(table.select([*KEY, *(MEASURE_PREFIX + column for column in columns)])).to_pandas()
    return measures.rename(columns=lambda column: column.removeprefix(MEASURE_PREFIX))


def keep_measures(folder: RunFolder, statistics: ItemStatistics, measures: pd.DataFrame) -> None:
    """Keep a run's answer measures (KEY, then one column each, row for row with its items) in the compact file,
    beside its figure values, so a cold start reads them from there."""
    values = item_values(folder, statistics)
    columns = [column for column in measures.columns if column not in KEY]
    kept = values.merge(measures.rename(columns={column: MEASURE_PREFIX + column for column in columns}),
                        on=KEY, how="left")
    _keep(folder, statistics, kept, _fingerprint(folder.details_path), ",".join(columns).encode())


def write_item_values(folder: RunFolder, statistics: ItemStatistics, details: pd.DataFrame) -> None:
    """Write the compact file from the details just written to the folder (scoring calls this)."""
    check_write()
    values = checked_values(_values(details, statistics, folder.details_path), statistics, folder.details_path)
    _keep(folder, statistics, values, _fingerprint(folder.details_path))


def values_of_details(folder: RunFolder, statistics: ItemStatistics) -> pd.DataFrame:
    """The checked per-item values read from details.parquet itself (only the columns they need)."""
    path = folder.details_path
    wanted = list(dict.fromkeys([*KEY, *statistics.subsets, *statistics.columns]))
    try:
        details = read_details(path, wanted)
    except _UNREADABLE as exc:
        raise RunFolderError(f"{path}: not a readable parquet table ({_reason(exc)})") from None
    return checked_values(_values(details, statistics, path), statistics, path)


def checked_values(values: pd.DataFrame, statistics: ItemStatistics, path: Path) -> pd.DataFrame:
    """`values` (key, subset and figure columns) if they have the declared shape; RunFolderError naming the
    file and column otherwise. The index comes back as int64, the figures as float64."""
    if values.empty:
        raise RunFolderError(f"{path}: holds no items")
    config, index = values["config"], values["index"]
    if not pd.api.types.is_string_dtype(config) or config.isna().any() or not config.str.len().all():
        raise RunFolderError(f"{path}: column 'config' must hold non-empty text in every row")
    if not pd.api.types.is_integer_dtype(index) or index.isna().any():
        raise RunFolderError(f"{path}: column 'index' must hold whole numbers in every row, not {index.dtype}")
    repeated = values.duplicated(KEY)
    if repeated.any():
        config_name, number = values.loc[repeated, KEY].iloc[0]
        times = int(((config == config_name) & (index == number)).sum())
        others = values.loc[repeated, KEY].drop_duplicates().shape[0] - 1
        raise RunFolderError(f"{path}: item ({config_name!r}, {number}) appears {times} times"
                             + (f" (and {others} more item(s) repeat)" if others else "")
                             + "; each (config, index) must appear once")
    checked = values.reset_index(drop=True)
    if index.dtype != "int64":
        checked["index"] = index.to_numpy("int64")
    for figure in statistics.figures:
        checked[figure.name] = _checked_figure(checked[figure.name], figure.name, figure.bounds, path)
    return checked


def _values(details: pd.DataFrame, statistics: ItemStatistics, path: Path) -> pd.DataFrame:
    """Key and subset columns, then the benchmark's figure values, row for row with `details`."""
    for column in KEY:
        if column not in details:
            raise RunFolderError(f"{path}: no column {column!r}")
    try:
        figures = statistics.values(details)
    except KeyError as exc:
        raise RunFolderError(f"{path}: no column {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        raise RunFolderError(f"{path}: a column the figures read is malformed ({_reason(exc)})") from None
    subsets = [column for column in statistics.subsets if column in details]
    return pd.concat([details[KEY + subsets], figures], axis=1)


def _checked_figure(values: pd.Series, name: str, bounds: tuple[float, float] | None, path: Path) -> pd.Series:
    try:
        numbers = values if values.dtype == "float64" else values.astype("float64")
    except (TypeError, ValueError):
        raise RunFolderError(f"{path}: figure {name!r} has values that are not numbers") from None
    array = numbers.to_numpy()
    present = array[~np.isnan(array)]
    low, high = bounds or (-np.inf, np.inf)
    outside = ~(np.isfinite(present) & (present >= low) & (present <= high))
    if outside.any():
        where = f"within [{low:g}, {high:g}]" if bounds else "finite"
        raise RunFolderError(f"{path}: figure {name!r} must be {where}; {int(outside.sum())} item(s) are not "
                             f"(first: {present[outside][0]!r})")
    return numbers


def _read_kept(folder: RunFolder, statistics: ItemStatistics, source: bytes) -> pd.DataFrame | None:
    """The compact file's values when it was taken from today's details.parquet for today's figures, else None."""
    path = folder.path / ITEM_VALUES_FILE
    table = _kept_table(folder, statistics, source)
    if table is None:
        return None
    figures = table.select([name for name in table.column_names if not name.startswith(MEASURE_PREFIX)])
    try:
        return checked_values(_decoded(figures).to_pandas(), statistics, path)
    except (*_UNREADABLE, RunFolderError, KeyError) as exc:  # damaged: taken again from details.parquet
        logger.warning("%s: taking it again from details.parquet (%s)", path, _reason(exc))
        return None


def _kept_table(folder: RunFolder, statistics: ItemStatistics, source: bytes) -> pa.Table | None:
    """The compact file when it was taken from today's details.parquet for today's figures, else None."""
    path = folder.path / ITEM_VALUES_FILE
    try:
        if path.stat().st_mtime_ns < folder.details_path.stat().st_mtime_ns:
            return None  # details.parquet written in place since
        table = feather.read_table(path, memory_map=False)
        metadata = table.schema.metadata or {}
        if metadata.get(_SOURCE) != source or metadata.get(_FIGURES) != _figure_names(statistics):
            return None
        return table
    except FileNotFoundError:
        return None
    except (*_UNREADABLE, KeyError) as exc:  # damaged: taken again from details.parquet
        logger.warning("%s: taking it again from details.parquet (%s)", path, _reason(exc))
        return None


def _keep(folder: RunFolder, statistics: ItemStatistics, values: pd.DataFrame, source: bytes,
          measures: bytes | None = None) -> None:
    """Write the compact file atomically (`measures`: the names of the answer measures it holds); a folder that
    cannot be written keeps reading details.parquet."""
    table = _encoded(pa.Table.from_pandas(values, preserve_index=False))
    metadata = {_SOURCE: source, _FIGURES: _figure_names(statistics), **({_MEASURES: measures} if measures else {})}
    table = table.replace_schema_metadata(metadata)
    # One temporary name per writer: the board reads a run from several threads at once.
    tmp = folder.path / f".{ITEM_VALUES_FILE}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        try:
            feather.write_feather(table, tmp, compression="lz4")
            os.replace(tmp, folder.path / ITEM_VALUES_FILE)
        finally:
            tmp.unlink(missing_ok=True)
    except OSError as exc:
        logger.info("%s: item values not kept (%s)", folder.path, exc.strerror or exc)


def _encoded(table: pa.Table) -> pa.Table:
    """Text columns (config, variant, domain: a few values each) as dictionaries: a tenth of the bytes."""
    columns = [pc.dictionary_encode(column) if pa.types.is_string(column.type) or pa.types.is_large_string(
        column.type) else column for column in table.columns]
    return pa.table(columns, names=table.column_names)


def _decoded(table: pa.Table) -> pa.Table:
    columns = [column.cast(column.type.value_type) if pa.types.is_dictionary(column.type) else column
               for column in table.columns]
    return pa.table(columns, names=table.column_names)


def _fingerprint(details_path: Path) -> bytes:
    """Size and a hash of the last FOOTER_BYTES of details.parquet: what the compact file was taken from.

    Content alone (no modification time), so a copy of the folder, or one pulled from the Hub, keeps it."""
    try:
        with details_path.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - FOOTER_BYTES))
            tail = handle.read()
    except FileNotFoundError:
        raise RunFolderError(f"{details_path.parent}: no details.parquet; score the run first") from None
    return f"{size}:{hashlib.sha256(tail).hexdigest()}".encode()


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:
        return 0


FOOTER_BYTES = 64 * 1024
"""Parquet keeps its footer (every column chunk's offsets, sizes and statistics) at the end of the file."""


def _figure_names(statistics: ItemStatistics) -> bytes:
    return ",".join(figure.name for figure in statistics.figures).encode()


def _reason(exc: Any) -> str:
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
