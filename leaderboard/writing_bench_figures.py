"""Plotly figures as pure functions of the canonical leaderboard table: no I/O, no gradio.

Plotly reads a few HTML-like tags in text (`<b>`, `<a href>`, ...), so every model label is
escaped before it reaches a figure: an id such as `<script>` is drawn as those characters.
Models are drawn under short labels (`short_labels`: `org/name@abc1234`, a long id elided in its
middle), the full id and revision in the hover. Figures grow with the number of models, and the
UI passes the board's rows (its search, filters and subset), top N of them, to stay readable.
"""

from __future__ import annotations

import html
from typing import Sequence

import pandas as pd
import plotly.graph_objects as go

from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS, VARIANTS
from leaderboard.display import format_interval, format_rank_range
from leaderboard.short_labels import full_label, short_labels
from leaderboard.writing_bench_tables import group_members

MAX_RADAR_MODELS = 5
SCORE_RANGE = (0, 10)
_ROW_PX = 28
RADAR_MARGIN = {"l": 130, "r": 130, "t": 80, "b": 40}
_VARIANT_COLOURS = {"native": "#2f6db5", "code_mixed": "#e08a2c", "romanized": "#4aa564"}


def overall_figure(table: pd.DataFrame) -> go.Figure:
    """The headline, the Indic average (the chosen subset's average when the board ranks on one, without
    whiskers: its intervals are the Indic average's), per ranked run as horizontal bars, best at the top,
    with 95 % interval whiskers; the hover gives the full id, the rank range and the answers cut off in thinking."""
    if table.empty:
        return error_figure("No ranked results yet.")
    rows = table.iloc[::-1]  # plotly draws the first category at the bottom
    subset = "subset_average" in rows
    blank = pd.Series(pd.NA, index=rows.index)  # ranked on a subset: no rank range
    ranges = [format_rank_range(best, worst) or "–" for best, worst in zip(rows.get("rank_best", blank),
                                                                         rows.get("rank_worst", blank))]
    cut_off = ["?" if pd.isna(count) else str(int(count)) for count in rows["unclosed_thinking"]]
    whiskers = None if subset else {
        "type": "data",
        "array": (rows["indic_ci_high"] - rows["indic_average"]).clip(lower=0),
        "arrayminus": (rows["indic_average"] - rows["indic_ci_low"]).clip(lower=0),
    }
    name = "Chosen subset average" if subset else "Indic average"
    figure = go.Figure(go.Bar(
        x=rows["subset_average" if subset else "indic_average"],
        y=_labels(rows),
        orientation="h",
        error_x=whiskers,
        customdata=list(zip(ranges, cut_off)),
        hovertext=_full_labels(rows),
        marker_color="#2f6db5",
        hovertemplate=f"%{{hovertext}}<br>{name} %{{x:.2f}}<br>rank range %{{customdata[0]}}"
                      "<br>answers cut off in thinking: %{customdata[1]}<extra></extra>",
    ))
    title = name if subset else "Indic average (95 % interval)"
    return _layout(figure, title, len(rows), xaxis_title="score", xaxis_range=SCORE_RANGE)


def language_heatmap(table: pd.DataFrame) -> go.Figure:
    """Model x language config mean scores, each with its 95 % interval in the hover; a blank
    cell is a config the run did not cover."""
    configs = group_members(table, "config")
    if table.empty or not configs:
        return error_figure("No per-language scores yet.")
    values = table[[f"config.{name}" for name in configs]]
    intervals = [
        [format_interval(row.get(f"config_ci_low.{name}"), row.get(f"config_ci_high.{name}")) or "n/a"
         for name in configs]
        for _, row in table.iterrows()
    ]
    figure = go.Figure(go.Heatmap(
        z=values.to_numpy(dtype=float),
        x=[_text(name) for name in configs],
        y=_labels(table),
        zmin=SCORE_RANGE[0],
        zmax=SCORE_RANGE[1],
        colorscale="Viridis",
        texttemplate="%{z:.2f}",
        customdata=intervals,
        hovertext=_row_hover(table, len(configs)),
        hovertemplate="%{hovertext}<br>%{x}: %{z:.2f}<br>95 % interval %{customdata}<extra></extra>",
    ))
    figure.update_yaxes(autorange="reversed")
    return _layout(figure, "Score by language", len(table))


def language_variant_figure(scores: pd.DataFrame, label: str) -> go.Figure:
    """One run's language x rendering scores (native / code-mixed / romanized per language).

    `scores` is `tables.language_variant_frame` for that run alone.
    """
    if scores.empty:
        return error_figure("Choose a model to see its scores by language and rendering.")
    wide = scores.pivot_table(index="config", columns="variant", values="score", aggfunc="first")
    variants = [v for v in VARIANTS if v in wide.columns] + sorted(set(wide.columns) - set(VARIANTS))
    configs = [c for c in INDIC_CONFIGS if c in wide.index] + sorted(set(wide.index) - set(INDIC_CONFIGS))
    wide = wide.reindex(index=configs, columns=variants)
    figure = go.Figure(go.Heatmap(
        z=wide.to_numpy(dtype=float),
        x=[_text(v) for v in variants],
        y=[_text(c) for c in configs],
        zmin=SCORE_RANGE[0],
        zmax=SCORE_RANGE[1],
        colorscale="Viridis",
        texttemplate="%{z:.2f}",
        hovertemplate="%{y}, %{x}: %{z:.2f}<extra></extra>",
    ))
    figure.update_yaxes(autorange="reversed")
    return _layout(figure, f"{_text(label)}: score by language and rendering", len(configs))


def subdomain_heatmap(scores: pd.DataFrame, table: pd.DataFrame) -> go.Figure:
    """Model x (domain, subdomain) scores for the runs of `table`, in its order.

    `scores` is `tables.subdomain_frame`; a subdomain is named with its domain, since two
    domains may share a subdomain name.
    """
    chosen = scores[scores["run_id"].isin(table["run_id"])]
    if table.empty or chosen.empty:
        return error_figure("No subdomain scores yet.")
    names = [f"{domain} / {sub}" if domain else sub for domain, sub in zip(chosen["domain"], chosen["subdomain"])]
    wide = chosen.assign(name=names).pivot_table(index="run_id", columns="name", values="score", aggfunc="first")
    wide = wide.reindex(index=list(table["run_id"]), columns=sorted(wide.columns))
    figure = go.Figure(go.Heatmap(
        z=wide.to_numpy(dtype=float),
        x=[_text(name) for name in wide.columns],
        y=_labels(table),
        zmin=SCORE_RANGE[0],
        zmax=SCORE_RANGE[1],
        colorscale="Viridis",
        hovertext=_row_hover(table, len(wide.columns)),
        hovertemplate="%{hovertext}<br>%{x}: %{z:.2f}<extra></extra>",
    ))
    figure.update_yaxes(autorange="reversed")
    figure.update_xaxes(tickangle=-45)
    return _layout(figure, "Score by subdomain (Indic languages)", len(table) + 6)


def variant_bars(table: pd.DataFrame) -> go.Figure:
    """Per-variant scores side by side for each run, as horizontal bars (long model names need no
    rotated labels, and the plot grows with the runs); the gap to native is the robustness drop."""
    variants = group_members(table, "variant")
    if table.empty or not variants:
        return error_figure("No per-variant scores yet.")
    rows = table.iloc[::-1]  # plotly draws the first category at the bottom
    figure = go.Figure()
    for variant in variants:
        figure.add_trace(go.Bar(
            name=variant,
            y=_labels(rows),
            x=rows[f"variant.{variant}"],
            orientation="h",
            marker_color=_VARIANT_COLOURS.get(variant),
            hovertext=_full_labels(rows),
            hovertemplate=f"%{{hovertext}}<br>{_text(variant)} %{{x:.2f}}<extra></extra>",
        ))
    figure.update_layout(barmode="group")
    return _layout(figure, "Score by prompt rendering (native / code-mixed / romanized)",
                   len(rows) * len(variants) // 2 + 2, xaxis_title="score", xaxis_range=SCORE_RANGE)


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
    for (_, row), label, full in zip(chosen.iterrows(), _labels(chosen), _full_labels(chosen)):
        scores = [row[f"domain.{domain}"] for domain in domains]
        figure.add_trace(go.Scatterpolar(
            r=scores + scores[:1], theta=axis + axis[:1], name=label, fill="toself", opacity=0.6,
            hovertemplate=f"{full}<br>%{{theta}}: %{{r:.2f}}<extra></extra>",
        ))
    figure.update_layout(polar={"radialaxis": {"range": SCORE_RANGE}}, height=560)
    # The angular labels sit outside the polar area: wide side margins keep "Literature & Arts" whole.
    return _layout(figure, "Score by domain", 0, margin=RADAR_MARGIN)


def error_figure(message: str) -> go.Figure:
    """An empty figure that says `message` (for no data, or a plot that failed)."""
    figure = go.Figure()
    figure.add_annotation(text=_text(message), showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper",
                          font={"size": 16})
    figure.update_layout(xaxis_visible=False, yaxis_visible=False, height=320)
    return figure


def _labels(table: pd.DataFrame) -> list[str]:
    """Each run's short label (unique), escaped."""
    return [_text(label) for label in short_labels(list(table["model"]), list(table["revision"]))]


def _full_labels(table: pd.DataFrame) -> list[str]:
    """Each run's full id and revision, escaped: the hover beside a short label."""
    return [_text(full_label(model, revision)) for model, revision in zip(table["model"], table["revision"])]


def _row_hover(table: pd.DataFrame, columns: int) -> list[list[str]]:
    """A heatmap's hover text: each row's full label in every one of its cells."""
    return [[label] * columns for label in _full_labels(table)]


def _text(value: object) -> str:
    """Text plotly draws literally: its HTML-like tags and entities are escaped."""
    return html.escape(str(value), quote=False)


def _layout(figure: go.Figure, title: str, rows: int, **layout: object) -> go.Figure:
    if rows:
        layout["height"] = max(320, _ROW_PX * rows + 140)
    layout.setdefault("margin", {"l": 10, "r": 10, "t": 60, "b": 10})
    figure.update_layout(title=title, template="plotly_white", **layout)
    figure.update_yaxes(automargin=True)
    return figure
