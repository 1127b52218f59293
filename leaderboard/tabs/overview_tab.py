"""The landing view, above the tabs: each model's headline on every benchmark, side by side."""

from __future__ import annotations

from typing import Any

import gradio as gr
import pandas as pd

from eval_backend.benchmarks import BENCHMARKS
from leaderboard.context import AppContext
from leaderboard.display import DECIMALS, PERCENT_DECIMALS, short_revision
from leaderboard.overview import headline_column, overview_frame

NOTE = (
    "Each benchmark's own headline, in its own unit: "
    + "; ".join(f"**{b.title}**: {b.headline_metric().label} ({b.headline_metric().unit})" for b in BENCHMARKS.values())
    + ". Scores of different kinds are never averaged into one number; a blank means not evaluated on that "
    "benchmark. Each benchmark's tab has its table, plots, items and downloads."
)
BENCHMARK_UNITS = {headline_column(b): b.headline_metric().unit for b in BENCHMARKS.values()}


def build(context: AppContext) -> None:
    """An open accordion with the side-by-side table, refreshed with the results."""
    with gr.Accordion("All benchmarks, side by side", open=True):
        gr.Markdown(NOTE)
        table = gr.Dataframe(interactive=False, elem_id="overview-table", max_height=320)
    context.results_version.change(lambda: render_overview(context), None, table, show_progress="hidden",
                                   concurrency_limit=None)


def render_overview(context: AppContext) -> Any:
    """The table for every benchmark's current runs, as text: scores to 2 decimals, percentages to 1."""
    frame = overview_frame({name: store.snapshot().runs for name, store in context.stores.items()})
    shown = pd.DataFrame({
        "Model": frame["model"],
        "Revision": [short_revision(revision) for revision in frame["revision"]],
        **{column: [_figure(value, BENCHMARK_UNITS[column]) for value in frame[column]]
           for column in frame.columns[2:]},
    })
    return gr.update(value=shown, datatype=["str"] * len(shown.columns))



def _figure(value: object, unit: str) -> str:
    """Blank when not evaluated; a percentage to one decimal, a score to two (the board's rule)."""
    if value is None or pd.isna(value):
        return ""
    return f"{value:.{PERCENT_DECIMALS if unit == '%' else DECIMALS}f}"
