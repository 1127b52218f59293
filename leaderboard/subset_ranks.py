"""A ranking on a chosen subset of a benchmark's items (issue #42, item 2): ticking some groups of a breakdown
(languages, variants, domains, tasks) ranks the runs on those items alone, each run's figure, 95 % interval and rank
range from one joint bootstrap of the ranked runs on the shared dataset revision restricted to the subset's items
(`Design.subset`). Any breakdown whose field the item statistics carry (`ItemStatistics.subsets`, or the config).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.item_values import KEY, item_values
from eval_backend.joint_ranking import AlignedFigure, aligned_figure
from eval_backend.run_folder import RunFolder, RunFolderError, scored_stamp
from eval_backend.statistics import joint_bootstrap
from leaderboard.joint_ranks import RUN_READS, shared_revision
from leaderboard.results import RunResult

logger = logging.getLogger(__name__)

SUBSET_COLUMNS = ["run_id", "subset_average", "subset_ci_low", "subset_ci_high", "rank_best", "rank_worst"]
"""Per run resampled: the subset's figure, its 95 % interval and the run's rank range on the subset."""
CONFIG_FIELD = "config"


@dataclass(frozen=True)
class Subset:
    """The items a ranking is restricted to: per item field (`config`, `variant`, `task`), the groups chosen; an item
    is in it when, for every field named, its value is one of that field's groups."""

    groups: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(field for field, _ in self.groups)

    def describe(self) -> str:
        """The chosen groups as a reader names them ("Hindi, Tamil; romanized")."""
        return "; ".join(", ".join(name.replace("_", "-") for name in names) for _, names in self.groups)


def subset_ranks(table: pd.DataFrame, runs: Sequence[RunResult], ranked: pd.Series, statistics: ItemStatistics,
                 figure: str, subset: Subset) -> pd.DataFrame:
    """`SUBSET_COLUMNS` for the ranked runs of `table` (rows with `run_id`, `dataset_revision`) on the shared
    revision, jointly resampled on the subset's items of `figure`; no rows where that cannot be done (fewer than
    two such runs, runs not readable item by item, a subset with no items or too few clusters to resample)."""
    shared = shared_revision(table, ranked)
    if shared.sum() < 2:
        return pd.DataFrame(columns=SUBSET_COLUMNS)
    run_ids = list(table.loc[shared, "run_id"])
    folders = {run.run_id: run.folder for run in runs}
    try:
        aligned = aligned_figure([folders[run_id] for run_id in run_ids], figure, cached=RUN_READS.get_or_load,
                                 drop_misaligned=True)
        mask = _subset_mask(aligned, folders[run_ids[aligned.kept[0]]], statistics, subset)
    except (RunFolderError, OSError) as exc:
        logger.warning("no joint ranking of the subset %s: %s", subset.describe(), exc)
        return pd.DataFrame(columns=SUBSET_COLUMNS)
    design = aligned.design.subset(mask) if mask.any() else None
    if len(aligned.kept) < 2 or design is None or design.no_spread_reason() is not None:
        return pd.DataFrame(columns=SUBSET_COLUMNS)
    joint = joint_bootstrap(aligned.values[:, mask], design, higher_is_better=aligned.figure.higher_is_better,
                            endpoint_error=aligned.figure.interval_error)
    return pd.DataFrame({"run_id": [run_ids[position] for position in aligned.kept],
                         "subset_average": joint.headlines, "subset_ci_low": joint.low, "subset_ci_high": joint.high,
                         "rank_best": joint.rank_best, "rank_worst": joint.rank_worst}, columns=SUBSET_COLUMNS)


def _subset_mask(aligned: AlignedFigure, folder: RunFolder, statistics: ItemStatistics, subset: Subset) -> np.ndarray:
    """Which of the aligned items are in the subset: a config read from the alignment, any other field from the
    run's item values (one run's: every run on a revision has the same items)."""
    mask = np.ones(len(aligned.configs), dtype=bool)
    fields = [field for field in subset.fields if field != CONFIG_FIELD]
    values = _item_fields(aligned, folder, statistics, fields) if fields else pd.DataFrame()
    for field, names in subset.groups:
        column = np.asarray(aligned.configs) if field == CONFIG_FIELD else values[field].to_numpy()
        mask &= np.isin(column.astype(str), list(names))
    return mask


def _item_fields(aligned: AlignedFigure, folder: RunFolder, statistics: ItemStatistics,
                 fields: Sequence[str]) -> pd.DataFrame:
    """The aligned items' values of `fields`, in the alignment's order; RunFolderError for a field the run lacks."""
    values = RUN_READS.get_or_load(("fields", scored_stamp(folder, folder.items_path)),
                                   lambda: item_values(folder, statistics))
    missing = [field for field in fields if field not in values]
    if missing:
        raise RunFolderError(f"{folder.path}: its item values have no field {missing[0]!r} to rank a subset by")
    keyed = values.set_index(KEY)
    order = pd.MultiIndex.from_arrays([list(aligned.configs), list(aligned.indexes)], names=KEY)
    return keyed.loc[order, list(fields)].reset_index(drop=True)
