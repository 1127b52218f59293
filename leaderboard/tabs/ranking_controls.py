"""The controls a viewer narrows and orders a benchmark's ranking with, on every tab: search and sort, then, folded
away, the column groups, the groups ranked on, size, model type, standing, license, open weights and flags.

Each control writes its address parameter as it changes (`<tab>_q`, `<tab>_sort`, `<tab>_on_config`, …), a link
sets them all (and a board's former parameters, `BoardView.former_params`), and "Reset filters" clears them. What
the controls hold is checked as untrusted input before any work (`query_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import gradio as gr

from eval_backend.benchmarks.board_view import Breakdown
from eval_backend.benchmarks.plugin import Benchmark
from leaderboard.endpoint_inputs import choice, flag, number, text, texts
from leaderboard.page_link import LIST_SEPARATOR, PageLink, read_link
from leaderboard.ranking_query import MAX_PARAMS_B, MODEL_TYPES, RankingQuery
from leaderboard.row_flags import FLAGS
from leaderboard.scored_tables import group_labels

SEARCH_HELP = "Search models (separate several with ;)"
SORT_HELP = "Sort by (best first; the CSV follows)"
FILTERS_TITLE = "Column groups, filters and ranking on chosen groups"
FLAGS_LABEL = "Hide rows flagged (hover a badge for what it means; About explains each)"
LICENSES_LABEL = ("License, as the model's Hub card declared it at submission (none chosen: all; runs without "
                  "a recorded license are “unknown”, left out unless it is chosen)")
OPEN_WEIGHTS_LABEL = ("Open weights only (public, not gated, weights on the Hub; runs where this is unknown are "
                      "left out)")
RANK = "rank"
PARAM_SCRIPT = """(value) => {{
  const params = new URLSearchParams(window.location.search);
  const written = Array.isArray(value) ? value.join("{separator}") : value === true ? "1"
    : (value === false || value === null || value === undefined || value === 0) ? "" : String(value);
  (written && written !== {default}) ? params.set("{param}", written) : params.delete("{param}");
  const query = params.toString();
  window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : ""));
}}"""
"""Keeps the address in step with one control (in the browser only); its default value is left out."""


@dataclass(frozen=True)
class RankingControls:
    """A tab's ranking controls; `inputs` in the order `query_of` reads them."""

    search: gr.Textbox
    hide_flags: gr.CheckboxGroup
    subsets: tuple[gr.CheckboxGroup, ...]
    groups: gr.CheckboxGroup
    sort_by: gr.Dropdown
    min_params: gr.Number
    max_params: gr.Number
    model_type: gr.Radio
    ranked_only: gr.Checkbox
    licenses: gr.Dropdown
    open_only: gr.Checkbox
    filters: gr.Accordion

    @property
    def inputs(self) -> list[Any]:
        return [self.search, self.hide_flags, *self.subsets, self.groups, self.sort_by, self.min_params,
                self.max_params, self.model_type, self.ranked_only, self.licenses, self.open_only]


def params(prefix: str, subsets: Sequence[Breakdown]) -> list[str]:
    """The address parameter of each control, in the order of `RankingControls.inputs`."""
    return [f"{prefix}_{name}" for name in ("q", "hide_flags", *(f"on_{b.item_field}" for b in subsets), "groups",
                                            "sort", "min_b", "max_b", "type", "ranked_only", "license", "open")]


def build(prefix: str, benchmark: Benchmark, subsets: Sequence[Breakdown]) -> RankingControls:
    """The search box and the sort choice side by side (the first screen, a phone's too), then the folded filters:
    column groups, a "rank on" box per breakdown of `subsets`, size, type, standing, license, open weights, flags;
    each control writes its address parameter as it changes."""
    with gr.Row():
        search = gr.Textbox(label="Search", placeholder=SEARCH_HELP, scale=2, elem_id=f"{prefix}-search",
                            min_width=160)
        # A shared link may name a column before the first render lists the columns: custom values allowed.
        sort_by = gr.Dropdown(choices=[("Rank", RANK)], value=RANK, label=SORT_HELP, scale=1, min_width=140,
                              allow_custom_value=True, elem_id=f"{prefix}-sort-by")
    shown = group_labels(benchmark)
    with gr.Accordion(FILTERS_TITLE, open=False, elem_id=f"{prefix}-filters") as filters:
        groups = gr.CheckboxGroup(choices=[(shown[name], name) for name in benchmark.board.column_groups],
                                  value=list(benchmark.board.column_groups), label="Column groups",
                                  elem_id=f"{prefix}-column-groups")
        boxes = tuple(gr.CheckboxGroup(choices=[], value=[], elem_id=f"{prefix}-rank-{breakdown.item_field}",
                                       label=f"Rank on these groups of {breakdown.label.lower()} only (their items "
                                             "alone, with their own interval and rank range; none ticked: every "
                                             "item)") for breakdown in subsets)
        with gr.Row():
            low = gr.Number(label="Parameters from (billions; 0: no bound)", value=None, minimum=0,
                            elem_id=f"{prefix}-min-params")
            high = gr.Number(label="Parameters up to (billions; 0: no bound)", value=None, minimum=0,
                             elem_id=f"{prefix}-max-params")
            kind = gr.Radio(list(MODEL_TYPES), value="all", label="Model type (as the request recorded it)",
                            elem_id=f"{prefix}-model-type")
            ranked_only = gr.Checkbox(label="Hide partial and incomplete runs", value=False,
                                      elem_id=f"{prefix}-hide-unranked")
        with gr.Row():
            # Choices come with each render (the licenses of the runs present); a link may name one first.
            licenses = gr.Dropdown(choices=[], value=[], multiselect=True, allow_custom_value=True, scale=2,
                                   label=LICENSES_LABEL, elem_id=f"{prefix}-license-filter")
            open_only = gr.Checkbox(label=OPEN_WEIGHTS_LABEL, value=False, scale=1,
                                    elem_id=f"{prefix}-open-weights-only")
        hide = gr.CheckboxGroup(choices=[(flag.badge, flag.code) for flag in FLAGS.values()], value=[],
                                label=FLAGS_LABEL, elem_id=f"{prefix}-hide-flags")
    controls = RankingControls(search, hide, boxes, groups, sort_by, low, high, kind, ranked_only, licenses,
                               open_only, filters)
    defaults = default_values(benchmark, len(subsets))
    for control, param, default in zip(controls.inputs, params(prefix, subsets), defaults):
        written = "String(" + repr(LIST_SEPARATOR.join(default) if isinstance(default, list) else default or "") + ")"
        control.change(None, control, None, js=PARAM_SCRIPT.format(param=param, default=written,
                                                                   separator=LIST_SEPARATOR))
    return controls


def default_values(benchmark: Benchmark, subset_count: int) -> list[Any]:
    """Every control's value with nothing chosen, in the order of `RankingControls.inputs`."""
    return ["", [], *([[]] * subset_count), list(benchmark.board.column_groups), RANK, None, None, "all", False, [],
            False]


def query_of(values: Sequence[object], subset_count: int, group_names: Sequence[str] = ()) -> RankingQuery:
    """The query the controls' values (`RankingControls.inputs`' order) describe, each checked: anything else raises
    `InvalidInput` naming the control. A size of 0 is no bound (the boxes hold 0 until someone types)."""
    search, hidden, *rest = values
    ranked_on, (groups, sort, low, high, kind, ranked_only, licenses, open_only) = rest[:subset_count], rest[subset_count:]
    return RankingQuery(
        search=text(search, "search"), hide_flags=texts(hidden, "hide flags", FLAGS),
        ranked_on=tuple(texts(names, "rank on groups") for names in ranked_on),
        groups=texts(groups, "column groups", group_names or None), sort_by=text(sort, "sort") or RANK,
        min_params_b=number(low, "min_params_b", 0, MAX_PARAMS_B) or None,
        max_params_b=number(high, "max_params_b", 0, MAX_PARAMS_B) or None,
        model_type=choice(kind, "model_type", MODEL_TYPES, "all"), ranked_only=flag(ranked_only, "ranked_only"),
        licenses=texts(licenses, "licenses"), open_weights_only=flag(open_only, "open_weights_only"))


def linked_values(query: object, prefix: str, benchmark: Benchmark, subsets: Sequence[Breakdown],
                  subset_choices: Sequence[Sequence[str]], group_names: Sequence[str]) -> list[Any]:
    """The controls' values a page address sets (`RankingControls.inputs`' order, then the filters' fold: open
    when the link sets a filter inside it); a control the address does not name is left as it is. Unknown flag
    codes, groups and column groups are dropped; a license is any text."""
    link = with_former(read_link(query), prefix, benchmark)

    def listed(known: Sequence[str] | None) -> Callable[[str], Any]:
        return lambda name: list(link.listed(name, known))

    readers = [link.text, listed(tuple(FLAGS)), *(listed(tuple(known)) for known in subset_choices),
               listed(tuple(group_names)), link.text, lambda name: link.number(name, 0.0, MAX_PARAMS_B),
               lambda name: link.number(name, 0.0, MAX_PARAMS_B), lambda name: link.choice(name, MODEL_TYPES) or "all",
               link.flag, listed(None), link.flag]
    names = params(prefix, subsets)
    values = [read(name) if link.has(name) else gr.skip() for read, name in zip(readers, names)]
    sort_param = names[3 + len(subsets)]  # the search and the sort are above the fold
    folded = any(link.has(name) for name in names[1:] if name != sort_param)
    return [*values, gr.update(open=True) if folded else gr.skip()]


def with_former(link: PageLink, prefix: str, benchmark: Benchmark) -> PageLink:
    """The link with its board's former parameters (`BoardView.former_params`) read as this tab's own, where the
    link does not give the tab's own."""
    renamed = {f"{prefix}_{new}": link.text(old) for old, new in benchmark.board.former_params.items() if link.has(old)}
    return PageLink({**renamed, **link.values})
