"""How precise the board's figures are, measured on its own runs: clusters, design effect, detectable difference.

Per benchmark, the ranked runs on its shared dataset revision (`shared_ranked_runs`) are aligned item by item as the
joint ranking aligns them, and `eval_backend.statistics.precision` measures each figure over all its configs, then
each config (language, task) once, under the first figure that counts it, the headline first. The cost is bounded:
at most `MAX_RUNS` runs a benchmark, per-item values kept per run under their files' stamps, the table computed once
per board state.
"""

from __future__ import annotations

import logging
from typing import Any, Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.joint_ranking import AlignedFigure, aligned_figure
from eval_backend.run_folder import RunFolderError
from eval_backend.statistics import precision
from leaderboard.joint_ranks import RUN_READS
from leaderboard.results import LruCache, ResultsStore, RunResult
from leaderboard.scored_rankings import shared_ranked_runs

logger = logging.getLogger(__name__)

MAX_RUNS = 100
"""Runs measured per benchmark: the figures settle long before, and 100 runs read in about a second."""
ALL_CONFIGS = "all configs"
PRECISION_COLUMNS = ("benchmark", "figure", "scope", "runs", "items", "clusters", "design_effect", "width_ratio",
                     "detectable_difference", "unit")
FRAME_COLUMNS = (*PRECISION_COLUMNS, "no_detectable_reason")
"""The frame's columns: the table's, then why a detectable difference is missing (None where it is given)."""
_TABLES: LruCache[pd.DataFrame] = LruCache(4)


def board_precision(stores: Mapping[str, ResultsStore]) -> pd.DataFrame:
    """The precision table of every benchmark's board as it stands, computed once per board state."""
    snapshots = {name: store.snapshot() for name, store in stores.items()}
    state: Hashable = tuple((name, snapshot.signature) for name, snapshot in snapshots.items())
    return _TABLES.get_or_load(state, lambda: precision_frame({n: s.runs for n, s in snapshots.items()}))


def precision_frame(runs: Mapping[str, Sequence[RunResult]]) -> pd.DataFrame:
    """One row per benchmark figure (over all its configs), and one per config under the first figure counting it."""
    rows = [row for name, benchmark_runs in runs.items() if name in BENCHMARKS
            for row in _benchmark_rows(name, benchmark_runs)]
    return pd.DataFrame(rows, columns=list(FRAME_COLUMNS))


def measured_runs(runs: Sequence[RunResult]) -> list[RunResult]:
    """The ranked runs on the revision most ranked runs share, the first `MAX_RUNS` by run id."""
    return sorted(shared_ranked_runs(runs)[0], key=lambda run: run.run_id)[:MAX_RUNS]


def _benchmark_rows(name: str, runs: Sequence[RunResult]) -> list[dict[str, Any]]:
    benchmark = BENCHMARKS[name]
    chosen = measured_runs(runs)
    if not chosen or benchmark.item_statistics is None:
        return []
    figures = sorted(benchmark.item_statistics().figures, key=lambda figure: figure.name != benchmark.headline)
    rows, measured = [], set()
    for figure in figures:
        try:
            aligned = aligned_figure([run.folder for run in chosen], figure.name, cached=RUN_READS.get_or_load,
                                     drop_misaligned=True)
        except (RunFolderError, OSError, ValueError) as exc:  # an unreadable or misaligned run: say nothing
            logger.warning("no precision figures for %s: %s", name, exc)
            return []
        configs = list(dict.fromkeys(aligned.configs))
        scopes = [ALL_CONFIGS, *(config for config in configs if config not in measured and len(configs) > 1)]
        measured.update(configs)
        rows += [row for scope in scopes if (row := _row(benchmark.title, aligned, scope)) is not None]
    return rows


def _row(title: str, aligned: AlignedFigure, scope: str) -> dict[str, Any] | None:
    mask = np.array([scope in (ALL_CONFIGS, config) for config in aligned.configs], dtype=bool)
    if not mask.any():
        return None
    measured = precision(aligned.values[:, mask], aligned.design.subset(mask))
    return {
        "benchmark": title, "figure": aligned.figure.label, "scope": scope, "runs": measured.runs,
        "items": measured.items, "clusters": measured.clusters, "design_effect": measured.design_effect,
        "width_ratio": measured.width_ratio,
        "detectable_difference": np.nan if measured.detectable_difference is None else measured.detectable_difference,
        "unit": aligned.figure.difference_unit, "no_detectable_reason": measured.no_detectable_reason,
    }
