"""The whole board as one table: a row per run of every benchmark, as the results repo's `board` config holds it
and the app's "download the board" serves it (`leaderboard.board_file`).

Each row joins the run's standing on its benchmark's board (every column of `benchmark_ranks.board_ranks`, so a
column the ranking gains joins this table with no change here), its identity and counts (`results.runs_frame`),
and its summary's figures: dataset and dates, coverage, each metric as `metric.<metric>` with its interval, and
each group of each declared breakdown as `<breakdown>.<group>` (one number) or `<breakdown>.<group>.<figure>`.
Columns a benchmark does not have are empty on its rows.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.benchmark_ranks import board_ranks
from leaderboard.context import AppContext
from leaderboard.results import RunResult, runs_frame
from leaderboard.run_shape import as_mapping
from leaderboard.scored_tables import group_figures

LEAD_COLUMNS = ["benchmark", "model", "revision", "run_id", "dataset", "dataset_revision", "judge",
                "headline_metric"]
"""The columns every row starts with, in this order: which run of which benchmark, scored against what."""
RUN_FRAME_COLUMNS = ["precision", "params_b", "license", "open_weights", "decoding_mode", "items", "scored_items",
                     "failed_items", "pending_items", "missing_responses", "failed_judgments"]


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
    """The run's dataset and judge, when it was asked for (the queue's stamp: none for a run judged from the CLI)
    and scored, and its summary's coverage, metrics and breakdowns."""
    summary, spec, complete = run.summary, run.dataset, run.summary.get("complete")
    return {"run_id": run.run_id, "benchmark": run.benchmark.name, "model": run.model, "revision": run.revision,
            "dataset": spec.path if spec else None, "dataset_revision": spec.revision if spec else None,
            "judge": run.provenance.get("judge_model"), "headline_metric": run.benchmark.headline_metric().name,
            "submitted_at": run.request.get("submitted_at"), "evaluated_at": run.provenance.get("created_at"),
            "complete": complete if isinstance(complete, bool) else None,
            **{f"coverage.{name}": value for name, value in as_mapping(summary.get("coverage")).items()},
            **_metrics(summary), **_breakdowns(run)}


def _metrics(summary: Mapping[str, Any]) -> dict[str, Any]:
    intervals = as_mapping(summary.get("intervals"))
    columns: dict[str, Any] = {}
    for name, value in as_mapping(summary.get("metrics")).items():
        columns[f"metric.{name}"] = value
        if intervals.get(name):  # a [low, high] pair or null, checked on read (run_shape)
            columns[f"metric.{name}.ci_low"], columns[f"metric.{name}.ci_high"] = intervals[name]
    return columns


def _breakdowns(run: RunResult) -> dict[str, Any]:
    """Each group's figures: one number as `<breakdown>.<group>`; a mapping as `<breakdown>.<group>.<figure>`, as
    the board's breakdown shows it."""
    columns: dict[str, Any] = {}
    for key, name in {breakdown.summary_key: breakdown.name for breakdown in run.benchmark.board.breakdowns}.items():
        for group, figures in as_mapping(run.summary.get(key)).items():
            if not isinstance(figures, Mapping):
                columns[f"{name}.{group}"] = figures
                continue
            for figure, value in group_figures(figures, run.benchmark).items():
                columns[f"{name}.{group}.{figure}"] = value
    return columns


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
