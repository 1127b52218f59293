"""The whole board as one table: a row per run of every benchmark, with what the board shows of it.

This is the table the results repo's `board` config holds and the app's "download the board" serves
(`leaderboard.board_file`). Each row joins three sources:

- the run's standing on its benchmark's board (`benchmark_ranks.board_ranks`: headline, its interval,
  rank and rank range, standing, flags), every column of that frame, so a column the ranking frame
  gains joins this table with no change here;
- the run's identity and counts (`results.runs_frame`: judge, precision, size, license, items scored);
- its summary's figures (`SUMMARY_COLUMNS`): dataset and dates, coverage, every metric with its
  interval, and every group of every breakdown the benchmark declares.

A run's figures are named `metric.<metric>`, `<breakdown>.<group>` (a group scored with one number) or
`<breakdown>.<group>.<figure>`; columns a benchmark does not have are empty on its rows.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.benchmark_ranks import board_ranks
from leaderboard.context import AppContext
from leaderboard.results import RunResult, runs_frame
from leaderboard.scored_tables import group_figures

LEAD_COLUMNS = ["benchmark", "model", "revision", "run_id", "dataset", "dataset_revision", "judge",
                "headline_metric"]
"""The columns every row starts with, in this order: which run of which benchmark, scored against what."""
RUN_FRAME_COLUMNS = ["precision", "params_b", "license", "open_weights", "decoding_mode", "items", "scored_items",
                     "failed_items", "pending_items", "missing_responses", "failed_judgments"]
"""What `results.runs_frame` adds of each run (its figures are the benchmark's metrics and breakdowns)."""

SummaryColumns = Callable[[RunResult], Mapping[str, Any]]


def dates(run: RunResult) -> dict[str, Any]:
    """When the run was asked for (the queue's stamp, absent for a run judged from the CLI) and scored."""
    return {"submitted_at": run.request.get("submitted_at"), "evaluated_at": run.provenance.get("created_at")}


def dataset(run: RunResult) -> dict[str, Any]:
    """The dataset the run was scored on, at which revision, and the judge that scored it."""
    spec = run.dataset
    return {"dataset": spec.path if spec else None, "dataset_revision": spec.revision if spec else None,
            "judge": run.provenance.get("judge_model"),
            "headline_metric": run.benchmark.headline_metric().name}


def coverage(run: RunResult) -> dict[str, Any]:
    """Whether every expected item was scored, and the summary's count of items by outcome."""
    counts = run.summary.get("coverage")
    complete = run.summary.get("complete")
    return {"complete": complete if isinstance(complete, bool) else None,
            **{f"coverage.{name}": value for name, value in _mapping(counts).items()}}


def metrics(run: RunResult) -> dict[str, Any]:
    """Every metric of the summary with its 95 % interval, where the summary gives one."""
    intervals = _mapping(run.summary.get("intervals"))
    columns: dict[str, Any] = {}
    for name, value in _mapping(run.summary.get("metrics")).items():
        columns[f"metric.{name}"] = value
        low, high = _pair(intervals.get(name))
        if low is not None:
            columns[f"metric.{name}.ci_low"], columns[f"metric.{name}.ci_high"] = low, high
    return columns


def breakdowns(run: RunResult) -> dict[str, Any]:
    """Every group's figures of every breakdown the benchmark declares."""
    groups = {breakdown.summary_key: breakdown.name for breakdown in run.benchmark.board.breakdowns}
    columns: dict[str, Any] = {}
    for key, name in groups.items():
        for group, figures in _mapping(run.summary.get(key)).items():
            columns.update(_group_columns(f"{name}.{group}", figures, run.benchmark))
    return columns


SUMMARY_COLUMNS: tuple[SummaryColumns, ...] = (dataset, dates, coverage, metrics, breakdowns)
"""Each run's columns read from its files; a new kind of column is one more function here."""


def board_table(context: AppContext) -> pd.DataFrame:
    """Every run of every benchmark, each benchmark's runs in its board's order (ranked runs best first)."""
    frames = [benchmark_table(board_ranks(context, name), context.stores[name].snapshot().runs)
              for name in BENCHMARKS if name in context.stores]
    frames = [frame for frame in frames if not frame.empty]
    if not frames:
        return pd.DataFrame(columns=LEAD_COLUMNS)
    return _typed(pd.concat(frames, ignore_index=True, sort=False))


def benchmark_table(ranks: pd.DataFrame, runs: Sequence[RunResult]) -> pd.DataFrame:
    """One benchmark's rows: its rank frame (in its order) joined with each run's own columns."""
    by_id = {run.run_id: run for run in runs}
    shown = [by_id[run_id] for run_id in ranks["run_id"] if run_id in by_id]
    if not shown:
        return pd.DataFrame()
    own = pd.DataFrame([_own_columns(run) for run in shown])
    counts = runs_frame(shown)[["run_id", *RUN_FRAME_COLUMNS]]
    ranked = ranks.drop(columns=["model", "revision"]).merge(own, on="run_id").merge(counts, on="run_id")
    lead = [column for column in LEAD_COLUMNS if column in ranked.columns]
    return ranked[[*lead, *(column for column in ranked.columns if column not in lead)]]


def _own_columns(run: RunResult) -> dict[str, Any]:
    row: dict[str, Any] = {"run_id": run.run_id, "benchmark": run.benchmark.name, "model": run.model,
                           "revision": run.revision}
    for columns in SUMMARY_COLUMNS:
        row.update(columns(run))
    return row


def _group_columns(prefix: str, figures: Any, benchmark: Benchmark) -> dict[str, Any]:
    """A group's figures: one number as `prefix`; a mapping as `prefix.<figure>`, as the board's breakdown shows it."""
    if not isinstance(figures, Mapping):
        return {prefix: figures}
    return {f"{prefix}.{name}": value for name, value in group_figures(figures, benchmark).items()}


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns parquet can store: a column holding numbers and text (one benchmark's figure is a count, another's
    a text) keeps its text, the numbers written as text too."""
    for name in frame.columns:
        kinds = {type(value) for value in frame[name] if value is not None and not _missing(value)}
        if str in kinds and len(kinds) > 1:
            frame[name] = [None if _missing(value) else str(value) for value in frame[name]]
    return frame


def _missing(value: Any) -> bool:
    return isinstance(value, float) and value != value


def _pair(value: Any) -> tuple[Any, Any]:
    return (value[0], value[1]) if isinstance(value, (list, tuple)) and len(value) == 2 else (None, None)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}
