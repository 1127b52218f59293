"""A declared figure's plot in the page."""

from __future__ import annotations

import gradio as gr

from eval_backend.benchmarks.board_view import FigureKind, FigureSpec

WIDE_PLOT = "wide-plot"
"""The class of a plot that keeps its width on a phone and scrolls sideways inside the page (`styles`)."""


def plot(label: str, spec: FigureSpec, prefix: str = "") -> gr.Plot:
    """The plot of a declared figure: `<prefix>plot-<name>`; a heatmap or radar keeps a readable width and scrolls
    sideways where the page is narrower (a phone)."""
    wide = spec.kind in (FigureKind.HEATMAP, FigureKind.RADAR)
    # The figure carries its title: a label shown over it would cover the title's start.
    return gr.Plot(label=label, show_label=False, elem_id=f"{prefix}plot-{spec.name}",
                   elem_classes=[WIDE_PLOT] if wide else [])
