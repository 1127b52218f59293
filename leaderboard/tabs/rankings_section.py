"""A benchmark tab's rankings: the ranked runs, then the partial and incomplete ones in a table of their own, with
their controls (`ranking_controls`), "Last updated", the CSV of the rows on screen (full precision, every column),
the "filters active" line and its reset, the note when no model matches, the run folders that could not be read,
and the line saying what is ranked.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.board_view import Breakdown
from eval_backend.benchmarks.plugin import Benchmark
from leaderboard.answer_lengths import LENGTH_COLUMNS
from leaderboard.context import as_updates
from leaderboard.endpoint_inputs import refusing_bad_input
from leaderboard.exports import export_view_csv
from leaderboard.filter_summary import active_filters_line
from leaderboard.ranking_query import RankingQuery, kept_rows, last_updated, license_choices, sorted_rows
from leaderboard.results import Snapshot
from leaderboard.scored_rankings import split_standing
from leaderboard.scored_tables import (
    column_decimals, column_groups, group_labels, higher_is_better, metric_names, ranking_labels, shown_ranking,
)
from leaderboard.tabs import ranking_controls
from leaderboard.tabs.ranking_controls import RankingControls
from leaderboard.tabs.scored_tab_parts import CellLink, linked_table

NO_MATCH = "**No models match** the search and filters. Clear the search box or widen the filters (or **Reset filters**)."
UNRANKED_LABEL = "Not ranked: partial runs (some configs only) and incomplete ones (items without a score, a --limit)"
PROBLEMS_LABEL = "Run folders that could not be read"
DEFAULT_EMPTY_STATE = ("### No results yet\nNo model has been evaluated on this benchmark in this data folder. Submit "
                       "one in the **Submit** tab; its row appears here without a restart.")
RANKED_CLASS, UNRANKED_CLASS = "scored-ranked", "scored-unranked"
"""The classes of every benchmark's two ranking tables: the app's CSS pins their rank and model columns."""
VIEW_CONCURRENCY = 16
"""Views rendered at once: most are served from the render cache, so a crowd moves fast; a visitor sending new
queries in a loop waits in the queue instead of taking every worker thread."""


@dataclass(frozen=True)
class RankingsView:
    """One render of the rankings (component updates, keyed as the section's outputs)."""

    table: Any
    unranked: Any
    download: Any
    no_match: Any
    problems: Any
    rule: Any
    empty_state: Any
    updated: Any
    sort_by: Any
    licenses: Any
    groups: Any
    filters_active: Any
    reset: Any


def build(prefix: str, benchmark: Benchmark, page_link: gr.Textbox | None, results_version: gr.Textbox,
          render: Callable[..., RankingsView], empty: pd.DataFrame, subsets: Sequence[Breakdown],
          subset_choices: Callable[[], list[list[str]]], readings: Sequence[Any]) -> RankingControls:
    """Lay out the rankings and wire their controls (returned): `render(query, *readings)` draws them whenever the
    results, a control or a reading change (`readings`: more controls it reads, the style view), in one listener;
    `empty` is the ranked table before any run; `subsets` the breakdowns a ranking may be restricted to,
    `subset_choices()` each one's groups on the board."""
    outputs: dict[str, Any] = {
        "empty_state": gr.Markdown(benchmark.board.empty_state or DEFAULT_EMPTY_STATE, visible=False,
                                   elem_id=f"{prefix}-empty-state")}
    with gr.Row(elem_id=f"{prefix}-status"):
        outputs["updated"] = gr.Markdown(elem_id=f"{prefix}-last-updated")
        outputs["download"] = gr.DownloadButton("Download this view (CSV)", elem_id=f"{prefix}-download-view",
                                                size="sm", scale=0, visible=False)
    controls = ranking_controls.build(prefix, benchmark, subsets)
    with gr.Row(elem_id=f"{prefix}-filters-summary"):
        outputs["filters_active"] = gr.Markdown(visible=False, elem_id=f"{prefix}-filters-active")
        outputs["reset"] = gr.Button("Reset filters", visible=False, size="sm", scale=0,
                                     elem_id=f"{prefix}-reset-filters")
    outputs.update({
        "no_match": gr.Markdown(NO_MATCH, visible=False, elem_id=f"{prefix}-no-match"),
        "table": gr.Dataframe(empty, label=rankings_label(benchmark), interactive=False, elem_id=f"{prefix}-table",
                              max_height=700, elem_classes=[RANKED_CLASS]),
        "unranked": gr.Dataframe(label=UNRANKED_LABEL, interactive=False, elem_id=f"{prefix}-unranked",
                                 max_height=400, visible=False, elem_classes=[UNRANKED_CLASS]),
        "problems": gr.Textbox(label=PROBLEMS_LABEL, interactive=False, visible=False, elem_id=f"{prefix}-problems"),
        "rule": gr.Markdown("", elem_id=f"{prefix}-ranking-rule"),
        "sort_by": controls.sort_by, "licenses": controls.licenses, "groups": controls.groups,
    })
    for reading in readings:  # how the rankings read (the style view), drawn under them: a phone's first screen is rows
        if not reading.is_rendered:
            reading.render()
    outputs = {name: outputs[name] for name in RankingsView.__dataclass_fields__}
    if controls.subsets:  # keyed by box: a list returned to one output would be read as that box's value
        results_version.change(lambda: {box: gr.update(choices=names)
                                        for box, names in zip(controls.subsets, subset_choices())},
                               None, list(controls.subsets), show_progress="hidden")
    groups = list(group_labels(benchmark))
    restore = [*controls.inputs, controls.filters]
    if page_link is not None:
        page_link.change(lambda query: ranking_controls.linked_values(query, prefix, benchmark, subsets,
                                                                      subset_choices() if subsets else (), groups),
                         page_link, restore, show_progress="hidden")
    defaults = ranking_controls.default_values(benchmark, len(subsets))
    outputs["reset"].click(lambda: [*defaults, gr.update(open=False)], None, restore, show_progress="hidden")

    @refusing_bad_input
    def rendered(*values: object) -> dict[Any, Any]:
        query = ranking_controls.query_of(values[:len(controls.inputs)], len(subsets), groups)
        return as_updates(render(query, *values[len(controls.inputs):]), outputs)

    # One listener for every control (README, "One listener per view"), under a stable name for load tests (the
    # documented API is `leaderboard.public_api`'s).
    sizes = (controls.min_params, controls.max_params)  # a typed size counts once submitted or left
    triggers = [results_version.change, *(reading.change for reading in readings),
                *(control.change for control in controls.inputs if control not in sizes),
                *(event for box in sizes for event in (box.submit, box.blur))]
    gr.on(triggers, rendered, [*controls.inputs, *readings], list(outputs.values()), show_progress="hidden",
          trigger_mode="always_last", api_name=f"{prefix}_view", concurrency_limit=VIEW_CONCURRENCY)
    return controls


def rankings_label(benchmark: Benchmark) -> str:
    """The ranked table's label: what ranks it, on which scale, and how to sort it."""
    headline = benchmark.headline_metric()
    direction = "higher" if headline.higher_is_better else "lower"
    return (f"Rankings: complete runs by {headline.label} ({headline.unit}, {direction} is better; “Sort by” or a "
            "column header's menu sorts them)")


def rankings_view(snapshot: Snapshot, ranking: pd.DataFrame, benchmark: Benchmark, query: RankingQuery,
                  downloads_dir: Path, prefix: str, file_name: str, rule: str = "",
                  link: CellLink | None = None) -> RankingsView:
    """The rankings' rows the query keeps, ranked ones apart from the others, sorted by its column, with its
    column groups, their CSV (every column of those rows), the choices of the sort, license and column-group
    controls on this board, and `rule`, the line saying what is ranked."""
    problems = gr.update(value="\n".join(snapshot.problems), visible=bool(snapshot.problems))
    active = active_filters_line(query.active(benchmark.board.column_groups, group_labels(benchmark)))
    shown = (sorted_rows(ranking[kept_rows(ranking, query)], query.sort_by, higher_is_better(ranking, benchmark))
             if len(ranking) else ranking)
    common = {"problems": problems, "rule": gr.update(value=rule), "empty_state": gr.update(visible=not snapshot.runs),
              "download": rankings_download(snapshot, shown, downloads_dir, prefix, file_name, (query, rule)),
              "updated": gr.update(value=last_updated(ranking)),
              "sort_by": gr.update(choices=sort_choices(ranking, benchmark)),  # never its value: a render keeps a choice
              "licenses": gr.update(choices=license_choices(ranking)),
              "groups": gr.update(choices=group_choices(ranking, benchmark)),
              "filters_active": gr.update(value=active, visible=bool(active)), "reset": gr.update(visible=bool(active))}
    if shown.empty:  # the note says so; the CSV of the view (its headers, no row) and the filters line stay
        return RankingsView(table=gr.update(visible=not snapshot.runs), unranked=gr.update(visible=False),
                            no_match=gr.update(visible=bool(snapshot.runs)), **common)
    labels, places = ranking_labels(ranking, benchmark), column_decimals(ranking, benchmark)
    ranked, unranked = split_standing(shown_ranking(shown, benchmark, query.groups))
    return RankingsView(
        table=linked_table(ranked, labels, link, places, visible=True),
        unranked=linked_table(unranked, labels, link, places, visible=not unranked.empty),
        no_match=gr.update(visible=False), **common)


def group_choices(ranking: pd.DataFrame, benchmark: Benchmark) -> list[tuple[str, str]]:
    """The column groups a viewer may show: those with columns on this board, and the board's default ones (a value
    the page holds stays a choice, before any run too)."""
    present = column_groups(ranking, benchmark)
    return [(label, name) for name, label in group_labels(benchmark).items()
            if name in present or name in benchmark.board.column_groups]


def sort_choices(ranking: pd.DataFrame, benchmark: Benchmark) -> list[tuple[str, str]]:
    """What a viewer may sort by: rank, the model, each metric, answer length, size, date, then each breakdown
    column (best first)."""
    labels = ranking_labels(ranking, benchmark)
    lead = [column for column in ("rank", "model", *metric_names(benchmark), *LENGTH_COLUMNS, "params_b",
                                  "created_at") if column in ranking and column != "length_unit"]
    grouped = [column for name, columns in column_groups(ranking, benchmark).items() for column in columns
               if "." in column]
    return [(labels.get(column, column), column) for column in dict.fromkeys([*lead, *grouped])]


def rankings_download(snapshot: Snapshot, ranking: pd.DataFrame, downloads_dir: Path, prefix: str,
                      file_name: str, filters: Any = "") -> Any:
    """The download button of the rankings' CSV, written once per state of the results and of the `filters`;
    hidden with no runs."""
    if not snapshot.runs:
        return gr.update(value=None, visible=False)
    version = hashlib.sha256(repr((snapshot.signature, filters)).encode()).hexdigest()[:16]
    csv = export_view_csv(ranking.drop(columns=["run_id"]), downloads_dir, f"{prefix}-{version}", file_name=file_name)
    return gr.update(value=str(csv), visible=True)

