"""A run folder's items as a comparison reads them, checked where read: nothing malformed reaches the statistics.

details.parquet is checked as the board reads it (`item_values.checked_values`: the key columns,
each (config, index) once, every figure value finite and within its bounds). A comparison needs
one thing more: when the run's own items.jsonl gives the clusters, it must list every item
details.parquet scored, since a missing or truncated items.jsonl would leave those items without a
cluster and a comparison would lump them together. Each failure is a `RunFolderError` naming the
file, the column or the items at fault (the CLI prints it and exits 2; the board names it beside
the benchmark it could not compare).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.run_items import RunItems, read_run_items

NAMED_ITEMS = 5
"""Items named in a message about many (then "and N more")."""


def read_comparable_items(folder: RunFolder, clusters: pd.DataFrame | None = None) -> RunItems:
    """`read_run_items` of a folder whose details.parquet (and items.jsonl, unless `clusters` is given) hold."""
    if clusters is None and not folder.items_path.is_file():
        raise RunFolderError(f"{folder.items_path}: missing; a comparison needs every item's cluster, which the "
                             "run's items record")
    items = read_run_items(folder, clusters)
    if clusters is None:
        _check_clustered(items, folder.items_path)
    return items


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
