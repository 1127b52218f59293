"""The tab of every benchmark, built from its declarations alone (`eval_backend.benchmarks.board_view`): its
rankings (`rankings_section`), the figures per group of each breakdown, its plots (`benchmark_plots`) and its item
browser (`item_browser`). Every score links to the items behind it (`score_links`), as an address of this tab
(`?tab=qa&model=<run id>&config=hindi`) that opens the item browser on that model with that filter set.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Sequence

import gradio as gr

from eval_backend.benchmarks.board_view import Breakdown
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.dataset_loader import configured_benchmarks
from leaderboard.endpoint_inputs import choice, refusing_bad_input
from leaderboard.context import AppContext
from leaderboard.ranking_query import RankingQuery, kept_rows
from leaderboard.results import LruCache
from leaderboard.row_flags import too_few_items
from leaderboard.score_links import items_address, score_link
from leaderboard.scored_tables import (
    breakdown_frame, breakdown_groups, chosen_subset, column_decimals, group_labels, labels, metric_names,
    ranking_frame, ranking_of, shown_ranking, subset_breakdowns, subset_line, tab_id,
)
from leaderboard.answer_lengths import lengths_of
from leaderboard.style_view import SEED, STYLE_PARAM, VIEW_CHOICES, footnote, in_reading, style_view
from leaderboard.tabs.style_choice import style_choice
from leaderboard.scored_rankings import split_standing
from leaderboard.tabs import benchmark_plots, item_browser, rankings_section
from leaderboard.tabs.benchmark_plots import DEFAULT_TOP_N, render_plots
from leaderboard.tabs.item_browser import store_of
from leaderboard.tabs.opened_fold import opened_fold
from leaderboard.tabs.rankings_section import RankingsView, rankings_view
from leaderboard.tabs.ranking_controls import params, query_of
from leaderboard.tabs.scored_tab_parts import CellLink, empty_table, linked_table

RENDERS_KEPT = 64
"""Rankings renders kept per tab (one per state of the results, query and reading a viewer asked for)."""
BREAKDOWNS_TITLE = "Figures per group"
TAB_LINK_SCRIPT = """(query) => {{
  const params = new URLSearchParams(query || "");
  return {names}.some((name) => params.has(name)) ? query : "";
}}"""
"""Hands the page's address to the tab's rankings and reading only when it names one of their parameters: any
other address (`?tab=about`, another tab's link) asks the server nothing on this tab's behalf."""


def build(context: AppContext, benchmark: Benchmark) -> None:
    """Lay out the benchmark's tab and wire it to its results and its own controls."""
    prefix, names = tab_id(benchmark), labels(benchmark)
    gr.Markdown(_intro(context, benchmark), elem_id=f"{prefix}-intro")
    on_groups = subset_breakdowns(benchmark)
    linked = replace(context, page_link=tab_link(context, benchmark))
    reading = style_choice(linked, benchmark)
    renders: LruCache[RankingsView] = LruCache(RENDERS_KEPT)
    controls = rankings_section.build(
        prefix, benchmark, linked.page_link, context.results_version,
        lambda query, style=SEED: rankings_of(context, benchmark, query, style, renders),
        empty_table(_ranking_headers(benchmark), names), on_groups,
        lambda: [breakdown_groups(store_of(context, benchmark).snapshot().runs, breakdown) for breakdown in on_groups],
        [reading])
    style_note = gr.Markdown(visible=False, elem_id=f"{prefix}-style-note")
    breakdowns = {breakdown.label: breakdown for breakdown in benchmark.board.breakdowns}
    # Folded: WritingBench's (a row per run and language) outweighed the rest of the page together.
    with opened_fold(BREAKDOWNS_TITLE, f"{prefix}-breakdowns") as breakdowns_opened:
        group_by = gr.Radio(list(breakdowns), value=next(iter(breakdowns)), label="Break down by",
                            elem_id=f"{prefix}-breakdown-group", visible=len(breakdowns) > 1)
        breakdown = gr.Dataframe(empty_table(["model", "revision", benchmark.board.breakdowns[0].name], names),
                                 label="Figures per group, with the headline's 95 % interval (each opens its items)",
                                 interactive=False, elem_id=f"{prefix}-breakdown")
    plots = benchmark_plots.build(benchmark, prefix)
    item_browser.build(context, benchmark)
    groups = list(group_labels(benchmark))

    @refusing_bad_input
    def render(opened: object, chosen: object, style: object) -> list[Any]:
        if not opened:  # folded and never opened: the reading's footnote only
            return [gr.skip(), style_footnote(context, benchmark, _reading(style))]
        grouping = choice(chosen, "group by", breakdowns)
        return render_breakdown(context, benchmark, breakdowns[grouping], _reading(style))

    # The rankings have their own listener (`rankings_section`): one per view, so the last change is the one painted.
    gr.on([context.results_version.change, breakdowns_opened.change, group_by.change, reading.change], render,
          [breakdowns_opened, group_by, reading], [breakdown, style_note], show_progress="hidden",
          trigger_mode="always_last")

    @refusing_bad_input
    def figures(opened: object, *values: object) -> list[Any]:
        if not opened:  # the folded plots draw nothing until opened (the first view included): `benchmark_plots`
            return [gr.skip()] * len(plots.outputs)
        query = query_of(values[:len(controls.inputs)], len(on_groups), groups)
        top_n, *chosen = values[len(controls.inputs):]
        return render_figures(context, benchmark, query, top_n, chosen)

    # The plots draw the ranked rows the rankings' search and filters keep, re-drawn when any changes, from when
    # they are first opened; a chooser's own `input` (a viewer's choice), never its `change`, which the render sets
    # off by writing its value.
    gr.on([context.results_version.change, plots.opened.change, *(control.change for control in controls.inputs),
           plots.top_n.change, *(chooser.input for chooser in plots.choosers)], figures,
          [plots.opened, *controls.inputs, *plots.inputs], plots.outputs, show_progress="hidden",
          trigger_mode="always_last")


def tab_link(context: AppContext, benchmark: Benchmark) -> gr.Textbox | None:
    """The page's address as the tab's rankings and reading see it: set (and changed) only when the address names
    a parameter of theirs (`TAB_LINK_SCRIPT`), in the browser; None on a page with no address box."""
    if context.page_link is None:
        return None
    prefix = tab_id(benchmark)
    names = [*params(prefix, subset_breakdowns(benchmark)), *benchmark.board.former_params, STYLE_PARAM]
    # Empty, not None: an address naming none of them is handed back as "", which must not be a change.
    link = gr.Textbox("", visible=False, elem_id=f"{prefix}-page-link")
    context.page_link.change(None, context.page_link, link, js=TAB_LINK_SCRIPT.format(names=json.dumps(names)))
    return link


def _reading(style: object) -> str:
    return choice(style, "ranking", [value for _, value in VIEW_CHOICES], default=SEED)


def _intro(context: AppContext, benchmark: Benchmark) -> str:
    intro = benchmark.board.intro or benchmark.description
    if benchmark.name in configured_benchmarks(context.settings.data):
        return intro
    return (f"{intro}\n\n**No dataset is configured for this benchmark**, so no model can be evaluated on it yet "
            "and the Submit tab does not offer it. To evaluate models on it, set "
            f"`{benchmark.dataset_setting}` (an environment variable; on a Space, a variable in its settings) to "
            "the dataset's Hub id (`org/name`) or to a local folder holding it, then restart the app.")


def _ranking_headers(benchmark: Benchmark) -> list[str]:
    return list(shown_ranking(ranking_frame([], benchmark), benchmark).columns.drop(["standing", "standing_note",
                                                                                      "run_id"]))


def ranking_links(benchmark: Benchmark) -> CellLink:
    """A ranking cell's link: each metric opens the run's items in this tab (a per-task metric: that task's), a
    breakdown column (`language.Hindi`) the items of its group."""
    link = score_link(tab_id(benchmark), {breakdown.name: breakdown.item_field for breakdown in benchmark.board.breakdowns},
                      metric_names(benchmark),
                      {metric: {benchmark.board.group.name: name} for metric, name in benchmark.board.metric_groups.items()})
    return lambda row, column: link(str(row["run_id"]), column)


def breakdown_links(benchmark: Benchmark, breakdown: Breakdown) -> CellLink:
    """A breakdown cell's link: every figure of a group opens that run's items of that group."""
    return lambda row, column: items_address(tab_id(benchmark), str(row["run_id"]),
                                             {breakdown.item_field: str(row[breakdown.name])})


def render_breakdown(context: AppContext, benchmark: Benchmark, breakdown: Breakdown, style: str = SEED) -> list[Any]:
    """The chosen breakdown's table, and the footnote of the controlled reading (hidden in the seed's)."""
    snapshot = store_of(context, benchmark).snapshot()
    ranking = ranking_of(snapshot, benchmark, context.settings.judge.model)
    few = {run_id for run_id, codes in zip(ranking["run_id"], ranking["flags"]) if too_few_items(codes)}
    long = breakdown_frame(snapshot.runs, benchmark, breakdown, few, lengths_of(snapshot, benchmark))
    return [linked_table(long, labels(benchmark), breakdown_links(benchmark, breakdown), column_decimals(long, benchmark)),
            style_footnote(context, benchmark, style)]


def style_footnote(context: AppContext, benchmark: Benchmark, style: str = SEED) -> Any:
    """The footnote of the controlled reading, shown in it; hidden in the seed's."""
    if style == SEED or not benchmark.board.style_features:
        return gr.update(value="", visible=False)
    snapshot = store_of(context, benchmark).snapshot()
    ranking = ranking_of(snapshot, benchmark, context.settings.judge.model)
    return gr.update(value=footnote(style_view(snapshot, benchmark, ranking), benchmark), visible=True)


def render_figures(context: AppContext, benchmark: Benchmark, query: RankingQuery = RankingQuery(),
                   top_n: object = DEFAULT_TOP_N, chosen: Sequence[object] | None = None) -> list[Any]:
    """The benchmark's declared figures of the ranked runs the query keeps, in the order of the ranking shown (on
    the groups it ranks on, when any): the top N, or the runs chosen above a figure (`benchmark_plots`); then each
    chooser's update."""
    snapshot = store_of(context, benchmark).snapshot()
    ranking = ranking_of(snapshot, benchmark, context.settings.judge.model, chosen_subset(benchmark, query.ranked_on))
    ranked = split_standing(ranking[kept_rows(ranking, query)])[0]
    choosers = [None] * sum(1 for spec in benchmark.board.figures if spec.chosen) if chosen is None else chosen
    return render_plots(ranked, {run.run_id: run for run in snapshot.runs}, benchmark, top_n, choosers)


def rankings_of(context: AppContext, benchmark: Benchmark, query: RankingQuery = RankingQuery(),
                style: object = SEED, renders: LruCache[RankingsView] | None = None) -> RankingsView:
    """The rankings the query keeps (ranked on its groups), in the reading `style` (the seed's, or controlled for
    style), and their CSV; served from `renders` once computed for this state of the results."""
    snapshot, style = store_of(context, benchmark).snapshot(), _reading(style)
    key = (snapshot.signature, query, style)
    cached = renders.get(key) if renders is not None else None
    if cached is not None:
        return cached
    # The controlled reading adjusts the whole headline; a subset is ranked in the seed's reading only.
    subset = chosen_subset(benchmark, query.ranked_on) if style == SEED else None
    ranking = in_reading(snapshot, benchmark, ranking_of(snapshot, benchmark, context.settings.judge.model, subset),
                         style)
    named = "" if style == SEED else f"-{style}"  # each reading its own CSV
    view = rankings_view(snapshot, ranking, benchmark, query, context.downloads_dir, f"{tab_id(benchmark)}{named}",
                         f"{benchmark.name}-leaderboard{named}.csv", subset_line(benchmark, subset, ranking),
                         ranking_links(benchmark))
    if renders is not None:
        renders.put(key, view)
    return view
