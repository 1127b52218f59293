"""Any scored benchmark's figures: `DataFrame -> go.Figure`, no I/O, no gradio (as figures.py).

Model ids are untrusted: plotly reads HTML-like tags in labels, so every label is escaped.
"""

from __future__ import annotations

import html

import pandas as pd
import plotly.graph_objects as go

from eval_backend.benchmarks.plugin import Benchmark
from leaderboard.writing_bench_figures import error_figure


def metric_bars(ranking: pd.DataFrame, benchmark: Benchmark) -> go.Figure:
    """Each model's percentages (every metric in %), side by side (0–100 %)."""
    metrics = [metric for metric in benchmark.metrics if metric.unit == "%" and metric.name in ranking]
    if ranking.empty or not metrics:
        return error_figure(f"No {benchmark.title} results yet.")
    labels = [_text(f"{model} @ {str(revision)[:12]}")
              for model, revision in zip(ranking["model"], ranking["revision"])]
    figure = go.Figure([
        go.Bar(name=_text(metric.label), y=labels, x=ranking[metric.name], orientation="h",
               hovertemplate="%{y}: %{x:.1f} %")
        for metric in metrics
    ])
    figure.update_layout(
        title=f"{_text(benchmark.title)}: every figure in %", barmode="group", xaxis={"range": [0, 100], "title": "%"}, yaxis={"autorange": "reversed"},
        height=max(300, 30 * len(metrics) * len(labels) + 120),
    )
    return figure


def group_heatmap(matrix: pd.DataFrame, metric_label: str, group_label: str) -> go.Figure:
    """Models x groups (languages) of one metric in %."""
    if matrix.empty:
        return error_figure(f"No figures per {group_label.lower()} yet.")
    figure = go.Figure(go.Heatmap(
        z=matrix.to_numpy(dtype=float), x=[_text(c) for c in matrix.columns], y=[_text(i) for i in matrix.index],
        zmin=0, zmax=100, colorscale="Viridis", hovertemplate="%{y} · %{x}: %{z:.1f} %<extra></extra>",
    ))
    figure.update_layout(title=f"{_text(metric_label)} per {group_label.lower()} (%)", yaxis={"autorange": "reversed"},
                         height=max(300, 40 * len(matrix.index) + 150))
    return figure


def _text(value: object) -> str:
    return html.escape(str(value), quote=False)
