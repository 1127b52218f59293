"""A benchmark's declared figures (`BoardView.figures`) of the runs a tab shows, read from their summaries.

Each `FigureSpec` becomes the long frame `figure_kinds` draws: per run (short label, whole id on
hover) and group, the value and its 95 % interval. A spec without a breakdown draws its metrics
side by side, which must share one unit and one direction: a declaration mixing an accuracy with
an over-refusal rate is refused with both named.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.board_view import Breakdown, FigureKind, FigureSpec
from eval_backend.benchmarks.metric import Metric
from leaderboard.answer_lengths import board_lengths
from leaderboard.figure_kinds import VALUE_COLUMNS, draw, failsafe, scale_of
from leaderboard.results import RunResult
from leaderboard.scored_tables import group_figures
from leaderboard.short_labels import full_label, short_labels

DEFAULT_RADAR_ROWS = 3


def benchmark_figures(runs: Sequence[RunResult], benchmark: Benchmark) -> list[go.Figure]:
    """Every figure the benchmark declares, of `runs` in their order (a radar: the first three)."""
    return [failsafe(_figure)(runs, benchmark, spec) for spec in benchmark.board.figures]


def _figure(runs: Sequence[RunResult], benchmark: Benchmark, spec: FigureSpec) -> go.Figure:
    metrics = figure_metrics(benchmark, spec)
    drawn = runs[:DEFAULT_RADAR_ROWS if spec.kind is FigureKind.RADAR else None]
    titled = dataclasses.replace(spec, title=figure_title(benchmark, spec))
    return draw(titled, figure_values(drawn, benchmark, spec), scale_of(metrics[0].unit, metrics[0].higher_is_better))


def figure_title(benchmark: Benchmark, spec: FigureSpec) -> str:
    """The figure's title: its declared one, or its first metric's label with "with its 95 % interval"."""
    return spec.title or f"{figure_metrics(benchmark, spec)[0].label}, with its 95 % interval"


def figure_metrics(benchmark: Benchmark, spec: FigureSpec) -> list[Metric]:
    """The metrics `spec` draws (none named: the headline), all of one unit and one direction."""
    declared = {metric.name: metric for metric in benchmark.metrics}
    unknown = [name for name in spec.metrics if name not in declared]
    if unknown:
        raise ValueError(f"{benchmark.name}'s figure {spec.name!r} names metrics it does not declare: {unknown}")
    metrics = [declared[name] for name in spec.metrics] or [benchmark.headline_metric()]
    kinds = {(metric.unit, metric.higher_is_better) for metric in metrics}
    if len(kinds) > 1:
        raise ValueError(f"{benchmark.name}'s figure {spec.name!r} mixes units or directions in one bar group: "
                         + ", ".join(f"{m.name} ({m.unit}, {'higher' if m.higher_is_better else 'lower'} is better)"
                                     for m in metrics))
    return metrics


def figure_values(runs: Sequence[RunResult], benchmark: Benchmark, spec: FigureSpec) -> pd.DataFrame:
    """The long frame (`figure_kinds.VALUE_COLUMNS`) of `spec` for `runs`, in their order; a scatter's has each
    run's median answer length as `x`, in the board's unit (named by `group`)."""
    if spec.kind is FigureKind.SCATTER:
        return _length_values(runs, benchmark, figure_metrics(benchmark, spec)[0])
    metrics = figure_metrics(benchmark, spec)
    labels = short_labels([run.model for run in runs], [run.revision for run in runs])
    breakdown = _breakdown(benchmark, spec.breakdown) if spec.breakdown else None
    rows = []
    for run, label in zip(runs, labels):
        hover = full_label(run.model, run.revision)
        cells = _group_cells(run.summary, benchmark, breakdown, metrics[0]) if breakdown else _metric_cells(run.summary, metrics)
        rows.extend({"row": label, "hover": hover, **cell, "note": None} for cell in cells)
    return _every_group(pd.DataFrame(rows, columns=list(VALUE_COLUMNS)))


def _length_values(runs: Sequence[RunResult], benchmark: Benchmark, metric: Metric) -> pd.DataFrame:
    """One row per run: `metric` with its interval, and its median answer length as `x`."""
    lengths = board_lengths(runs, benchmark)
    labels = short_labels([run.model for run in runs], [run.revision for run in runs])
    rows = [{"row": label, "hover": full_label(run.model, run.revision), **_metric_cells(run.summary, [metric])[0],
             "group": f"median answer length ({lengths.unit})", "note": None, "x": lengths.median(run.run_id)}
            for run, label in zip(runs, labels)]
    return pd.DataFrame(rows, columns=[*VALUE_COLUMNS, "x"]).astype({"x": float})


def _every_group(frame: pd.DataFrame) -> pd.DataFrame:
    """Every run with a row for every group (NaN where it has none), the groups in their first order: a run
    missing a group neither moves nor drops that group's column."""
    if frame.empty:
        return frame
    runs, groups = list(dict.fromkeys(frame["row"])), list(dict.fromkeys(frame["group"]))
    hover = dict(zip(frame["row"], frame["hover"]))
    full = pd.MultiIndex.from_product([runs, groups], names=["row", "group"])
    filled = frame.drop(columns="hover").set_index(["row", "group"]).reindex(full).reset_index()
    return filled.assign(hover=filled["row"].map(hover))[list(VALUE_COLUMNS)]


def _breakdown(benchmark: Benchmark, name: str) -> Breakdown:
    for breakdown in benchmark.board.breakdowns:
        if breakdown.name == name:
            return breakdown
    raise ValueError(f"{benchmark.name}'s figure names a breakdown it does not declare: {name!r}")


def _metric_cells(summary: Mapping[str, Any], metrics: Sequence[Metric]) -> list[dict[str, Any]]:
    """One cell per metric: its value and the summary's 95 % interval of it."""
    values, intervals = summary.get("metrics") or {}, summary.get("intervals") or {}
    return [{"group": metric.label, "value": _number(values.get(metric.name)), **_interval(intervals.get(metric.name))}
            for metric in metrics]


def _group_cells(summary: Mapping[str, Any], benchmark: Benchmark, breakdown: Breakdown, metric: Metric) -> list[dict[str, Any]]:
    """One cell per group of the breakdown: the metric's value there and its 95 % interval where the summary has one."""
    intervals = summary.get("config_intervals") or {}
    cells = []
    for name, entry in (summary.get(breakdown.summary_key) or {}).items():
        per_group = intervals.get(name) if isinstance(intervals.get(name), Mapping) else {}
        cells.append({"group": name, "value": _number(group_figures(entry, benchmark).get(metric.name)),
                      **_interval(per_group.get(metric.name))})
    return cells


def _interval(pair: Any) -> dict[str, float]:
    low, high = pair if isinstance(pair, (list, tuple)) and len(pair) == 2 else (None, None)
    return {"low": _number(low), "high": _number(high)}


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else float("nan")

