"""One joint bootstrap of a benchmark's figure over several run folders on one dataset revision.

The runs' per-item values are read from their details.parquet (only the columns the figure
needs) and aligned item by item on the first run's items; the clusters come from the first
run's items.jsonl alone (every run on one revision has the same items), since reading 500
items.jsonl files would cost seconds. Every run must have a value on every item the figure
counts, as a complete run does: one that lacks some is refused rather than compared on fewer
items than its summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

import numpy as np
import pandas as pd

from eval_backend.benchmarks.item_statistics import Figure, ItemStatistics
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.run_items import KEY, figure_values, read_run_items
from eval_backend.statistics import DEFAULT_SEED, Design, JointBootstrap, item_design, joint_bootstrap

Loader = Callable[[Hashable, Callable[[], Any]], Any]
"""`get_or_load(key, load)` of a cache the caller keeps (a board keeps one across its states)."""


@dataclass(frozen=True, eq=False)
class _Reference:
    """The first run's items that count in the figure (key columns and cluster), and the figure."""

    counted: pd.DataFrame
    figure: Figure
    statistics: ItemStatistics


def joint_ranking(
    folders: Sequence[RunFolder], figure: str, replicates: int | None = None, seed: int = DEFAULT_SEED,
    cached: Loader | None = None,
) -> JointBootstrap:
    """The joint bootstrap of `figure` over the runs, in the order given; RunFolderError when they do not align.

    With `cached`, what was read from a folder is kept under its files' modification stamps, so a
    board whose one run changed reads that run again, not all of them.
    """
    aligned = aligned_figure(folders, figure, cached)
    return joint_bootstrap(aligned.values, aligned.design, replicates, seed, aligned.figure.higher_is_better,
                           endpoint_error=aligned.figure.endpoint_error)


@dataclass(frozen=True, eq=False)
class AlignedFigure:
    """One figure's per-item values of several runs, item by item: (runs, items), with the items' design."""

    figure: Figure
    values: np.ndarray
    design: Design
    configs: tuple[str, ...]
    """Per item (column), its config."""


def aligned_figure(folders: Sequence[RunFolder], figure: str, cached: Loader | None = None) -> AlignedFigure:
    """The runs' values of `figure` on the items it counts, aligned on the first run's; RunFolderError when they differ."""
    if not folders:
        raise ValueError("no run to rank")
    load = cached or (lambda key, build: build())
    stamps = [_stamp(folder) for folder in folders]  # a folder without its tables fails before any read
    reference = load(("reference", stamps[0], figure), lambda: _reference(folders[0], figure))
    values = np.stack([
        load(("values", stamp, stamps[0], figure), lambda folder=folder: _aligned(folder, reference))
        for folder, stamp in zip(folders, stamps)
    ])
    counted = reference.counted
    configs = counted["config"].tolist()
    design = item_design(configs, counted["cluster"].tolist(), reference.figure.weighting)
    return AlignedFigure(reference.figure, values, design, tuple(configs))


def _reference(folder: RunFolder, name: str) -> _Reference:
    first = read_run_items(folder)
    figure = next((f for f in first.statistics.figures if f.name == name), None)
    if figure is None:
        raise RunFolderError(f"{first.benchmark} has no figure {name!r}")
    counted = first.items[np.isfinite(first.items[name])]
    return _Reference(counted[[*KEY, "cluster"]].reset_index(drop=True), figure, first.statistics)


def _stamp(folder: RunFolder) -> tuple[str, int, int, int]:
    """The folder and its details' and items' modification stamps: what a cached read depends on."""
    try:
        details, items = folder.details_path.stat(), folder.items_path.stat()
    except FileNotFoundError as exc:
        raise RunFolderError(f"{folder.path}: no {exc.filename}; score the run first") from None
    return (str(folder.path), details.st_mtime_ns, details.st_size, items.st_mtime_ns)


def _aligned(folder: RunFolder, reference: _Reference) -> np.ndarray:
    """One run's values on the counted items, in their order; RunFolderError unless it has exactly those."""
    name, counted = reference.figure.name, reference.counted
    values = figure_values(folder, reference.statistics)
    present = values[np.isfinite(values[name])]
    same_order = len(present) == len(counted) and all(
        np.array_equal(present[column].to_numpy(), counted[column].to_numpy()) for column in KEY
    )
    if same_order:  # the usual case: one writer, one item order; no index to build
        return present[name].to_numpy(float)
    aligned = present.set_index(KEY)[name].reindex(pd.MultiIndex.from_frame(counted[KEY])).to_numpy(float)
    if len(present) != len(counted) or not np.isfinite(aligned).all():
        raise RunFolderError(f"{folder.path}: its items in {name!r} are not those of the other runs")
    return aligned
