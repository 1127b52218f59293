"""The tab of any scored benchmark (QA, Saraiki, the next ones), built from its declarations alone.

Rankings with rank ranges (ranked runs, then the partial and incomplete ones), each row's flags
(`row_flags`, as WritingBench's) and a filter hiding flagged rows, the decoding mode, their search
and CSV, the figures per breakdown (language, domain, task) with a plot of each, the item browser
and the downloads: columns, labels, directions and breakdowns come from the benchmark's metrics
and board (`eval_backend.benchmarks.board_view`), so a new benchmark has no tab code of its own.

Every score is a link to the items behind it (`score_links`): a ranking cell opens the run's items
(a per-task metric: that task's), a breakdown cell those of its group, as an address of this tab
(`?tab=qa&model=<run id>&config=hindi`) that opens the item browser on that model with that filter
set (the item browser, `item_browser`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.board_view import Breakdown
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.dataset_loader import configured_benchmarks
from leaderboard.endpoint_inputs import choice, refusing_bad_input, text, texts
from leaderboard.context import AppContext, as_updates
from leaderboard.results import Snapshot
from leaderboard.row_flags import too_few_items
from leaderboard.score_links import items_address, score_link
from leaderboard.scored_tables import (
    breakdown_frame,
    labels,
    metric_names,
    breakdown_groups,
    chosen_subset,
    ranking_frame,
    ranking_of,
    shown_ranking,
    subset_breakdowns,
    subset_line,
    tab_id,
)
from leaderboard.declared_figures import benchmark_figures, figure_title
from leaderboard.answer_lengths import lengths_of
from leaderboard.style_view import SEED, VIEW_CHOICES, footnote, in_reading, style_view
from leaderboard.tabs.style_choice import style_choice
from leaderboard.scored_rankings import split_standing
from leaderboard.tabs.plots_tab import plot
from leaderboard.tabs.scored_tab_parts import (
    CellLink,
    RankingsLayout,
    RankingsView,
    empty_table,
    kept_rows,
    linked_table,
    rankings_section,
    rankings_view,
)
from leaderboard.tabs import item_browser
from leaderboard.tabs.item_browser import store_of

PLOTS_NOTE = ("**Plots** of the ranked runs the search and flags above keep, in the ranking's order (on the chosen "
              "groups, when ticked; at most 60); models are labelled `org/name@revision` (7 characters), the whole id "
              "on hover.")


@dataclass(frozen=True)
class Board:
    """One render of the tab's results: rankings, what they rank, breakdown, the style note."""

    table: Any
    unranked: Any
    download: Any
    no_match: Any
    problems: Any
    rule: Any
    breakdown: Any
    style_note: Any


def build(context: AppContext, benchmark: Benchmark) -> None:
    """Lay out the benchmark's tab and wire it to its results and its own controls."""
    prefix, names = tab_id(benchmark), labels(benchmark)
    gr.Markdown(_intro(context, benchmark), elem_id=f"{prefix}-intro")
    on_groups = subset_breakdowns(benchmark)
    reading = style_choice(context, benchmark)
    filters, rankings = rankings_section(
        prefix, context.page_link, context.results_version, f"{prefix}_q",
        lambda terms, hidden, *rest: rankings_of(context, benchmark, terms, hidden, _ticked(rest[:len(on_groups)]),
                                                 rest[len(on_groups)]),
        empty_table(_ranking_headers(benchmark), names),
        [(breakdown.item_field, breakdown.label) for breakdown in on_groups],
        lambda: [breakdown_groups(store_of(context, benchmark).snapshot().runs, breakdown) for breakdown in on_groups],
        [reading])
    style_note = gr.Markdown(visible=False, elem_id=f"{prefix}-style-note")
    breakdowns = {breakdown.label: breakdown for breakdown in benchmark.board.breakdowns}
    group_by = gr.Radio(list(breakdowns), value=next(iter(breakdowns)), label="Break down by",
                        elem_id=f"{prefix}-breakdown-group", visible=len(breakdowns) > 1)
    breakdown = gr.Dataframe(empty_table(["model", "revision", benchmark.board.breakdowns[0].name], names),
                             label="Figures per group, with the headline's 95 % interval (each opens its items)",
                             interactive=False, elem_id=f"{prefix}-breakdown")
    gr.Markdown(PLOTS_NOTE, elem_id=f"{prefix}-plots-note")
    plots = [plot(figure_title(benchmark, spec), spec, f"{prefix}-") for spec in benchmark.board.figures]
    item_browser.build(context, benchmark)
    board = {**rankings, "breakdown": breakdown, "style_note": style_note}

    @refusing_bad_input
    def render(chosen: object, terms: object, hidden: object, *rest: object) -> dict[Any, Any]:
        grouping = choice(chosen, "group by", breakdowns)
        ticked, style = rest[:len(on_groups)], (*rest[len(on_groups):], SEED)[0]
        return as_updates(render_board(context, benchmark, breakdowns[grouping], text(terms, "search"),
                                       list(texts(hidden, "hide flags")), _ticked(ticked), _reading(style)), board)

    board_inputs = [group_by, *filters.inputs, reading]
    gr.on([context.results_version.change, group_by.change, reading.change], render, board_inputs, list(board.values()),
          show_progress="hidden", trigger_mode="always_last")
    # The plots draw the ranked rows the rankings' search and flag filter keep, re-drawn when either changes.
    gr.on([context.results_version.change, *(control.change for control in filters.inputs)],
          lambda terms, hidden, *ticked: render_figures(context, benchmark, terms, hidden, _ticked(ticked)),
          filters.inputs, plots,
          show_progress="hidden", trigger_mode="always_last")


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
    """A ranking cell's link: each metric opens the run's items in this tab (a per-task metric: that task's)."""
    group = benchmark.board.group.name
    link = score_link(tab_id(benchmark), {}, metric_names(benchmark),
                      {metric: {group: name} for metric, name in benchmark.board.metric_groups.items()})
    return lambda row, column: link(str(row["run_id"]), column)


def breakdown_links(benchmark: Benchmark, breakdown: Breakdown) -> CellLink:
    """A breakdown cell's link: every figure of a group opens that run's items of that group."""
    def link(row: Mapping[str, Any], column: str) -> str | None:
        return items_address(tab_id(benchmark), str(row["run_id"]), {breakdown.item_field: str(row[breakdown.name])})

    return link


def render_board(context: AppContext, benchmark: Benchmark, breakdown: Breakdown, search: str = "",
                 hidden_flags: Sequence[str] = (), ranked_on: Sequence[Sequence[str]] = (),
                 style: str = SEED) -> Board:
    """Every run's rankings (those the search and flag filter keep, and their CSV; ranked on the groups `ranked_on`
    ticks, one list per `subset_breakdowns`, in the reading `style`: the seed's, or controlled for style with its
    footnote) and the chosen breakdown."""
    snapshot = store_of(context, benchmark).snapshot()
    ranking = _ranking(context, benchmark, snapshot)
    shown = _rankings(context, benchmark, snapshot, search, hidden_flags, ranked_on, style)
    few = {run_id for run_id, codes in zip(ranking["run_id"], ranking["flags"]) if too_few_items(codes)}
    long = breakdown_frame(snapshot.runs, benchmark, breakdown, few, lengths_of(snapshot, benchmark))
    controlled = style != SEED and bool(benchmark.board.style_features)
    return Board(
        table=shown.table,
        unranked=shown.unranked,
        download=shown.download,
        no_match=shown.no_match,
        problems=shown.problems,
        rule=shown.rule,
        breakdown=linked_table(long, labels(benchmark), breakdown_links(benchmark, breakdown)),
        style_note=gr.update(value=footnote(style_view(snapshot, benchmark, ranking), benchmark) if controlled else "",
                             visible=controlled),
    )


def render_figures(context: AppContext, benchmark: Benchmark, search: str = "",
                   hidden_flags: Sequence[str] = (), ranked_on: Sequence[Sequence[str]] = ()) -> list[Any]:
    """The benchmark's declared figures of the ranked runs the search and flag filter keep, in the order of the
    ranking shown (on the groups `ranked_on` ticks, when any)."""
    snapshot = store_of(context, benchmark).snapshot()
    ranking = ranking_of(snapshot, benchmark, context.settings.judge.model, chosen_subset(benchmark, ranked_on))
    ranked = split_standing(ranking[kept_rows(ranking, search or "", hidden_flags)])[0]
    runs = {run.run_id: run for run in snapshot.runs}
    return benchmark_figures([runs[run_id] for run_id in ranked["run_id"]], benchmark)


def rankings_of(context: AppContext, benchmark: Benchmark, search: str, hidden_flags: Sequence[str] = (),
                ranked_on: Sequence[Sequence[str]] = (), style: object = SEED) -> RankingsView:
    """The rankings' rows whose model matches `search` (`;` between several) and that have none of the flags
    hidden, ranked on the groups `ranked_on` ticks (one list per `subset_breakdowns`), in the reading `style`, and
    their CSV."""
    snapshot = store_of(context, benchmark).snapshot()
    return _rankings(context, benchmark, snapshot, search, hidden_flags, ranked_on, _reading(style))


def _ranking(context: AppContext, benchmark: Benchmark, snapshot: Snapshot) -> pd.DataFrame:
    return ranking_of(snapshot, benchmark, context.settings.judge.model)


def _ticked(values: Sequence[object]) -> list[tuple[str, ...]]:
    """The groups ticked in each "rank on" box, checked as text."""
    return [texts(value, "rank on groups") for value in values]


def _rankings(context: AppContext, benchmark: Benchmark, snapshot: Snapshot, search: str,
              hidden_flags: Sequence[str], ranked_on: Sequence[Sequence[str]] = (), style: str = SEED) -> RankingsView:
    # The controlled reading adjusts the whole headline; a subset is ranked in the seed's reading only.
    subset = chosen_subset(benchmark, ranked_on) if style == SEED else None
    ranking = in_reading(snapshot, benchmark, ranking_of(snapshot, benchmark, context.settings.judge.model, subset),
                         style)
    layout = RankingsLayout(lambda frame: shown_ranking(frame, benchmark), labels(benchmark), ranking_links(benchmark))
    named = "" if style == SEED else f"-{style}"  # each reading its own CSV
    return rankings_view(snapshot, ranking, layout, search, hidden_flags, context.downloads_dir,
                         f"{tab_id(benchmark)}{named}", f"{benchmark.name}-leaderboard{named}.csv",
                         subset_line(benchmark, subset, ranking))

