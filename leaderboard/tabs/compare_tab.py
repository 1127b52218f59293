"""Compare: is model A better than model B? Paired differences per benchmark, and a pairwise matrix."""

from __future__ import annotations

import html
import logging
from pathlib import Path
from typing import Any, Mapping

import gradio as gr

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from leaderboard.compare_links import LINK_SCRIPT, parse_compare_link
from leaderboard.comparison_tables import (
    COLUMNS, comparison_table, download_document, download_table, forest_figure, headline_html, wrapping_html,
)
from leaderboard.endpoint_inputs import flag, number, optional_text, refusing_bad_input
from leaderboard.context import AppContext
from leaderboard.display import short_revision
from leaderboard.exports import content_digest, export_json, export_view_csv, safe_name
from leaderboard.pairwise_matrix import (
    DEFAULT_MODELS, MAX_MODELS, MatrixUnavailable, bounded_models, figure_choices, matrix_html, matrix_note,
    matrix_view,
)
from leaderboard.run_pair import BenchmarkComparison, PairComparison, compare_pair
from eval_backend.run_items import model_label
from leaderboard.figure_kinds import failsafe

logger = logging.getLogger(__name__)
INTRO = (
    "Pick two models: on every benchmark both have run on the same dataset revision, their paired difference "
    "**A − B** item by item, overall, per language and per variant / domain / task, with its paired, clustered 95 % "
    "interval, the p-value of the paired permutation test and that p-value Holm-adjusted over the benchmark's rows, "
    "one verdict (A better, B better or no significant difference: the adjusted p-value at most 0.05 **and** the "
    "interval excluding 0; no verdict on too few clusters, with why) and how many items each model won, tied and "
    "lost. Each benchmark's comparison downloads as JSON (what `python -m eval_backend compare RUN_A RUN_B --json` "
    "prints) or CSV. About explains each figure."
)
CHOOSE = "Choose two different models."
MATRIX_BENCHMARKS = [name for name in BENCHMARKS if figure_choices(name)]


def build(context: AppContext, tab: gr.Tab) -> None:
    """Lay out the view and wire the model choice, the matrix's choices, the board's refresh and the address.

    The matrix is drawn when the tab is first opened (or a link names it), then kept up to date: a
    visitor reading another tab never waits behind a matrix they did not ask for."""
    gr.Markdown(INTRO)
    with gr.Row():
        # Custom values: a session's copy of a dropdown may predate the prerendered choices (as in Judgments),
        # and a run id no benchmark holds is compared on nothing (`compare_pair`).
        a = gr.Dropdown(label="Model A", elem_id="compare-a", scale=1, allow_custom_value=True)
        b = gr.Dropdown(label="Model B", elem_id="compare-b", scale=1, allow_custom_value=True)
    summary = gr.HTML(CHOOSE, elem_id="compare-summary")
    sections = {name: _section(name) for name in BENCHMARKS}
    gr.Markdown("### Pairwise matrix of the top ranked models")
    with gr.Row():
        benchmark = gr.Dropdown([(BENCHMARKS[name].title, name) for name in MATRIX_BENCHMARKS],
                                value=DEFAULT_BENCHMARK, label="Benchmark", elem_id="matrix-benchmark")
        figure = gr.Dropdown(figure_choices(DEFAULT_BENCHMARK), value=figure_choices(DEFAULT_BENCHMARK)[0][1],
                             label="Figure", elem_id="matrix-figure")
        top = gr.Slider(2, MAX_MODELS, value=DEFAULT_MODELS, step=1, label="Top N models", elem_id="matrix-top")
    note = gr.Markdown(elem_id="matrix-note")
    matrix = gr.HTML(elem_id="pairwise-matrix")

    pair_outputs = [summary, *(component for section in sections.values() for component in section)]
    matrix_outputs = [figure, note, matrix]
    every_output = [a, b, benchmark, *pair_outputs, *matrix_outputs]
    drawn = gr.State(False)

    @refusing_bad_input
    def show_pair(run_a: object, run_b: object) -> dict[Any, Any]:
        return pair_updates(context, sections, summary, optional_text(run_a, "model A"), optional_text(run_b, "model B"))

    @refusing_bad_input
    def show_matrix(name: object, chosen: object, n: object) -> dict[Any, Any]:
        top_n = number(n, "top N models", 2, MAX_MODELS) or DEFAULT_MODELS
        return matrix_updates(context, figure, note, matrix, optional_text(name, "benchmark"),
                              optional_text(chosen, "figure"), top_n)

    def open_matrix(name: object, chosen: object, n: object) -> dict[Any, Any]:
        return {drawn: True, **show_matrix(name, chosen, n)}

    @refusing_bad_input
    def refresh(run_a: object, run_b: object, name: object, chosen: object, n: object, is_drawn: object) -> dict:
        run_a, run_b = optional_text(run_a, "model A"), optional_text(run_b, "model B")
        is_drawn = flag(is_drawn, "matrix drawn")
        # A value is sent only to drop a run the board no longer holds, and the pair redrawn only when one was
        # chosen: a visitor who picks a model while this first refresh is on its way keeps their choice.
        choices = model_choices(context)
        known = {run_id for _, run_id in choices}
        kept_a, kept_b = (run if run in known else None for run in (run_a, run_b))
        choosers = {chooser: gr.update(choices=choices) if run == kept else gr.update(choices=choices, value=kept)
                    for chooser, run, kept in ((a, run_a, kept_a), (b, run_b, kept_b))}
        pair_part = show_pair(kept_a, kept_b) if run_a or run_b else {output: gr.skip() for output in pair_outputs}
        matrix_part = show_matrix(name, chosen, n) if is_drawn else {output: gr.skip() for output in matrix_outputs}
        return {**choosers, benchmark: gr.skip(), **pair_part, **matrix_part}

    def open_link(address: str) -> dict[Any, Any]:
        link = parse_compare_link(address or "", context.stores)
        if link.empty:  # the link asks nothing of this view
            return {output: gr.skip() for output in every_output}
        choices = model_choices(context)
        name = link.benchmark or DEFAULT_BENCHMARK
        return {a: gr.update(choices=choices, value=link.a), b: gr.update(choices=choices, value=link.b),
                benchmark: name, top: link.top or DEFAULT_MODELS, **show_pair(link.a, link.b),
                **open_matrix(name, link.figure, link.top or DEFAULT_MODELS)}

    matrix_inputs = [benchmark, figure, top]
    context.results_version.change(refresh, [a, b, *matrix_inputs, drawn], every_output, show_progress="hidden")
    context.page_link.change(open_link, context.page_link, [*every_output, top, drawn], show_progress="hidden")
    tab.select(open_matrix, matrix_inputs, [drawn, *matrix_outputs], show_progress="hidden")
    # One listener for both choosers, one for the matrix's choices (README, "One listener per view"); a figure the
    # benchmark chosen lacks falls back to its first.
    gr.on([a.input, b.input], show_pair, [a, b], pair_outputs, trigger_mode="always_last")
    gr.on([benchmark.input, figure.input, top.release], show_matrix, matrix_inputs, matrix_outputs,
          trigger_mode="always_last")
    link_inputs = [a, b, benchmark, figure, top]
    for control in link_inputs:
        control.change(None, link_inputs, None, js=LINK_SCRIPT)


def _section(name: str) -> tuple[Any, ...]:
    """One benchmark's part of the view (hidden until two models are compared on it)."""
    with gr.Column(visible=False, elem_id=f"compare-section-{name}") as column:
        heading = gr.Markdown(f"### {BENCHMARKS[name].title}")
        answer = gr.HTML(elem_id=f"compare-headline-{name}")
        table = gr.Dataframe(headers=COLUMNS, interactive=False, wrap=True, elem_id=f"compare-table-{name}")
        with gr.Row():
            as_json = gr.DownloadButton("This comparison (JSON)", elem_id=f"compare-download-json-{name}", size="sm")
            as_csv = gr.DownloadButton("This table (CSV)", elem_id=f"compare-download-csv-{name}", size="sm")
        plot = gr.Plot(label="Forest plot", elem_id=f"compare-forest-{name}")
    return column, heading, answer, table, as_json, as_csv, plot


def model_choices(context: AppContext) -> list[tuple[str, str]]:
    """Every run id any benchmark holds, as (label, run id), by label."""
    runs = {run.run_id: run for store in context.stores.values() for run in store.snapshot().runs}
    return sorted(((model_label(run.model, run.revision), run_id) for run_id, run in runs.items()),
                  key=lambda choice: choice[0].lower())


def pair_updates(context: AppContext, sections: Mapping[str, tuple[Any, ...]], summary: Any,
                 run_a: str | None, run_b: str | None) -> dict[Any, Any]:
    """The summary and every benchmark's section for A against B (sections hidden where not compared)."""
    updates = {component: gr.update(visible=False) if i == 0 else gr.skip()  # each shown below where compared
               for section in sections.values() for i, component in enumerate(section)}
    if not run_a or not run_b or run_a == run_b:
        return {summary: CHOOSE, **updates}
    result = compare_pair(context.stores, run_a, run_b)
    for comparison in result.compared:
        column, heading, answer, table, as_json, as_csv, plot = sections[comparison.benchmark]
        json_path, csv_path = comparison_downloads(context.downloads_dir, comparison)
        revision = short_revision(comparison.dataset_revision) or "unrecorded"
        updates.update({column: gr.update(visible=True),
                        heading: f"### {comparison.title}\nDataset revision `{revision}` (both runs).",
                        answer: headline_html(comparison),
                        table: gr.update(value=comparison_table(comparison), datatype=["str"] * len(COLUMNS)),
                        as_json: json_path, as_csv: csv_path, plot: failsafe(forest_figure)(comparison)})
    return {summary: _summary(context, run_a, run_b, result), **updates}


def comparison_downloads(downloads_dir: Path, comparison: BenchmarkComparison) -> tuple[str, str]:
    """The comparison's JSON and CSV files (written once per content), named by benchmark and models."""
    stem = (f"compare-{safe_name(comparison.benchmark)}-{safe_name(comparison.a_label, 60)}-vs-"
            f"{safe_name(comparison.b_label, 60)}")
    table = download_table(comparison)
    csv_path = export_view_csv(table, downloads_dir, f"compare-{content_digest(table.to_csv())}", f"{stem}.csv")
    return str(export_json(download_document(comparison), downloads_dir, f"{stem}.json")), str(csv_path)


def matrix_updates(context: AppContext, figure: Any, note: Any, matrix: Any, name: str | None, chosen: str | None,
                   n: float) -> dict[Any, Any]:
    """The figure chooser, the note with the correction, and the matrix of the top `n` ranked runs."""
    name = name if name in MATRIX_BENCHMARKS else DEFAULT_BENCHMARK
    choices = figure_choices(name)
    chosen = chosen if chosen in {value for _, value in choices} else choices[0][1]
    chooser = gr.update(choices=choices, value=chosen)
    try:
        view = matrix_view(context.stores[name], name, chosen, bounded_models(n))
    except MatrixUnavailable as exc:
        logger.warning("pairwise matrix of %s: %s", name, exc)
        return {figure: chooser, note: f"The matrix cannot be drawn: {exc}", matrix: ""}
    if view is None:
        return {figure: chooser, note: "Fewer than two ranked runs share a dataset revision: nothing to compare yet.",
                matrix: ""}
    return {figure: chooser, note: matrix_note(view), matrix: matrix_html(view)}


def _summary(context: AppContext, run_a: str, run_b: str, result: PairComparison) -> str:
    """Who A and B are, and each benchmark not compared with why, as escaped HTML (ids wrap at any character)."""
    labels = {run_id: label for label, run_id in model_choices(context)}
    lines = [f"<strong>{side}</strong> = {html.escape(labels.get(run_id, run_id))}"
             for side, run_id in (("A", run_a), ("B", run_b))]
    if not result.compared:
        lines.append("No benchmark has comparable runs of both models.")
    lines += [f"Not compared on {html.escape(reason)}" for reason in result.skipped]
    return wrapping_html("<br>".join(lines))
