"""Plots: overall with intervals, language heatmap, variant bars, a domain radar; top-N keeps them readable."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import gradio as gr
import plotly.graph_objects as go

from leaderboard.context import AppContext, as_updates
from leaderboard.figures import MAX_RADAR_MODELS, domain_radar, error_figure, language_heatmap, overall_figure, variant_bars
from leaderboard.tables import top_n

logger = logging.getLogger(__name__)
DEFAULT_TOP_N = 20
DEFAULT_RADAR = 3


@dataclass(frozen=True)
class PlotsRender:
    """The four figures and the radar's model chooser."""

    overall: Any
    heatmap: Any
    variants: Any
    radar: Any
    radar_models: Any


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


def build(context: AppContext) -> None:
    """Lay out the tab; figures follow the results, the top-N slider and the radar choice."""
    with gr.Row():
        top = gr.Slider(1, 100, value=DEFAULT_TOP_N, step=1, label="Show the top N models", elem_id="top-n")
        radar_models = gr.Dropdown(
            label=f"Models on the domain radar (up to {MAX_RADAR_MODELS})", multiselect=True,
            max_choices=MAX_RADAR_MODELS, elem_id="radar-models",
        )
    overall = gr.Plot(label="Overall", elem_id="plot-overall")
    heatmap = gr.Plot(label="Languages", elem_id="plot-heatmap")
    with gr.Row():
        variants = gr.Plot(label="Prompt renderings", elem_id="plot-variants")
        radar = gr.Plot(label="Domains", elem_id="plot-radar")
    components = {"overall": overall, "heatmap": heatmap, "variants": variants, "radar": radar,
                  "radar_models": radar_models}

    def render(n: float, chosen: Sequence[str] | None) -> dict[Any, Any]:
        return as_updates(render_plots(context, int(n), chosen), components)

    inputs = [top, radar_models]
    outputs = list(components.values())
    context.results_version.change(render, inputs, outputs, show_progress="hidden")
    top.release(render, inputs, outputs)
    radar_models.input(render, inputs, outputs)


def render_plots(context: AppContext, n: int, chosen: Sequence[str] | None) -> PlotsRender:
    """Every figure for the top `n` runs; the radar shows the chosen runs (default: the best three)."""
    table = top_n(context.tables.table(context.store.snapshot()), n)
    labels = list(table["label"])
    picked = [label for label in chosen or () if label in labels] or labels[:DEFAULT_RADAR]
    return PlotsRender(
        overall=failsafe(overall_figure)(table),
        heatmap=failsafe(language_heatmap)(table),
        variants=failsafe(variant_bars)(table),
        radar=failsafe(domain_radar)(table, picked),
        radar_models=gr.update(choices=labels, value=picked),
    )
