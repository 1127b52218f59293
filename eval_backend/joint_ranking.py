"""One joint bootstrap of a benchmark's figure over several run folders on one dataset revision.

The runs' per-item values are read from their details.parquet (only the columns the figure
needs, kept in the compact file `eval_backend.item_values` writes beside it) and aligned item
by item on the first run's items; the clusters come from the first run's items.jsonl alone
(every run on one revision has the same items), since reading 500 items.jsonl files would
cost seconds. Every run must have a value on every item the figure counts, as a complete run
does: one that lacks some is refused rather than compared on fewer items than its summary.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

import numpy as np
import pandas as pd

from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.benchmarks.metric import Metric
from eval_backend.item_values import KEY, item_values
from eval_backend.run_folder import RunFolder, RunFolderError, scored_stamp
from eval_backend.run_items import read_run_items
from eval_backend.statistics import DEFAULT_SEED, Design, JointBootstrap, item_design, joint_bootstrap

logger = logging.getLogger(__name__)

Loader = Callable[[Hashable, Callable[[], Any]], Any]
"""`get_or_load(key, load)` of a cache the caller keeps (a board keeps one across its states)."""


@dataclass(frozen=True, eq=False)
class _Reference:
    """The first run's items that count in the figure (key columns and cluster), and the figure."""

    counted: pd.DataFrame
    figure: Metric
    statistics: ItemStatistics


def joint_ranking(
    folders: Sequence[RunFolder], figure: str, replicates: int | None = None, seed: int = DEFAULT_SEED,
    cached: Loader | None = None,
) -> JointBootstrap:
    """The joint bootstrap of `figure` over the runs, in the order given; RunFolderError when they do not align.

    With `cached`, what was read from a folder is kept under its files' modification stamps, so a
    board whose one run changed reads that run again, not all of them.
    """
    return aligned_joint_ranking(aligned_figure(folders, figure, cached), replicates, seed)


def aligned_joint_ranking(aligned: AlignedFigure, replicates: int | None = None,
                          seed: int = DEFAULT_SEED) -> JointBootstrap:
    """The joint bootstrap of runs already aligned (`aligned_figure`), in their order; `replicates` None draws
    as many as the figure's endpoint error asks."""
    return joint_bootstrap(aligned.values, aligned.design, replicates, seed, aligned.figure.higher_is_better,
                           endpoint_error=aligned.figure.interval_error)


@dataclass(frozen=True, eq=False)
class AlignedFigure:
    """One figure's per-item values of several runs, item by item: (runs, items), with the items' design."""

    figure: Metric
    values: np.ndarray
    design: Design
    configs: tuple[str, ...]
    """Per item (column), its config."""
    kept: tuple[int, ...]
    """The positions, among the folders given, of the runs whose values are the rows."""
    indexes: tuple[int, ...] = ()
    """Per item (column), its index in its config: with `configs`, the items' keys."""


def aligned_figure(folders: Sequence[RunFolder], figure: str, cached: Loader | None = None,
                   drop_misaligned: bool = False) -> AlignedFigure:
    """The runs' values of `figure` on the items it counts, aligned on the first run's; RunFolderError when they differ.

    With `drop_misaligned`, a run that cannot be read or aligned is left out (`kept` says which runs are in)
    rather than failing the others: the items are those of the first run that most of the others align with
    (of the first REFERENCE_CANDIDATES readable runs), so one damaged run at the top cannot drop the rest.
    RunFolderError only when no run is readable.
    """
    if not folders:
        raise ValueError("no run to rank")
    load = cached or (lambda key, build: build())
    if not drop_misaligned:
        return _aligned_on(folders, 0, figure, load, drop_misaligned=False)
    best: AlignedFigure | None = None
    candidates = 0
    for position in range(len(folders)):
        try:
            aligned = _aligned_on(folders, position, figure, load, drop_misaligned=True)
        except RunFolderError as exc:
            logger.warning("left out of the joint figures: %s", exc)
            continue
        if 2 * len(aligned.kept) > len(folders):
            return aligned
        best = aligned if best is None or len(aligned.kept) > len(best.kept) else best
        candidates += 1
        if candidates == REFERENCE_CANDIDATES:
            break
    if best is None:
        raise RunFolderError(f"none of the {len(folders)} runs could be read item by item")
    return best


REFERENCE_CANDIDATES = 3
"""How many runs are tried as the reference before the one most others align with is taken."""


def _aligned_on(folders: Sequence[RunFolder], reference_at: int, figure: str, load: Loader,
                drop_misaligned: bool) -> AlignedFigure:
    """Every run's values aligned on the items of the run at `reference_at` (its own read failing raises)."""
    reference_stamp = _stamp(folders[reference_at])
    reference = load(("reference", reference_stamp, figure), lambda: _reference(folders[reference_at], figure))
    rows, kept = [], []
    for position, folder in enumerate(folders):
        try:
            stamp = _stamp(folder)
            rows.append(load(("values", stamp, reference_stamp, figure), lambda: _aligned(folder, reference)))
        except RunFolderError as exc:
            if not drop_misaligned:
                raise
            logger.info("not aligned with %s: %s", folders[reference_at].path, exc)
            continue
        kept.append(position)
    if not rows:
        raise RunFolderError(f"{folders[reference_at].path}: its own items could not be aligned")
    counted = reference.counted
    configs = counted["config"].tolist()
    design = item_design(configs, counted["cluster"].tolist(), reference.figure.weighting)
    return AlignedFigure(reference.figure, np.stack(rows), design, tuple(configs), tuple(kept),
                         tuple(counted["index"].tolist()))


def _reference(folder: RunFolder, name: str) -> _Reference:
    first = read_run_items(folder)
    figure = next((f for f in first.statistics.figures if f.name == name), None)
    if figure is None:
        raise RunFolderError(f"{first.benchmark} has no figure {name!r}")
    counted = first.items[np.isfinite(first.items[name])]
    return _Reference(counted[[*KEY, "cluster"]].reset_index(drop=True), figure, first.statistics)


def _stamp(folder: RunFolder) -> tuple[str, int, int, int]:
    """What a cached read of the folder depends on: its details' and items' stamps."""
    return scored_stamp(folder, folder.items_path)


def _aligned(folder: RunFolder, reference: _Reference) -> np.ndarray:
    """One run's values on the counted items, in their order; RunFolderError unless it has exactly those."""
    name, counted = reference.figure.name, reference.counted
    values = item_values(folder, reference.statistics)
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
