"""Plots of the ranked runs the board shows (its search, filters and chosen subset): the Indic average
with intervals, a language heatmap (intervals in the hover), variant bars, a domain radar, one model's
language x rendering scores and a subdomain heatmap; top-N keeps them readable."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

import gradio as gr

from leaderboard.context import AppContext, as_updates
from leaderboard.endpoint_inputs import number, optional_text, refusing_bad_input, texts
from leaderboard.figure_kinds import MAX_RADAR_ROWS, draw
from leaderboard.writing_bench_figures import SCALE, SPECS, figure_values
from leaderboard.writing_bench_tables import BoardQuery, language_variant_frame, query_rows, ranked_rows, subdomain_frame, top_n
from leaderboard.tabs.benchmark_plots import DEFAULT_TOP_N, MAX_TOP_N, plot
from leaderboard.tabs.leaderboard_tab import board_query

DEFAULT_RADAR = 3


@dataclass(frozen=True)
class PlotsRender:
    """The figures, the radar's model chooser and the language x rendering view's model chooser."""

    overall: Any
    heatmap: Any
    variants: Any
    radar: Any
    radar_models: Any
    language_variants: Any
    variant_model: Any
    subdomains: Any


PLOTS_NOTE = ("The runs the **Leaderboard** shows (its search, filters and chosen subset), ranked; models are "
              "labelled `org/name@revision` (7 characters), the full id on hover.")


def build(context: AppContext, board_controls: Sequence[gr.components.Component] = ()) -> None:
    """Lay out the tab; figures follow the results, the top-N slider, the radar choice and the board's
    controls (`leaderboard_tab.build`'s: what `board_query` reads)."""
    gr.Markdown(PLOTS_NOTE, elem_id="plots-note")
    with gr.Row():
        top = gr.Slider(1, MAX_TOP_N, value=DEFAULT_TOP_N, step=1, label="Show the top N models", elem_id="top-n")
        radar_models = gr.Dropdown(
            label=f"Models on the domain radar (up to {MAX_RADAR_ROWS})", multiselect=True,
            max_choices=MAX_RADAR_ROWS, elem_id="radar-models", allow_custom_value=True,
        )
    overall = plot("Indic average", SPECS["overall"])
    heatmap = plot("Languages", SPECS["heatmap"])
    variants = plot("Prompt renderings", SPECS["variants"])
    radar = plot("Domains", SPECS["radar"])
    # Choices come with each render; the board's controls re-render in sessions that never saw them, and
    # `render_plots` keeps only runs it draws, so a value the page holds is never refused before it.
    variant_model = gr.Dropdown(label="Model for the language x rendering view", elem_id="variant-model",
                                allow_custom_value=True)
    language_variants = plot("Languages x renderings", SPECS["language-variants"])
    subdomains = plot("Subdomains", SPECS["subdomains"])
    components = {"overall": overall, "heatmap": heatmap, "variants": variants, "radar": radar,
                  "radar_models": radar_models, "language_variants": language_variants,
                  "variant_model": variant_model, "subdomains": subdomains}

    @refusing_bad_input
    def render(n: object, chosen: object, one: object, *board: object) -> dict[Any, Any]:
        query = board_query(*board) if board else BoardQuery()  # every input checked before any work
        top_count = int(number(n, "top N", 1, MAX_TOP_N) or DEFAULT_TOP_N)
        return as_updates(render_plots(context, top_count, texts(chosen, "radar models"),
                                       optional_text(one, "variant model"), query), components)

    inputs = [top, radar_models, variant_model, *board_controls]
    outputs = list(components.values())
    # One listener for every trigger (README, "One listener per view"). The slider's `change` also fires when a number is
    # typed into its box and Enter pressed (`release` does not).
    triggers = [context.results_version.change, top.change, radar_models.input, variant_model.input,
                *(control.change for control in board_controls)]  # the board's rows are the plots' rows
    gr.on(triggers, render, inputs, outputs, trigger_mode="always_last", show_progress="hidden")


def render_plots(
    context: AppContext, n: int, chosen: Sequence[str] | None, one: str | None = None,
    query: BoardQuery = BoardQuery(),
) -> PlotsRender:
    """Every figure for the top `n` ranked runs the board's `query` keeps, in its order; the radar shows the
    chosen ranked runs (any of them; default: the best three), the language x rendering view one run
    (default: the best)."""
    snapshot = context.store.snapshot()
    try:
        ranked = ranked_rows(query_rows(context.tables.table(snapshot), query, context.tables.subset(snapshot, query)))
    except ValueError:  # languages (or variants) no run has: the board shows the standard ranking, so do the plots
        standard = dataclasses.replace(query, languages=(), variants=())
        ranked = ranked_rows(query_rows(context.tables.table(snapshot), standard))
    table = top_n(ranked, n)
    labels = list(table["label"])
    every = list(ranked["label"])  # the radar compares any ranked models, not only the top N
    picked = [label for label in chosen or () if label in every] or labels[:DEFAULT_RADAR]
    single = one if one in labels else (labels[0] if labels else None)
    single_run = table.loc[table["label"] == single, "run_id"].tolist()
    runs = [run for run in snapshot.runs if run.run_id in set(table["run_id"])]
    by_variant = language_variant_frame([run for run in runs if run.run_id in single_run])
    single_spec = dataclasses.replace(SPECS["language-variants"],
                                      title=f"{single or ''}: {SPECS['language-variants'].title.lower()}")
    return PlotsRender(
        overall=_drawn("overall", table),
        heatmap=_drawn("heatmap", table),
        variants=_drawn("variants", table),
        radar=_drawn("radar", ranked[ranked["label"].isin(picked)]),
        radar_models=gr.update(choices=every, value=picked),
        language_variants=draw(single_spec, figure_values(single_spec, table, by_variant), SCALE),
        variant_model=gr.update(choices=labels, value=single),
        subdomains=_drawn("subdomains", table, subdomain_frame(runs)),
    )


def _drawn(name: str, table: Any, scores: Any = None) -> Any:
    """WritingBench's declared figure `name` of the runs of `table` (`scores`: the long frame it reads, if any)."""
    spec = SPECS[name]
    return draw(spec, figure_values(spec, table, scores), SCALE)
