"""A benchmark tab's plots section: its declared figures of the ranking the tab shows, a top-N slider, and a
chooser above each figure of chosen runs (`FigureSpec.chosen`: a radar's models, the one model of a two-way
breakdown), offering every ranked run; a chosen run no longer ranked is dropped, never refused.

The tab registers the events, as its plots follow its search, filters and chosen groups. The section is folded
and drawn once opened (`opened_fold`): drawn on the first screen, its figures delayed the first tab's ranking on
every first visit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.board_view import FigureKind, FigureSpec
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.run_items import model_label
from leaderboard.declared_figures import chosen_runs, figure_title, ranked_figures
from leaderboard.endpoint_inputs import InvalidInput, number, text, texts
from leaderboard.figure_kinds import MAX_RADAR_ROWS, MAX_ROWS
from leaderboard.results import RunResult
from leaderboard.tabs.opened_fold import opened_fold

DEFAULT_TOP_N = 20
MAX_TOP_N = 100
"""The most models the top-N slider (and a client) may ask for; a figure draws at most `figure_kinds.MAX_ROWS`."""
PLOTS_TITLE = "Plots"
WIDE_PLOT = "wide-plot"
"""The class of a plot that keeps its width on a phone and scrolls sideways inside the page (`styles`)."""
PLOTS_NOTE = ("**Plots** of the ranked runs the search and flags above keep, in the ranking's order (on the chosen "
              "groups, when ticked): the top N, or the models chosen above a plot; models are labelled "
              "`org/name@revision` (7 characters), the whole id on hover.")


@dataclass(frozen=True)
class PlotsSection:
    """The section's controls and plots: the tab's event reads `inputs` and writes `outputs`."""

    top_n: gr.Slider
    choosers: tuple[gr.Dropdown, ...]
    plots: tuple[gr.Plot, ...]
    opened: gr.Checkbox
    """Hidden; true once the viewer has opened the section: the plots are drawn from then on."""

    @property
    def inputs(self) -> list:
        """The slider, then each chooser: `render_plots`' `top_n` and `chosen`."""
        return [self.top_n, *self.choosers]

    @property
    def outputs(self) -> list:
        """Each plot, then each chooser: `render_plots`' values, in order."""
        return [*self.plots, *self.choosers]


def build(benchmark: Benchmark, prefix: str) -> PlotsSection:
    """Lays out, folded (`<prefix>-plots`), the plots note, the slider, each chooser above its plot, the plots; the
    only event it registers marks the section opened (`PlotsSection.opened`)."""
    with opened_fold(PLOTS_TITLE, f"{prefix}-plots") as opened:
        gr.Markdown(PLOTS_NOTE, elem_id=f"{prefix}-plots-note")
        top_n = gr.Slider(1, MAX_TOP_N, value=DEFAULT_TOP_N, step=1, label="Show the top N models",
                          elem_id=f"{prefix}-top-n")
        choosers, plots = [], []
        for spec in benchmark.board.figures:
            title = figure_title(benchmark, spec)
            if spec.chosen:
                # Choices come with each render; `render_plots` drops a value no longer ranked, so a value the page
                # holds is never refused before it.
                choosers.append(gr.Dropdown(label=chooser_label(spec, title), multiselect=spec.chosen > 1,
                                            max_choices=most_chosen(spec) if spec.chosen > 1 else None,
                                            allow_custom_value=True, elem_id=f"{prefix}-chosen-{spec.name}"))
            plots.append(plot(title, spec, f"{prefix}-"))
    return PlotsSection(top_n, tuple(choosers), tuple(plots), opened)


def plot(label: str, spec: FigureSpec, prefix: str = "") -> gr.Plot:
    """The plot of a declared figure: `<prefix>plot-<name>`; a heatmap or radar keeps a readable width and scrolls
    sideways where the page is narrower (a phone)."""
    wide = spec.kind in (FigureKind.HEATMAP, FigureKind.RADAR)
    # The figure carries its title: a label shown over it would cover the title's start.
    return gr.Plot(label=label, show_label=False, elem_id=f"{prefix}plot-{spec.name}",
                   elem_classes=[WIDE_PLOT] if wide else [])


def chooser_label(spec: FigureSpec, title: str) -> str:
    """The chooser's label, which also names it in a refusal: one model, or up to `most_chosen` models."""
    if spec.chosen == 1:
        return f"Model for “{title}”"
    return f"Models on “{title}” (up to {most_chosen(spec)})"


def most_chosen(spec: FigureSpec) -> int:
    """How many runs a figure of chosen runs draws at most: one, a radar's few, or a figure's rows."""
    if spec.chosen == 1:
        return 1
    return MAX_RADAR_ROWS if spec.kind is FigureKind.RADAR else MAX_ROWS


def render_plots(ranking: pd.DataFrame, runs: Mapping[str, RunResult], benchmark: Benchmark, top_n: object,
                 chosen: Sequence[object]) -> list[Any]:
    """Values in the order of `PlotsSection.outputs` for `ranking`, the ranked rows the tab shows in its order
    (`scored_tables.ranking_frame`'s columns): each figure, then each chooser's update (choices: every ranked run's
    label; value: the chosen ones still ranked, else the default best n). `top_n` and each chooser value are
    untrusted input: a bad one raises InvalidInput naming the control."""
    count = int(number(top_n, "top N", 1, MAX_TOP_N) or DEFAULT_TOP_N)
    specs = [spec for spec in benchmark.board.figures if spec.chosen]
    if len(chosen) != len(specs):
        raise InvalidInput(f"the plots take {len(specs)} chooser values, not {len(chosen)}")
    wanted = [_chosen_labels(spec, benchmark, value) for spec, value in zip(specs, chosen)]  # all checked first
    labels = run_labels(ranking)
    by_label = {label: run_id for run_id, label in labels.items()}
    picked = {spec.name: [by_label[label] for label in names if label in by_label]
              for spec, names in zip(specs, wanted)}
    shown = [[labels[run_id] for run_id in chosen_runs(spec, ranking, picked[spec.name])] for spec in specs]
    updates = [gr.update(choices=list(labels.values()), value=names if spec.chosen > 1 else next(iter(names), None))
               for spec, names in zip(specs, shown)]
    return [*ranked_figures(ranking, runs, benchmark, count, picked), *updates]


def _chosen_labels(spec: FigureSpec, benchmark: Benchmark, value: object) -> tuple[str, ...]:
    """A chooser's value checked: one label (a one-run chooser), or a list of at most `most_chosen` labels."""
    name = chooser_label(spec, figure_title(benchmark, spec))
    if spec.chosen == 1:
        return tuple(filter(None, [text(value, name)]))
    labels = texts(value, name)
    if len(labels) > most_chosen(spec):
        raise InvalidInput(f"{name}: {len(labels)} models chosen; at most {most_chosen(spec)} are accepted")
    return labels


def run_labels(ranking: pd.DataFrame) -> dict[str, str]:
    """Each ranked run's label by run id, as runs are named to a reader (`run_items.model_label`); two runs of one
    model and revision (two prompt modes) are told apart by their run ids."""
    named = [model_label(str(model), str(revision)) for model, revision in zip(ranking["model"], ranking["revision"])]
    counts = Counter(named)
    return {str(run_id): label if counts[label] == 1 else f"{label} · {run_id}"
            for run_id, label in zip(ranking["run_id"], named)}
