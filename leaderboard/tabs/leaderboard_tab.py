"""The rankings: one row per evaluated model revision, column groups, search, filters, a CSV of the view.

Ranked runs and the runs that are not ranked (partial, incomplete) are two tables, so an
unranked row can never sit between ranked ones; the CSV holds both, with their standing, in the
order and with the filters on screen. Sorting is a control (not the grid's own menu) so that the
CSV can follow it. The page's address carries the controls (a shareable link), and each view is
computed once per state of the results and served to every viewer who asks for it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Hashable, Sequence

import gradio as gr
import pandas as pd

from leaderboard.context import AppContext, as_updates
from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS, VARIANTS
from leaderboard.display import DisplayTable, column_label, display_table
from leaderboard.endpoint_inputs import choice, flag, number, refusing_bad_input, text, texts
from leaderboard.exports import export_view_csv
from leaderboard.filter_summary import active_filters_line
from leaderboard.board_kinds import JUDGMENTS_TAB
from leaderboard.results import LruCache, ResultsStore
from leaderboard.page_link import PageLink, read_link
from leaderboard.row_flags import FLAGS
from leaderboard.score_links import score_link
from leaderboard.writing_bench_tables import (
    COLUMN_GROUPS,
    DEFAULT_GROUPS,
    MODEL_TYPES,
    RANKING_RULE,
    BoardQuery,
    TableCache,
    chosen_variants,
    leaderboard_view,
    license_choices,
    ranked_rows,
    sort_choices,
    subset_rule,
    table_for_runs,
    unranked_rows,
)

EMPTY_STATE = """### No results yet
Nothing has been evaluated in this data folder. Submit a model in the **Submit** tab, or judge a file of a
model's answers from the command line; the row appears here without a restart. Offline it needs two things on
this machine, and nothing then reaches the Hub or a hosted judge: the dataset as a folder in the Hub layout
(`--dataset`: a README.md with `configs:` and a parquet file per config), and a judge model served at a local
OpenAI-compatible address (`OPENAI_BASE_URL`: vLLM, llama.cpp or Ollama, for example). Each line of the answers
file is `{"config": "Hindi", "index": 0, "response": "…"}`.

```
OPENAI_BASE_URL=http://127.0.0.1:<port>/v1 OPENAI_API_KEY=local JUDGE_MODEL=<judge-model> \\
  python -m eval_backend judge --dataset <dataset-folder> --responses <responses.jsonl> \\
  --model <org>/<model> --out-dir data/runs/indic_writing_bench/<org>__<model>/main
```
"""
"""What the board says with no run: how to put the first row on it, from this machine alone (the command is run
as written by `tests/leaderboard/test_empty_state_command.py`)."""
NO_MATCH = "**No models match** the search and filters. Clear the search box or widen the filters."
FILTERS_TITLE = "Column groups, filters and ranking on chosen languages and variants"
SEARCH_HELP = "Search models (separate several with ;)"
SORT_HELP = "Sort by (best first; the CSV follows)"
UNRANKED_LABEL = "Not ranked: partial runs (some languages only) and incomplete runs (items without a score)"
VARIANTS_LABEL = ("Rank on these variants only (the chosen languages' items in them, all 11 languages when none is "
                  "ticked; none or all ticked: every variant; the subset's own interval and rank range)")
LICENSES_LABEL = ("License, as the model's Hub card declared it at submission (none chosen: all; runs without "
                  "a recorded license are “unknown”, left out unless it is chosen)")
OPEN_WEIGHTS_LABEL = ("Open weights only (public, not gated, weights on the Hub; runs where this is unknown are "
                      "left out)")
FLAGS_LABEL = "Hide rows flagged (hover a badge for what it means; About explains each)"
SCORE_LINKS = score_link(JUDGMENTS_TAB, {"config": "language", "variant": "variant", "domain": "domain"},
                         ("indic_average", "overall", "subset_average"))
"""A board score opens that run's items in Judgments: a language's, a rendering's, a domain's, or all of them."""
VIEW_ENDPOINT = "board_view"
"""The page's own event for a view of the board (undocumented: its answer is the page's component updates)."""
VIEW_CONCURRENCY = 16
"""Views rendered at once: most are served from the render cache, so a crowd moves fast; a visitor sending new
queries in a loop waits in the queue instead of taking every worker thread."""
MAX_PARAMS_B = 100_000.0
"""The largest size bound accepted, in billions of parameters (far above any model)."""
_RANK_COLUMNS = ["rank", "rank_best", "rank_worst"]
_RENDERS_KEPT = 64
URL_SCRIPT = """(groups, search, languages, sort, minParams, maxParams, modelType, hideUnranked, licenses, openOnly,
  variants, hideFlags) => {
  const params = new URLSearchParams(window.location.search);
  const put = (key, value) => (value === null || value === undefined || value === "" || value === false
    || (Array.isArray(value) && value.length === 0)) ? params.delete(key) : params.set(key, String(value));
  put("groups", groups.join(","));
  put("q", search);
  put("langs", languages.join(","));
  put("sort", sort === "rank" ? "" : sort);
  put("min_b", minParams || "");
  put("max_b", maxParams || "");
  put("type", modelType === "all" ? "" : modelType);
  put("ranked_only", hideUnranked ? "1" : "");
  put("license", (licenses || []).join(","));
  put("open", openOnly ? "1" : "");
  put("variants", (variants || []).join(","));
  put("hide_flags", (hideFlags || []).join(","));
  const query = params.toString();
  window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : ""));
}"""
"""Keeps the page's address in step with the board's controls, so the address is a shareable link."""


@dataclass(frozen=True)
class BoardRender:
    """What one render of the tab sets: both tables, the CSV of them, the empty states, the sort choices."""

    table: Any
    unranked: Any
    download: Any
    empty_state: Any
    no_match: Any
    problems: Any
    sort_by: Any
    updated: Any
    licenses: Any
    filters_active: Any
    reset: Any
    rule: Any


@dataclass(frozen=True)
class _Rendered:
    """A render's values, computed once per (results, controls) and shared by every viewer who asks."""

    ranked: DisplayTable
    apart: DisplayTable
    csv: str
    sort_choices: list[tuple[str, str]]
    updated: str
    license_choices: list[str]
    empty: bool
    rule: str


def build(context: AppContext) -> list[gr.components.Component]:
    """Lay out the tab and wire search, filters, column groups, sort and refreshes to one render; the controls
    that choose the rows (all but the column groups), for other tabs to follow (`board_query` reads them)."""
    empty_state = gr.Markdown(EMPTY_STATE, visible=False, elem_id="empty-state")
    problems = gr.Textbox(label="Run folders that could not be read", visible=False, interactive=False)
    with gr.Row(elem_id="board-status"):
        updated = gr.Markdown(elem_id="last-updated")
        download = gr.DownloadButton("Download this view (CSV)", elem_id="download-view", size="sm", scale=0)
    with gr.Row():
        search = gr.Textbox(label="Search", placeholder=SEARCH_HELP, scale=2, elem_id="model-search", min_width=160)
        # A shared link may name a column before the first render lists the columns: custom values allowed.
        sort_by = gr.Dropdown(choices=[("Rank", "rank")], value="rank", label=SORT_HELP, scale=1, elem_id="sort-by",
                              allow_custom_value=True, min_width=140)
    # Column groups and filters fold away: the first screen, a phone's too, is for the ranked rows.
    with gr.Accordion(FILTERS_TITLE, open=False, elem_id="board-filters") as filters:
        groups = gr.CheckboxGroup(choices=list(COLUMN_GROUPS), value=list(DEFAULT_GROUPS), label="Column groups",
                                  elem_id="column-groups")
        languages = gr.CheckboxGroup(
            choices=list(INDIC_CONFIGS), value=[], elem_id="rank-languages",
            label="Rank on these languages only (their mean; none ticked: all 11, the standard ranking)",
        )
        variants = gr.CheckboxGroup(choices=list(VARIANTS), value=[], elem_id="rank-variants", label=VARIANTS_LABEL)
        with gr.Row():
            min_params = gr.Number(label="Parameters from (billions; 0: no bound)", value=None, minimum=0,
                                   elem_id="min-params")
            max_params = gr.Number(label="Parameters up to (billions; 0: no bound)", value=None, minimum=0,
                                   elem_id="max-params")
            model_type = gr.Radio(list(MODEL_TYPES), value="all", label="Model type (as the request recorded it)",
                                  elem_id="model-type")
            hide_unranked = gr.Checkbox(label="Hide partial and incomplete runs", value=False,
                                        elem_id="hide-unranked")
        with gr.Row():
            # Choices come with each render (the licenses of the runs present); a link may name one first.
            licenses = gr.Dropdown(choices=[], value=[], multiselect=True, allow_custom_value=True,
                                   label=LICENSES_LABEL, elem_id="license-filter", scale=2)
            open_only = gr.Checkbox(label=OPEN_WEIGHTS_LABEL, value=False, elem_id="open-weights-only", scale=1)
        hide_flags = gr.CheckboxGroup(choices=[(flag.badge, flag.code) for flag in FLAGS.values()], value=[],
                                      label=FLAGS_LABEL, elem_id="hide-flags")
    with gr.Row(elem_id="filters-summary"):
        filters_active = gr.Markdown(visible=False, elem_id="filters-active")
        reset = gr.Button("Reset filters", visible=False, size="sm", scale=0, elem_id="reset-filters")
    no_match = gr.Markdown(NO_MATCH, visible=False, elem_id="no-match")
    ranked_empty, unranked_empty = empty_board()
    table = gr.Dataframe(
        ranked_empty.value, label="Rankings: scores 1–10, higher is better (sort with “Sort by” above)",
        interactive=False,
        elem_id="leaderboard-table", max_height=700,
    )
    unranked = gr.Dataframe(
        unranked_empty.value, label=UNRANKED_LABEL, interactive=False, elem_id="unranked-table", max_height=400,
        visible=False,
    )
    rule = gr.Markdown(RANKING_RULE, elem_id="ranking-rule")
    components = {"table": table, "unranked": unranked, "download": download, "empty_state": empty_state,
                  "no_match": no_match, "problems": problems, "sort_by": sort_by, "updated": updated,
                  "licenses": licenses, "filters_active": filters_active, "reset": reset, "rule": rule}
    outputs = list(components.values())
    inputs = [groups, search, languages, sort_by, min_params, max_params, model_type, hide_unranked, licenses,
              open_only, variants, hide_flags]
    renders: LruCache[_Rendered] = LruCache(_RENDERS_KEPT)

    @refusing_bad_input
    def render(chosen: object, *values: object) -> dict[Any, Any]:
        query = board_query(*values)  # checked before any work or cache
        board = render_board(context.store, context.tables, context.downloads_dir,
                             texts(chosen, "groups", COLUMN_GROUPS), query, renders)
        return as_updates(board, components)

    # Rendering reads a shared, prerendered view (computed once per results and controls): a wide slot limit
    # (VIEW_CONCURRENCY), so a crowd is barely held in Gradio's queue while one visitor cannot take every worker
    # thread. One listener for every trigger, so the last change is the one painted (README, "One listener per
    # view").
    triggers = [context.results_version.change, search.change,
                *(control.change for control in (groups, languages, sort_by, model_type, hide_unranked, licenses,
                                                 open_only, variants, hide_flags)),
                *(event for box in (min_params, max_params) for event in (box.submit, box.blur))]
    # A stable name for load tests; the documented API is `leaderboard.public_api`'s.
    gr.on(triggers, render, inputs, outputs, show_progress="hidden", trigger_mode="always_last",
          api_name=VIEW_ENDPOINT, concurrency_limit=VIEW_CONCURRENCY)
    for control in inputs:
        control.change(None, inputs, None, js=URL_SCRIPT)
    context.page_link.change(restore_from_link, context.page_link, [*inputs, filters])
    reset.click(lambda: restore_from_link(""), None, [*inputs, filters])
    return inputs[1:]


def board_query(query: object, langs: object, sort: object, low: object, high: object, kind: object,
                ranked_only: object, chosen_licenses: object, open_weights_only: object, ranking_variants: object,
                flags: object) -> BoardQuery:
    """The query the board's controls (`build`'s return, in order) describe, each value checked
    (`leaderboard.endpoint_inputs`): anything else raises `InvalidInput` naming the control."""
    # A size box holds 0 until someone types in it (the page arrives prerendered): 0 is no bound.
    return BoardQuery(
        search=text(query, "search"), min_params_b=number(low, "min_params_b", 0, MAX_PARAMS_B) or None,
        max_params_b=number(high, "max_params_b", 0, MAX_PARAMS_B) or None,
        model_type=choice(kind, "model_type", MODEL_TYPES, "all"), hide_unranked=flag(ranked_only, "ranked_only"),
        languages=texts(langs, "languages", INDIC_CONFIGS), sort_by=text(sort, "sort") or "rank",
        licenses=texts(chosen_licenses, "licenses"), open_weights_only=flag(open_weights_only, "open_weights_only"),
        variants=chosen_variants(texts(ranking_variants, "variants", VARIANTS)),
        hide_flags=texts(flags, "hide_flags", FLAGS),
    )


def restore_from_link(page_query: str) -> list[Any]:
    """The controls as a shared link's query parameters set them (an unknown or malformed value is ignored), and
    the filters' accordion opened when the link sets a filter inside it (closed otherwise: a reset closes it)."""
    link = read_link(page_query)
    query = link_query(link)
    groups = list(link.listed("groups", COLUMN_GROUPS)) or list(DEFAULT_GROUPS)
    inside = (set(groups) != set(DEFAULT_GROUPS), query.languages, query.variants, query.min_params_b, query.max_params_b, query.model_type != "all",
              query.hide_unranked, query.licenses, query.open_weights_only, query.hide_flags)
    return [groups, query.search, list(query.languages), query.sort_by or "rank", query.min_params_b,
            query.max_params_b, query.model_type, query.hide_unranked, list(query.licenses), query.open_weights_only,
            list(query.variants), list(query.hide_flags), gr.update(open=any(inside))]


def active_filters(query: BoardQuery, groups: Sequence[str]) -> list[tuple[str, str]]:
    """What in `query` (and the column groups) narrows the board, as (name, value) pairs for the summary line."""
    sizes = f"{query.min_params_b or 0:g}–{query.max_params_b:g} B" if query.max_params_b else (
        f"from {query.min_params_b:g} B" if query.min_params_b else "")
    parts = [("search", query.search.strip()), ("ranked on languages", ", ".join(query.languages)),
             ("ranked on variants", ", ".join(query.variants)), ("size", sizes),
             ("model type", "" if query.model_type == "all" else query.model_type),
             ("license", ", ".join(query.licenses)),
             ("hiding flagged rows", ", ".join(FLAGS[code].badge for code in query.hide_flags if code in FLAGS))]
    flags = [("partial and incomplete runs hidden", query.hide_unranked), ("open weights only", query.open_weights_only),
             ("column groups changed", set(groups) != set(DEFAULT_GROUPS))]
    return [(name, value) for name, value in parts if value] + [(name, "") for name, on in flags if on]


def link_query(link: PageLink) -> BoardQuery:
    """The board query a link's parameters describe (`q`, `langs`, `variants`, `sort`, `min_b`, `max_b`, `type`,
    `ranked_only`, `license`, `open`, `hide_flags`).

    A license is any text (the filter keeps the runs with exactly that one); languages and variants only known names.
    """
    return BoardQuery(
        search=link.text("q"), min_params_b=_size(link, "min_b"), max_params_b=_size(link, "max_b"),
        model_type=link.choice("type", MODEL_TYPES) or "all", hide_unranked=link.flag("ranked_only"),
        languages=link.listed("langs", INDIC_CONFIGS), sort_by=link.text("sort", "rank"),
        licenses=link.listed("license"), open_weights_only=link.flag("open"),
        variants=chosen_variants(link.listed("variants")), hide_flags=link.listed("hide_flags", FLAGS),
    )


def render_board(
    store: ResultsStore, tables: TableCache, downloads_dir: Path, groups: Sequence[str], query: BoardQuery | str,
    renders: LruCache[_Rendered] | None = None,
) -> BoardRender:
    """The board for these column groups and query (or search terms), with a CSV of exactly that view.

    The view is computed once per (results, groups, query) and kept in `renders`: a crowd
    asking for the same first view is served the prerendered values. When no row matches, the
    board says so; "Last updated", the download (of the empty view) and the filters line stay.
    """
    query = BoardQuery(search=query) if isinstance(query, str) else query
    snapshot = store.snapshot()
    problems = gr.update(value="\n".join(snapshot.problems), visible=bool(snapshot.problems))
    active = active_filters_line(active_filters(query, groups))
    filters_active, reset = gr.update(value=active, visible=bool(active)), gr.update(visible=bool(active))
    if not snapshot.runs:
        return BoardRender(gr.update(value=None, visible=False), gr.update(value=None, visible=False),
                           gr.update(value=None, visible=False), gr.update(visible=True), gr.update(visible=False),
                           problems, gr.update(), gr.update(value=""), gr.update(choices=[]), filters_active, reset,
                           gr.update(value=RANKING_RULE))
    key = (snapshot.signature, tuple(sorted(groups)), query)
    table = tables.table(snapshot)
    load = functools.partial(_render_view, table, groups, query, downloads_dir, key,
                             functools.partial(tables.subset, snapshot, query))
    rendered = renders.get_or_load(key, load) if renders is not None else load()
    shown, apart = rendered.ranked, rendered.apart
    return BoardRender(
        table=gr.update(value=shown.value, datatype=shown.text_datatypes, visible=bool(shown.texts)),
        unranked=gr.update(value=apart.value, datatype=apart.text_datatypes, visible=bool(apart.texts)),
        download=gr.update(value=rendered.csv, visible=True),
        empty_state=gr.update(visible=False),
        no_match=gr.update(visible=rendered.empty),
        problems=problems,
        sort_by=gr.update(choices=rendered.sort_choices),  # never its value: a render must not undo a choice
        updated=gr.update(value=rendered.updated),
        licenses=gr.update(choices=rendered.license_choices),  # the licenses of the runs present, never its value
        filters_active=filters_active,
        reset=reset,
        rule=gr.update(value=rendered.rule),
    )


def _render_view(
    table: pd.DataFrame, groups: Sequence[str], query: BoardQuery, downloads_dir: Path, key: Hashable,
    subset: Callable[[], pd.DataFrame | None] = lambda: None,
) -> _Rendered:
    """The display tables and CSV of one view (`empty` when no row matches); `subset` draws the joint ranking of
    the subset the query ranks on (`TableCache.subset`), only when that view is not kept already."""
    view = board_view(table, groups, query, subset())
    shown, apart_shown = display_tables(view)
    version = hashlib.sha256(repr(key).encode()).hexdigest()[:16]
    return _Rendered(
        ranked=shown, apart=apart_shown, csv=str(export_view_csv(view.drop(columns="run_id"), downloads_dir, version)),
        sort_choices=[(column_label(column), column) for column in sort_choices(table)],
        updated=last_updated(table),
        license_choices=license_choices(table),
        empty=view.empty,
        rule=subset_rule(query.languages, query.variants) if "subset_average" in view else RANKING_RULE,
    )


def board_view(table: pd.DataFrame, groups: Sequence[str], query: BoardQuery,
               subset: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows and columns of one view of the board, `run_id` last, ranked on the query's subset (with its joint
    ranking `subset`, when drawn); ranked on languages or variants no run has, the standard ranking instead."""
    try:
        return leaderboard_view(table, groups, query=query, with_run_id=True, subset=subset)
    except ValueError:
        return leaderboard_view(table, groups, query=dataclasses.replace(query, languages=(), variants=()),
                                with_run_id=True)


def display_tables(view: pd.DataFrame) -> tuple[DisplayTable, DisplayTable]:
    """A view's ranked rows and its unranked ones (their standing first, no rank), as the two tables show them."""
    shown = display_table(ranked_rows(view).drop(columns="standing_note"), SCORE_LINKS)
    apart = unranked_rows(view).drop(columns=_RANK_COLUMNS, errors="ignore")
    return shown, display_table(apart[["standing_note", *(c for c in apart.columns if c != "standing_note")]],
                                SCORE_LINKS)


def empty_board() -> tuple[DisplayTable, DisplayTable]:
    """Both tables with no runs, under the default column groups' real headers (an empty grid shows "1 2 3")."""
    return display_tables(leaderboard_view(table_for_runs([]), DEFAULT_GROUPS, with_run_id=True))


def last_updated(table: pd.DataFrame) -> str:
    """When the newest result on the board was written (UTC), as a line for the board."""
    stamps = pd.to_datetime(table.get("created_at"), errors="coerce", utc=True).dropna()
    if stamps.empty:
        return ""
    return f"Last updated: {stamps.max():%Y-%m-%d %H:%M} UTC ({len(table)} runs)"


def _size(link: PageLink, name: str) -> float | None:
    size = link.number(name, 0.0, math.inf)
    return size or None  # 0: no bound, as on screen
