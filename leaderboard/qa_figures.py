"""The QA benchmark's figures: `DataFrame -> go.Figure`, no I/O, no gradio (as figures.py).

Model ids are untrusted: plotly reads HTML-like tags in labels, so every label is escaped.
"""

from __future__ import annotations

import html

import pandas as pd
import plotly.graph_objects as go

from leaderboard.figures import error_figure

SCORERS = (("exact", "Exact substring"), ("overlap", "Word overlap"), ("judge", "LLM judge"))


def accuracy_bars(ranking: pd.DataFrame) -> go.Figure:
    """Each model's accuracy under the three scorers, side by side (0–100 %)."""
    if ranking.empty:
        return error_figure("No QA results yet.")
    labels = [_text(f"{model} @ {str(revision)[:12]}")
              for model, revision in zip(ranking["model"], ranking["revision"])]
    figure = go.Figure([
        go.Bar(name=name, y=labels, x=ranking[column], orientation="h", hovertemplate="%{y}: %{x:.1f} %")
        for column, name in SCORERS
    ])
    figure.update_layout(
        title="Accuracy by scorer (%)", barmode="group", xaxis={"range": [0, 100], "title": "%"},
        yaxis={"autorange": "reversed"}, height=max(300, 90 * len(labels) + 120),
    )
    return figure


def language_heatmap(matrix: pd.DataFrame, metric_label: str = "Judge accuracy") -> go.Figure:
    """Models x languages of one metric in %."""
    if matrix.empty:
        return error_figure("No QA results yet.")
    figure = go.Figure(go.Heatmap(
        z=matrix.to_numpy(dtype=float), x=[_text(c) for c in matrix.columns], y=[_text(i) for i in matrix.index],
        zmin=0, zmax=100, colorscale="Viridis", hovertemplate="%{y} · %{x}: %{z:.1f} %<extra></extra>",
    ))
    figure.update_layout(title=f"{metric_label} per language (%)", yaxis={"autorange": "reversed"},
                         height=max(300, 40 * len(matrix.index) + 150))
    return figure


def _text(value: object) -> str:
    return html.escape(str(value), quote=False)
