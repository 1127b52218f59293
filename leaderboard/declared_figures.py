"""A benchmark's declared figures (`BoardView.figures`) of the runs a tab shows, read from their summaries.

Each `FigureSpec` becomes the long frame `figure_kinds` draws. The figures follow the ranking the tab shows: the
headline is read from it (on chosen groups, the subset's), a figure of the ranked runs draws the top N, one of
chosen runs (`FigureSpec.chosen`) the runs a viewer chose. A spec's metrics must share one unit and direction.
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
from leaderboard.display import format_rank_range
from leaderboard.figure_kinds import MAX_ROWS, VALUE_COLUMNS, draw, failsafe, scale_of
from leaderboard.results import RunResult
from leaderboard.row_flags import parse_codes
from leaderboard.scored_rankings import SUBSET_COLUMN
from leaderboard.scored_tables import group_figures
from leaderboard.short_labels import full_label, short_labels

ON_CHOSEN_GROUPS = "on the chosen groups"


def ranked_figures(ranking: pd.DataFrame, runs: Mapping[str, RunResult], benchmark: Benchmark, top_n: int = MAX_ROWS,
                   chosen: Mapping[str, Sequence[str]] | None = None) -> list[go.Figure]:
    """Every figure the benchmark declares, of the ranked rows `ranking` holds (`run_id`, `model`, `revision`, the
    headline, `ci_low`, `ci_high`, `rank_best`, `rank_worst`, `flags`, maybe `SUBSET_COLUMN`), in its order; a
    figure of chosen runs draws those `chosen[spec.name]` names (`chosen_runs`). `runs` holds every row's run."""
    return [failsafe(ranked_figure)(spec, ranking, runs, benchmark, top_n, (chosen or {}).get(spec.name, ()))
            for spec in benchmark.board.figures]


def ranked_figure(spec: FigureSpec, ranking: pd.DataFrame, runs: Mapping[str, RunResult], benchmark: Benchmark,
                  top_n: int = MAX_ROWS, chosen: Sequence[str] = ()) -> go.Figure:
    """The figure `spec` declares of `ranking`'s first `top_n` rows, or of the runs `chosen` (`ranked_figures`)."""
    metrics = figure_metrics(benchmark, spec)
    shown = ranking[ranking["run_id"].isin(chosen_runs(spec, ranking, chosen))] if spec.chosen else ranking.head(top_n)
    title = figure_title(benchmark, spec)
    drawn = [runs[run_id] for run_id in shown["run_id"]]
    breakdown = _breakdown(benchmark, spec.breakdown) if spec.breakdown else None
    if spec.kind is FigureKind.HEADLINE and not spec.metrics:
        values = headline_values(shown, benchmark)
        title = f"{title} {ON_CHOSEN_GROUPS}" if SUBSET_COLUMN in shown else title
    elif spec.chosen == 1 and drawn and breakdown and _is_two_way(drawn[0], breakdown):
        values = two_way_values(drawn[0], breakdown)
        title = f"{short_labels([drawn[0].model], [drawn[0].revision])[0]}: {title}"
    else:
        values = figure_values(drawn, benchmark, spec)
    scale = scale_of(metrics[0].unit, metrics[0].higher_is_better)
    return draw(dataclasses.replace(spec, title=title), values, scale)


def chosen_runs(spec: FigureSpec, ranking: pd.DataFrame, chosen: Sequence[str]) -> list[str]:
    """The run ids a figure of chosen runs draws: those of `chosen` that `ranking` holds, in its order; none (a
    chosen run no longer ranked is dropped): its best `spec.chosen`."""
    ranked, wanted = list(ranking["run_id"]), set(chosen)
    return [run_id for run_id in ranked if run_id in wanted] or ranked[:spec.chosen]


def headline_values(ranking: pd.DataFrame, benchmark: Benchmark) -> pd.DataFrame:
    """Each ranked row's headline (on chosen groups: the subset's, `SUBSET_COLUMN`) with its 95 % interval; the
    hover note says its rank range and its flags."""
    metric = benchmark.headline_metric()
    subset = SUBSET_COLUMN in ranking
    blank = pd.Series(float("nan"), index=ranking.index, dtype=float)
    ranges = [format_rank_range(best, worst) or "–"
              for best, worst in zip(ranking.get("rank_best", blank), ranking.get("rank_worst", blank))]
    badges = [[flag.badge for flag in parse_codes(codes)] for codes in ranking.get("flags", blank)]
    frame = pd.DataFrame({
        "row": short_labels(list(ranking["model"]), list(ranking["revision"])),
        "hover": [full_label(model, revision) for model, revision in zip(ranking["model"], ranking["revision"])],
        "group": f"{metric.label} {ON_CHOSEN_GROUPS}" if subset else metric.label,
        "value": ranking[SUBSET_COLUMN if subset else metric.name].to_numpy(dtype=float),
        "low": ranking.get("ci_low", blank).to_numpy(dtype=float),
        "high": ranking.get("ci_high", blank).to_numpy(dtype=float),
        "note": ["\n".join([f"rank range {rank_range}", *flags]) for rank_range, flags in zip(ranges, badges)],
    })
    return frame[list(VALUE_COLUMNS)]


def two_way_values(run: RunResult, breakdown: Breakdown) -> pd.DataFrame:
    """One run's breakdown whose groups each hold several figures (`{Hindi: {native: 7.1, romanized: 6.0}}`): a row
    per group, a column per figure, both in the summary's order; the hover names the whole run id."""
    hover = full_label(run.model, run.revision)
    rows = [{"row": group, "hover": f"{hover} · {group}", "group": name, "value": _number(value),
             "low": float("nan"), "high": float("nan"), "note": None}
            for group, figures in (run.summary.get(breakdown.summary_key) or {}).items()
            if isinstance(figures, Mapping)
            for name, value in figures.items() if not isinstance(value, (Mapping, list))]
    return _every_group(pd.DataFrame(rows, columns=list(VALUE_COLUMNS)))


def _is_two_way(run: RunResult, breakdown: Breakdown) -> bool:
    """Whether the run's groups of `breakdown` hold several figures each, none of them the benchmark's metrics."""
    groups = (run.summary.get(breakdown.summary_key) or {}).values()
    return any(isinstance(figures, Mapping) and "metrics" not in figures for figures in groups)


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
    metrics = figure_metrics(benchmark, spec)
    if spec.kind is FigureKind.SCATTER:
        return _length_values(runs, benchmark, metrics[0])
    labels = short_labels([run.model for run in runs], [run.revision for run in runs])
    breakdown = _breakdown(benchmark, spec.breakdown) if spec.breakdown else None
    rows = []
    for run, label in zip(runs, labels):
        hover = full_label(run.model, run.revision)
        cells = (_group_cells(run.summary, benchmark, breakdown, metrics[0]) if breakdown
                 else _metric_cells(run.summary, metrics))
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


def _group_cells(summary: Mapping[str, Any], benchmark: Benchmark, breakdown: Breakdown,
                 metric: Metric) -> list[dict[str, Any]]:
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
