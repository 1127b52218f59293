"""Plotly figures as pure functions of the canonical leaderboard table: no I/O, no gradio.

Plotly reads a few HTML-like tags in text (`<b>`, `<a href>`, ...), so every model label is
escaped before it reaches a figure: an id such as `<script>` is drawn as those characters.
Figures grow with the number of models, and the UI passes a top-N slice to stay readable.
"""

from __future__ import annotations

import html
from typing import Sequence

import pandas as pd
import plotly.graph_objects as go

from leaderboard.tables import group_members

MAX_RADAR_MODELS = 5
SCORE_RANGE = (0, 10)
_ROW_PX = 28
_VARIANT_COLOURS = {"native": "#2f6db5", "code_mixed": "#e08a2c", "romanized": "#4aa564"}


def overall_figure(table: pd.DataFrame) -> go.Figure:
    """Overall score per run as horizontal bars, best at the top, with 95 % interval whiskers."""
    if table.empty:
        return error_figure("No results yet.")
    rows = table.iloc[::-1]  # plotly draws the first category at the bottom
    figure = go.Figure(go.Bar(
        x=rows["overall"],
        y=_labels(rows),
        orientation="h",
        error_x={
            "type": "data",
            "array": (rows["overall_ci_high"] - rows["overall"]).clip(lower=0),
            "arrayminus": (rows["overall"] - rows["overall_ci_low"]).clip(lower=0),
        },
        marker_color="#2f6db5",
        hovertemplate="%{y}<br>overall %{x:.2f}<extra></extra>",
    ))
    return _layout(figure, "Overall score (95 % interval)", len(rows), xaxis_title="score", xaxis_range=SCORE_RANGE)


def language_heatmap(table: pd.DataFrame) -> go.Figure:
    """Model x language config mean scores; a blank cell is a config the run did not cover."""
    configs = group_members(table, "config")
    if table.empty or not configs:
        return error_figure("No per-language scores yet.")
    values = table[[f"config.{name}" for name in configs]]
    figure = go.Figure(go.Heatmap(
        z=values.to_numpy(dtype=float),
        x=[_text(name) for name in configs],
        y=_labels(table),
        zmin=SCORE_RANGE[0],
        zmax=SCORE_RANGE[1],
        colorscale="Viridis",
        texttemplate="%{z:.2f}",
        hovertemplate="%{y}<br>%{x}: %{z:.2f}<extra></extra>",
    ))
    figure.update_yaxes(autorange="reversed")
    return _layout(figure, "Score by language", len(table))


def variant_bars(table: pd.DataFrame) -> go.Figure:
    """Per-variant scores side by side for each run; the gap to native is the robustness drop."""
    variants = group_members(table, "variant")
    if table.empty or not variants:
        return error_figure("No per-variant scores yet.")
    figure = go.Figure()
    for variant in variants:
        figure.add_trace(go.Bar(
            name=variant,
            x=_labels(table),
            y=table[f"variant.{variant}"],
            marker_color=_VARIANT_COLOURS.get(variant),
            hovertemplate=f"%{{x}}<br>{_text(variant)} %{{y:.2f}}<extra></extra>",
        ))
    figure.update_layout(barmode="group", height=460, yaxis_range=SCORE_RANGE)
    return _layout(figure, "Score by prompt rendering (native / code-mixed / romanized)", 0, yaxis_title="score")


def domain_radar(table: pd.DataFrame, labels: Sequence[str]) -> go.Figure:
    """Domain scores of up to five chosen runs (by label) on one radar."""
    if len(labels) > MAX_RADAR_MODELS:
        raise ValueError(f"choose at most {MAX_RADAR_MODELS} models for the radar (got {len(labels)})")
    domains = group_members(table, "domain")
    chosen = table[table["label"].isin(labels)]
    if chosen.empty or not domains:
        return error_figure("Choose up to five models to compare their domains.")
    figure = go.Figure()
    axis = [_text(name) for name in domains]
    for _, row in chosen.iterrows():
        scores = [row[f"domain.{name}"] for name in domains]
        figure.add_trace(go.Scatterpolar(
            r=scores + scores[:1], theta=axis + axis[:1], name=_text(row["label"]), fill="toself", opacity=0.6,
        ))
    figure.update_layout(polar={"radialaxis": {"range": SCORE_RANGE}}, height=520)
    return _layout(figure, "Score by domain", 0)


def error_figure(message: str) -> go.Figure:
    """An empty figure that says `message` (for no data, or a plot that failed)."""
    figure = go.Figure()
    figure.add_annotation(text=_text(message), showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper",
                          font={"size": 16})
    figure.update_layout(xaxis_visible=False, yaxis_visible=False, height=320)
    return figure


def _labels(table: pd.DataFrame) -> list[str]:
    return [_text(label) for label in table["label"]]


def _text(value: object) -> str:
    """Text plotly draws literally: its HTML-like tags and entities are escaped."""
    return html.escape(str(value), quote=False)


def _layout(figure: go.Figure, title: str, rows: int, **layout: object) -> go.Figure:
    if rows:
        layout["height"] = max(320, _ROW_PX * rows + 140)
    figure.update_layout(title=title, margin={"l": 10, "r": 10, "t": 60, "b": 10}, template="plotly_white", **layout)
    figure.update_yaxes(automargin=True)
    return figure
