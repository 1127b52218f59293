"""Each run's median answer length on a benchmark's board: overall and per breakdown group, in one unit per board.

The engine measures a run's answers (`eval_backend.style_ranking.run_measures`, kept in the board's run cache,
shared with the style fit). A board reads in one unit, so its lengths compare row by row: tokens when every answer
of every run on it has a reported count, else characters of the judged text. A run whose answers cannot be read
(no details.parquet) has no length, never 0.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Mapping, Sequence

import pandas as pd

from eval_backend.answer_style import CHARACTERS, TOKENS, RunLengths, run_lengths
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.run_folder import RunFolderError
from eval_backend.style_ranking import run_measures
from leaderboard.joint_ranks import RUN_READS
from leaderboard.results import LruCache, RunResult, Snapshot

logger = logging.getLogger(__name__)

LENGTH_COLUMNS = ("median_length", "length_unit")
LENGTH_LABELS = {"median_length": "Answer length (median)", "length_unit": "Length unit"}
"""The ranking's column group: each run's median answer length and the unit it is in."""


@dataclass(frozen=True)
class BoardLengths:
    """The board's unit and each run's median lengths in it (by run id; a run whose answers were unreadable: absent)."""

    unit: str
    runs: Mapping[str, RunLengths]

    def median(self, run_id: str) -> float | None:
        """The run's median answer length over every answered item, or None."""
        lengths = self.runs.get(run_id)
        return lengths.overall.median if lengths and lengths.overall else None

    def group_median(self, run_id: str, breakdown: str, group: str) -> float | None:
        """The run's median answer length in one group (`breakdown` "language", `group` "Hindi"), or None."""
        lengths = self.runs.get(run_id)
        found = lengths.groups.get(breakdown, {}).get(group) if lengths else None
        return found.median if found else None


def board_lengths(runs: Sequence[RunResult], benchmark: Benchmark) -> BoardLengths:
    """The runs' median answer lengths, all in the board's one unit."""
    measures = {run.run_id: frame for run in runs if (frame := _measures(run, benchmark)) is not None}
    counted = all(frame.loc[frame["answered"], "tokens"].notna().all() for frame in measures.values())
    unit = TOKENS if measures and counted else CHARACTERS
    return BoardLengths(unit, {run_id: run_lengths(_in_unit(frame, unit), benchmark.board.breakdowns)
                               for run_id, frame in measures.items()})


_BOARDS: LruCache[BoardLengths] = LruCache(16)


def lengths_of(snapshot: Snapshot, benchmark: Benchmark) -> BoardLengths:
    """`board_lengths` of the snapshot's runs, computed once per state of the benchmark's results."""
    return _BOARDS.get_or_load((benchmark.name, snapshot.signature), lambda: board_lengths(snapshot.runs, benchmark))


def length_columns(runs: Sequence[RunResult], benchmark: Benchmark) -> pd.DataFrame:
    """`run_id` and the LENGTH_COLUMNS, one row per run (None where its answers could not be read)."""
    lengths = board_lengths(runs, benchmark)
    return pd.DataFrame([{"run_id": run.run_id, "median_length": lengths.median(run.run_id),
                          "length_unit": lengths.unit if run.run_id in lengths.runs else None} for run in runs],
                        columns=["run_id", *LENGTH_COLUMNS])


def _measures(run: RunResult, benchmark: Benchmark) -> pd.DataFrame | None:
    try:
        return run_measures(run.folder, benchmark, RUN_READS.get_or_load)
    except (RunFolderError, OSError, ValueError, KeyError) as exc:  # a damaged file: the run stays, without a length
        logger.info("%s: no answer length (%s)", run.run_id, exc)
        return None


def _in_unit(measures: pd.DataFrame, unit: str) -> pd.DataFrame:
    """The measures `run_lengths` reads in `unit`: without token counts, it reads characters."""
    return measures if unit == TOKENS else measures.assign(tokens=float("nan"))
