"""A run folder's items as a comparison reads them, checked where read: nothing malformed reaches the statistics.

details.parquet must be a parquet file with the key columns (`config` text, `index` whole numbers)
and the columns the benchmark's figures read; each (config, index) once; every figure value a finite
number or missing. When the run's own items.jsonl gives the clusters, it must list every item
details.parquet scored: a missing or truncated items.jsonl would otherwise leave those items
without a cluster, and a comparison would lump them together. Each failure is a `RunFolderError`
naming the file, the column or the items at fault (the CLI prints it and exits 2; the board names it
beside the benchmark it could not compare).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.run_items import KEY, RunItems, folder_benchmark, read_run_items

NAMED_ITEMS = 5
"""Items named in a message about many (then "and N more")."""


def read_comparable_items(folder: RunFolder, clusters: pd.DataFrame | None = None) -> RunItems:
    """`read_run_items` of a folder whose details.parquet (and items.jsonl, unless `clusters` is given) hold."""
    benchmark = folder_benchmark(folder)
    if benchmark.item_statistics is not None and folder.details_path.is_file():
        check_details_schema(folder.details_path, [*KEY, *benchmark.item_statistics().columns])
    if clusters is None and not folder.items_path.is_file():
        raise RunFolderError(f"{folder.items_path}: missing; a comparison needs every item's cluster, which the "
                             "run's items record")
    try:
        items = read_run_items(folder, clusters)
    except pa.ArrowException as exc:
        raise RunFolderError(f"{folder.details_path}: not a readable parquet file ({exc})") from exc
    _check_unique(items, folder.details_path)
    _check_finite(items, [figure.name for figure in items.statistics.figures], folder.details_path)
    if clusters is None:
        _check_clustered(items, folder.items_path)
    return items


def check_details_schema(path: Path, required: Sequence[str]) -> None:
    """RunFolderError unless `path` is a parquet file with the `required` columns, `config` text and `index` integer."""
    try:
        schema = pq.read_schema(path)
    except (pa.ArrowException, OSError) as exc:
        raise RunFolderError(f"{path}: not a readable parquet file ({exc})") from exc
    missing = [column for column in required if column not in schema.names]
    if missing:
        raise RunFolderError(f"{path}: no column {', '.join(map(repr, missing))}; a comparison needs {list(required)}")
    config_type, index_type = schema.field("config").type, schema.field("index").type
    if pa.types.is_dictionary(config_type):
        config_type = config_type.value_type
    if not (pa.types.is_string(config_type) or pa.types.is_large_string(config_type)):
        raise RunFolderError(f"{path}: column 'config' holds {config_type}, not text (a config name)")
    if not pa.types.is_integer(index_type):
        raise RunFolderError(f"{path}: column 'index' holds {index_type}, not whole numbers (an item's index)")


def _check_unique(items: RunItems, path: Path) -> None:
    repeated = items.items.index[items.items.index.duplicated(keep="first")].unique()
    if len(repeated):
        raise RunFolderError(f"{path}: {len(repeated)} item(s) appear more than once ({_named(repeated)}); "
                             "each (config, index) must be one row")


def _check_finite(items: RunItems, figures: Sequence[str], path: Path) -> None:
    values = items.items[list(figures)].to_numpy(float)
    infinite = np.isinf(values).any(axis=1)
    if infinite.any():
        raise RunFolderError(f"{path}: item(s) with an infinite score ({_named(items.items.index[infinite])}); "
                             "a score must be a finite number or missing")


def _check_clustered(items: RunItems, path: Path) -> None:
    unlisted = items.items["cluster"].isna().to_numpy()
    if unlisted.any():
        raise RunFolderError(f"{path}: {int(unlisted.sum())} scored item(s) are not listed "
                             f"({_named(items.items.index[unlisted])}): the file is truncated or another run's, "
                             "and a comparison needs every item's cluster")


def _named(keys: pd.Index) -> str:
    """The first few (config, index) keys as `Hindi #3`, and how many more."""
    shown = ", ".join(f"{config} #{index}" for config, index in list(keys)[:NAMED_ITEMS])
    return shown + (f" and {len(keys) - NAMED_ITEMS} more" if len(keys) > NAMED_ITEMS else "")
