"""One joint bootstrap of a benchmark's figure over several run folders on one dataset revision.

The runs' per-item values are read from their details.parquet (only the columns the figure
needs) and aligned item by item on the first run's items; the clusters come from the first
run's items.jsonl (every run on one revision has the same items). Every run must have a value
on every item the figure counts, as a complete run does: one that lacks some is refused
rather than compared on fewer items than its summary.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.run_items import item_clusters, read_run_items
from eval_backend.statistics import DEFAULT_REPLICATES, DEFAULT_SEED, JointBootstrap, item_design, joint_bootstrap


def joint_ranking(
    folders: Sequence[RunFolder], figure: str, replicates: int = DEFAULT_REPLICATES, seed: int = DEFAULT_SEED,
) -> JointBootstrap:
    """The joint bootstrap of `figure` over the runs, in the order given; RunFolderError when they do not align."""
    if not folders:
        raise ValueError("no run to rank")
    clusters = item_clusters(folders[0])
    runs = [read_run_items(folder, clusters) for folder in folders]
    first = runs[0]
    spec = next((f for f in first.statistics.figures if f.name == figure), None)
    if spec is None:
        raise RunFolderError(f"{first.benchmark} has no figure {figure!r}")
    counted = first.items[np.isfinite(first.items[figure])]
    values = np.stack([_aligned(run.items, counted.index, figure, folder) for run, folder in zip(runs, folders)])
    design = item_design(counted["config"].tolist(), counted["cluster"].tolist(), spec.weighting)
    return joint_bootstrap(values, design, replicates, seed, spec.higher_is_better)


def _aligned(items: pd.DataFrame, keys: pd.Index, figure: str, folder: RunFolder) -> np.ndarray:
    values = items[figure].reindex(keys).to_numpy(float)
    if not np.isfinite(values).all() or np.isfinite(items[figure]).sum() != len(keys):
        raise RunFolderError(f"{folder.path}: its items in {figure!r} are not those of the other runs")
    return values
