"""One joint bootstrap of a benchmark's figure over several run folders on one dataset revision.

The runs' per-item values are read from their details.parquet (only the columns the figure
needs) and aligned item by item on the first run's items; the clusters come from the first
run's items.jsonl alone (every run on one revision has the same items), since reading 500
items.jsonl files would cost seconds. Every run must have a value
on every item the figure counts, as a complete run does: one that lacks some is refused
rather than compared on fewer items than its summary.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.run_items import KEY, figure_values, read_run_items
from eval_backend.statistics import DEFAULT_REPLICATES, DEFAULT_SEED, JointBootstrap, item_design, joint_bootstrap


def joint_ranking(
    folders: Sequence[RunFolder], figure: str, replicates: int = DEFAULT_REPLICATES, seed: int = DEFAULT_SEED,
) -> JointBootstrap:
    """The joint bootstrap of `figure` over the runs, in the order given; RunFolderError when they do not align."""
    if not folders:
        raise ValueError("no run to rank")
    first = read_run_items(folders[0])
    spec = next((f for f in first.statistics.figures if f.name == figure), None)
    if spec is None:
        raise RunFolderError(f"{first.benchmark} has no figure {figure!r}")
    counted = first.items[np.isfinite(first.items[figure])]
    values = np.stack([
        _aligned(figure_values(folder, first.statistics), counted, figure, folder) for folder in folders
    ])
    design = item_design(counted["config"].tolist(), counted["cluster"].tolist(), spec.weighting)
    return joint_bootstrap(values, design, replicates, seed, spec.higher_is_better)


def _aligned(values: pd.DataFrame, counted: pd.DataFrame, figure: str, folder: RunFolder) -> np.ndarray:
    """One run's values on the counted items, in their order; RunFolderError unless it has exactly those."""
    present = values[np.isfinite(values[figure])]
    same_order = len(present) == len(counted) and all(
        np.array_equal(present[column].to_numpy(), counted[column].to_numpy()) for column in KEY
    )
    if same_order:  # the usual case: one writer, one item order; no index to build
        return present[figure].to_numpy(float)
    aligned = present.set_index(KEY)[figure].reindex(counted.index).to_numpy(float)
    if len(present) != len(counted) or not np.isfinite(aligned).all():
        raise RunFolderError(f"{folder.path}: its items in {figure!r} are not those of the other runs")
    return aligned
