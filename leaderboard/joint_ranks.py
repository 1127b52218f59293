"""Rank ranges of a ranked table (any benchmark's) from one joint bootstrap of the runs that share a dataset revision.

The ranked runs on the board's shared revision answered the same items, so their rank ranges are the 2.5th to
97.5th percentile of the ranks each holds across the engine's joint cluster bootstrap replicates. A run on another
revision, or one whose items cannot be aligned with the others' (no details.parquet, an item left unscored), keeps
the interval-overlap rule (`rank_ranges`), and a shared-revision run's range widens by the other-revision runs whose
interval overlaps its own. A figure on fewer than two clusters in every config cannot be resampled
(`Design.no_spread_reason`): every run keeps the overlap rule. `rank_rule` says which rule gave each range.
"""

from __future__ import annotations

import logging
from typing import Sequence

import numpy as np
import pandas as pd

from eval_backend.joint_ranking import aligned_figure, aligned_joint_ranking
from eval_backend.run_folder import RunFolderError
from leaderboard.results import LruCache, RunResult

logger = logging.getLogger(__name__)

JOINT_RULE, OVERLAP_RULE = "joint bootstrap", "interval overlap"
_RUNS_KEPT = 2048
"""Per-item values of this many runs are kept (31 KB each at full size): a board whose one run
changed reads that run's table again, not 500 of them."""
RUN_READS: LruCache[object] = LruCache(_RUNS_KEPT)


def with_joint_rank_ranges(table: pd.DataFrame, runs: Sequence[RunResult], ranked: pd.Series,
                           figure: str, bounds: tuple[str, str]) -> pd.DataFrame:
    """The table with the shared-revision runs' rank ranges from the joint bootstrap, and `rank_rule` per ranked run.

    `ranked` marks the rows whose ranges the overlap rule has filled; `bounds` are the columns of `figure`'s 95 %
    interval, read "higher is better"."""
    table = table.copy()
    table["rank_rule"] = pd.Series(OVERLAP_RULE, index=table.index).where(ranked)
    shared = shared_revision(table, ranked)
    if shared.sum() < 2:
        return table
    folders = {run.run_id: run.folder for run in runs}
    try:
        shared_folders = [folders[run_id] for run_id in table.loc[shared, "run_id"]]
        aligned = aligned_figure(shared_folders, figure, cached=RUN_READS.get_or_load, drop_misaligned=True)
    except (RunFolderError, OSError) as exc:  # no run readable item by item: every run keeps the old rule
        logger.warning("rank ranges by interval overlap: the joint bootstrap failed (%s)", exc)
        return table
    shared = pd.Series(table.index.isin(table.index[shared][list(aligned.kept)]), index=table.index)
    if shared.sum() < 2:
        return table
    unresampled = aligned.design.no_spread_reason()
    if unresampled is not None:  # every replicate would be the point: ranks of width 0 that say nothing
        logger.info("rank ranges by interval overlap: the figure %s", unresampled)
        return table
    joint = aligned_joint_ranking(aligned)
    others = ranked & ~shared
    better, not_worse = _others_around(table, shared, others, bounds)
    table.loc[shared, "rank_best"] = joint.rank_best + better
    table.loc[shared, "rank_worst"] = joint.rank_worst + not_worse
    table.loc[shared, "rank_rule"] = JOINT_RULE
    return table


def shared_revision(table: pd.DataFrame, ranked: pd.Series) -> pd.Series:
    """The ranked runs on the revision most ranked runs share (none when no run records one)."""
    revisions = table.loc[ranked, "dataset_revision"].dropna()
    if revisions.empty:
        return pd.Series(False, index=table.index)
    return ranked & (table["dataset_revision"] == revisions.value_counts().index[0])


def _others_around(table: pd.DataFrame, shared: pd.Series, others: pd.Series,
                   bounds: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """Per shared-revision run: the other-revision runs surely better (interval wholly above), and those
    not surely worse (interval not wholly below), by the 95 % intervals."""
    low, high = (table.loc[shared, column].to_numpy(float)[:, np.newaxis] for column in bounds)
    other_low, other_high = (table.loc[others, column].to_numpy(float) for column in bounds)
    better = (other_low[np.newaxis, :] > high).sum(axis=1)
    worse = (other_high[np.newaxis, :] < low).sum(axis=1)
    return better, int(others.sum()) - worse
