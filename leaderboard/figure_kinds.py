"""The board's figure kinds, one pure function each: a long DataFrame of values in, a plotly Figure out.

Every kind reads the same frame (`VALUE_COLUMNS`): one row per (run, group) with the run's short label (`row`),
its whole id (`hover`), the group, the value, its 95 % interval (`low`, `high`; NaN: none) and optional hover
lines (`note`); runs and groups are drawn in the order they first appear. Every label is escaped (plotly reads
HTML-like tags), a legend sits above the plot area, and a figure draws at most MAX_ROWS runs, so its height is
bounded whatever the number of models.
"""

from __future__ import annotations

import functools
import html
import logging
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from eval_backend.benchmarks.board_view import FigureKind, FigureSpec
from leaderboard.display import format_interval

logger = logging.getLogger(__name__)
VALUE_COLUMNS = ("row", "hover", "group", "value", "low", "high", "note")
MAX_ROWS = 60
"""Runs a figure draws at most: 60 bars of 28 px already make a page-long plot."""
MAX_RADAR_ROWS = 5
ROW_PX = 28
MIN_HEIGHT_PX = 320
LEGEND_MARGIN_PX = 50
MAX_HEIGHT_PX = ROW_PX * MAX_ROWS + 140 + LEGEND_MARGIN_PX
RADAR_MARGIN = {"l": 130, "r": 130, "t": 120, "b": 40}
UNIT_RANGES = {"%": (0.0, 100.0), "score 1–10": (0.0, 10.0)}
"""The axis range of a unit whose values have fixed bounds; any other unit's range comes from its values."""
LEGEND_ABOVE = {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.0, "yanchor": "bottom"}
"""A legend above the plot area, left-aligned under the title: it never covers a bar or a cell."""


@dataclass(frozen=True)
class Scale:
    """What a figure's values are: their unit, direction and the axis range (None: from the data)."""

    unit: str
    higher_is_better: bool = True
    range: tuple[float, float] | None = None

    @property
    def caption(self) -> str:
        """The unit and direction as a title states them: `%, higher is better`."""
        return f"{self.unit}, {'higher' if self.higher_is_better else 'lower'} is better"


def scale_of(unit: str, higher_is_better: bool = True) -> Scale:
    """The scale of figures in `unit`, with its fixed range where it has one."""
    return Scale(unit, higher_is_better, UNIT_RANGES.get(unit))


def draw(spec: FigureSpec, values: pd.DataFrame, scale: Scale) -> go.Figure:
    """The figure `spec` declares, of `values` (`VALUE_COLUMNS`); a failure is drawn as its message."""
    # The unit on a line of its own: a phone's width holds a short title, never a long one.
    title = f"{plot_text(spec.title)}<br><sup>{plot_text(scale.caption)}</sup>"
    return failsafe(KINDS[spec.kind])(values, title, scale)


def headline_bars(values: pd.DataFrame, title: str, scale: Scale) -> go.Figure:
    """Each run's value as a horizontal bar, the first run at the top, with its 95 % interval where it has one."""
    if values.empty:
        return error_figure("No ranked results yet.")
    title = _bounded_title(title, len(values))
    rows = values.head(MAX_ROWS).iloc[::-1]  # plotly draws the first category at the bottom
    figure = go.Figure(go.Bar(
        x=rows["value"], y=[plot_text(row) for row in rows["row"]], orientation="h", error_x=_whiskers(rows),
        customdata=[plot_text(note).replace("\n", "<br>") for note in rows["note"].fillna("")],
        hovertext=[plot_text(hover) for hover in rows["hover"]], marker_color="#2f6db5",
        hovertemplate="%{hovertext}<br>%{x:.2f}<br>%{customdata}<extra></extra>",
    ))
    return bounded_layout(figure, title, len(rows), xaxis_title=plot_text(scale.unit), xaxis_range=scale.range)


def heatmap(values: pd.DataFrame, title: str, scale: Scale) -> go.Figure:
    """Runs x groups, each cell's 95 % interval in its hover; a blank cell is a group the run has no value of.
    Every row and column is labelled; the colours run from worst to best in the figures' direction."""
    if values.empty:
        return error_figure("No figures per group yet.")
    rows, title = _bounded(values, title)
    wide, low, high = (_wide(rows, column) for column in ("value", "low", "high"))
    intervals = [[format_interval(a, b) or "n/a" for a, b in zip(lows, highs)]
                 for lows, highs in zip(low.to_numpy(), high.to_numpy())]
    hover = dict(zip(rows["row"], rows["hover"]))
    x, y = [plot_text(group) for group in wide.columns], [plot_text(row) for row in wide.index]
    zmin, zmax = scale.range or (None, None)
    figure = go.Figure(go.Heatmap(
        z=wide.to_numpy(dtype=float), x=x, y=y, zmin=zmin, zmax=zmax,
        colorscale="Viridis" if scale.higher_is_better else "Viridis_r", texttemplate="%{z:.2f}",
        colorbar={"title": {"text": plot_text(scale.unit)}}, customdata=intervals,
        hovertext=[[plot_text(hover[row])] * len(x) for row in wide.index],
        hovertemplate="%{hovertext}<br>%{x}: %{z:.2f}<br>95 % interval %{customdata}<extra></extra>",
    ))
    figure.update_yaxes(autorange="reversed", tickmode="array", tickvals=y, ticktext=y)
    figure.update_xaxes(tickmode="array", tickvals=x, ticktext=x, tickangle=-45 if len(x) > 6 else 0)
    return bounded_layout(figure, title, len(y) + (6 if len(x) > 6 else 0))


def grouped_bars(values: pd.DataFrame, title: str, scale: Scale) -> go.Figure:
    """Each run's groups side by side as horizontal bars (one colour per group, the first run at the top): long
    ids need no rotated labels, and the gap between groups reads at a glance."""
    if values.empty:
        return error_figure("No figures per group yet.")
    rows, title = _bounded(values, title)
    wide = _wide(rows, "value").iloc[::-1]  # plotly draws the first category at the bottom
    hover = dict(zip(rows["row"], rows["hover"]))
    labels = [plot_text(row) for row in wide.index]
    figure = go.Figure([
        go.Bar(name=plot_text(group), y=labels, x=wide[group], orientation="h",
               hovertext=[plot_text(hover[row]) for row in wide.index],
               hovertemplate=f"%{{hovertext}}<br>{plot_text(group)} %{{x:.2f}}<extra></extra>")
        for group in wide.columns
    ])
    figure.update_layout(barmode="group", legend=LEGEND_ABOVE)
    runs = len(rows) // max(len(wide.columns), 1)  # the runs drawn, two with one label too
    slots = runs * max(len(wide.columns), 2) // 2 + 2
    return bounded_layout(figure, title, slots, legend=True, xaxis_title=plot_text(scale.unit),
                          xaxis_range=scale.range)


def radar(values: pd.DataFrame, title: str, scale: Scale) -> go.Figure:
    """The groups of up to MAX_RADAR_ROWS runs on one radar, each run a closed polygon."""
    names = list(dict.fromkeys(values["row"]))
    if len(names) > MAX_RADAR_ROWS:
        raise ValueError(f"choose at most {MAX_RADAR_ROWS} models for the radar (got {len(names)})")
    if values.empty:
        return error_figure(f"Choose up to {MAX_RADAR_ROWS} models to compare.")
    wide = _wide(values, "value")
    hover = dict(zip(values["row"], values["hover"]))
    axis = [plot_text(group) for group in wide.columns]
    figure = go.Figure()
    for row in wide.index:
        scores = list(wide.loc[row])
        figure.add_trace(go.Scatterpolar(
            r=scores + scores[:1], theta=axis + axis[:1], name=plot_text(row), fill="toself", opacity=0.6,
            hovertemplate=f"{plot_text(hover[row])}<br>%{{theta}}: %{{r:.2f}}<extra></extra>",
        ))
    figure.update_layout(polar={"radialaxis": {"range": scale.range}}, height=560, legend=LEGEND_ABOVE)
    # The angular labels sit outside the polar area: wide side margins keep "Literature & Arts" whole.
    return bounded_layout(figure, title, 0, margin=RADAR_MARGIN)


def scatter(values: pd.DataFrame, title: str, scale: Scale) -> go.Figure:
    """One point per run: its value (y, with its 95 % interval) against `x` (its median answer length), on a log
    axis (lengths run from a word to pages); `group` names the x axis. A run without an `x` is left out."""
    drawn = values[values["x"].notna() & values["value"].notna()] if "x" in values else values.iloc[0:0]
    if drawn.empty:
        return error_figure("No ranked run with an answer length yet.")
    rows, title = _bounded(drawn, title)
    figure = go.Figure(go.Scatter(
        x=rows["x"], y=rows["value"], mode="markers", error_y=_whiskers(rows), marker={"size": 10, "color": "#2f6db5"},
        hovertext=[plot_text(hover) for hover in rows["hover"]],
        hovertemplate=f"%{{hovertext}}<br>{plot_text(rows['group'].iloc[0])} %{{x:,.0f}}<br>%{{y:.2f}}<extra></extra>",
    ))
    # Ranges padded by a tenth, so a point at an end (a 100 % model, the shortest answers) is drawn whole.
    lengths = np.log10(rows["x"].clip(lower=1).to_numpy(float))
    figure.update_xaxes(type="log", range=[lengths.min() - 0.1, lengths.max() + 0.1])
    low, high = scale.range or (float(rows["value"].min()), float(rows["value"].max()))
    pad = 0.1 * ((high - low) or 1.0)
    return bounded_layout(figure, title, 0, height=MIN_HEIGHT_PX + 120, xaxis_title=plot_text(rows["group"].iloc[0]),
                          yaxis_title=plot_text(scale.unit), yaxis_range=[low - pad, high + pad])


KINDS: dict[FigureKind, Callable[[pd.DataFrame, str, Scale], go.Figure]] = {
    FigureKind.HEADLINE: headline_bars, FigureKind.HEATMAP: heatmap, FigureKind.BARS: grouped_bars,
    FigureKind.RADAR: radar, FigureKind.SCATTER: scatter,
}


def error_figure(message: str) -> go.Figure:
    """An empty figure that says `message` (for no data, or a plot that failed)."""
    figure = go.Figure().add_annotation(text=plot_text(message), showarrow=False, x=0.5, y=0.5, xref="paper",
                                        yref="paper", font={"size": 16})
    return figure.update_layout(xaxis_visible=False, yaxis_visible=False, height=MIN_HEIGHT_PX)


def failsafe(build: Callable[..., go.Figure]) -> Callable[..., go.Figure]:
    """Draw a failing figure as a message: an exception would leave the plot blank for good."""

    @functools.wraps(build)
    def wrapper(*args: Any, **kwargs: Any) -> go.Figure:
        try:
            return build(*args, **kwargs)
        except Exception as exc:  # any figure bug must not break the page's other plots
            logger.exception("figure %s failed", build.__name__)
            return error_figure(f"This plot could not be drawn: {exc}")

    return wrapper


def _bounded(values: pd.DataFrame, title: str) -> tuple[pd.DataFrame, str]:
    """The values of the first MAX_ROWS runs, and the title saying how many runs that leaves out."""
    runs = list(dict.fromkeys(values["row"]))
    return values[values["row"].isin(runs[:MAX_ROWS])], _bounded_title(title, len(runs))


def _bounded_title(title: str, runs: int) -> str:
    return title if runs <= MAX_ROWS else f"{title}: the first {MAX_ROWS} of {runs} models"


def _wide(values: pd.DataFrame, column: str) -> pd.DataFrame:
    """Runs x groups of one column, both in the order they first appear."""
    wide = values.pivot_table(index="row", columns="group", values=column, aggfunc="first", dropna=False)
    return wide.reindex(index=list(dict.fromkeys(values["row"])), columns=list(dict.fromkeys(values["group"])))


def _whiskers(rows: pd.DataFrame) -> dict[str, Any] | None:
    """Error bars from each row's value to its interval's ends; None when no row has an interval."""
    if rows[["low", "high"]].isna().all().all():
        return None
    return {"type": "data", "array": (rows["high"] - rows["value"]).clip(lower=0),
            "arrayminus": (rows["value"] - rows["low"]).clip(lower=0)}


def plot_text(value: object) -> str:
    """Text plotly draws literally: its HTML-like tags and entities are escaped."""
    return html.escape(str(value), quote=False)


def bounded_layout(figure: go.Figure, title: str, rows: int, legend: bool = False, **layout: object) -> go.Figure:
    """`title` (escaped by the caller), the template and a height for `rows` rows of bars, bounded by MAX_HEIGHT_PX; a
    figure with a legend leaves it room above the plot area."""
    legend_px = LEGEND_MARGIN_PX if legend else 0  # added, so the legend takes no height from the plot area
    if rows:
        layout["height"] = min(max(MIN_HEIGHT_PX, ROW_PX * rows + 140) + legend_px, MAX_HEIGHT_PX)
    layout.setdefault("margin", {"l": 10, "r": 10, "t": 70 + legend_px, "b": 10})
    # The title centred in the top margin (plotly's own place): anchored at its top, a two-line title is cut.
    figure.update_layout(title={"text": title, "font": {"size": 15}}, template="plotly_white", **layout)
    return figure.update_yaxes(automargin=True).update_xaxes(automargin=True)
