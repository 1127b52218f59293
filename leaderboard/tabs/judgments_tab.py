"""Judgments: every item of a model, filters, one item's full judgment, a comparison, downloads."""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import gradio as gr
import pandas as pd

from eval_backend.run_comparison import RunsNotComparable
from leaderboard.comparison_tables import filtered_summary, wrapping_html
from leaderboard.context import AppContext, as_updates
from leaderboard.display import column_label, scores_as_read
from leaderboard.endpoint_inputs import InvalidInput, echo, flag, number, optional_text, refusing_bad_input, text
from leaderboard.exports import EXPORT_FORMATS, export_judgments
from leaderboard.judgment_links import (
    ANY,
    LINK_SCRIPT,
    SCORE_RANGE,
    item_key,
    parse_item_key,
    parse_link,
    resolve_link,
)
from leaderboard.judgments import (
    FILTER_FIELDS,
    ITEM_COLUMNS,
    ItemFilter,
    filter_choices,
    filter_items,
    judgment_items,
    judgment_view,
)
from leaderboard.page_link import MAX_INDEX_DIGITS, bounded_number
from leaderboard.results import LruCache, QueryUnavailableError, ResultsStore, UnknownRunError
from leaderboard.run_pair import compare_filtered
from leaderboard.writing_bench_tables import run_label
from leaderboard.tabs.judgment_panel import build_panel, hidden_panel, panel_values
from leaderboard.tabs.row_clicks import on_row_click

VIEW_ENDPOINT = "judgments_view"
"""The page's own event listing a model's items (undocumented: the documented one is `leaderboard.public_api`'s)."""
MAX_INDEX = 10**MAX_INDEX_DIGITS - 1
"""The largest item index a selected row may name (the link parser's bound)."""
PROMPT_CHARS = 80
MAX_LISTED = 1000
ITEMS_LABEL = "Items (select a row to read its judgment)"
ITEM_DATATYPES = ["str", "number", "str", "number", "str", "str", "str", "str", "str"]
ITEM_HEADERS = [column_label(column) for column in ITEM_COLUMNS]
"""The items table's headers, shown even before a model is chosen (never Gradio's "1 2 3")."""
_ITEM_TABLES: LruCache[tuple[dict[str, Any], str]] = LruCache(64)


@dataclass(frozen=True)
class ModelChoices:
    """The two model choosers after the set of runs changed."""

    model: Any
    compare: Any


def build(context: AppContext) -> None:
    """Lay out the tab and wire model choice, filters, item selection, comparison and the page's address."""
    with gr.Row():
        # Custom values let API clients name a run id directly (an unknown one is refused by the results store).
        model = gr.Dropdown(label="Model", elem_id="judgments-model", scale=2, allow_custom_value=True)
        compare = gr.Dropdown(label="Compare with (optional)", elem_id="judgments-compare", scale=2)
    with gr.Row():
        fields = {name: gr.Dropdown(label=name.capitalize(), value=ANY, choices=[ANY], elem_id=f"filter-{name}")
                  for name in FILTER_FIELDS}
    with gr.Row():
        score_min = gr.Slider(*SCORE_RANGE, value=SCORE_RANGE[0], step=0.1, label="Item score at least")
        score_max = gr.Slider(*SCORE_RANGE, value=SCORE_RANGE[1], step=0.1, label="Item score at most")
        unscored = gr.Checkbox(value=True, label="Include items without a score (failed, pending, no response)")
    items = gr.Dataframe(label=ITEMS_LABEL, interactive=False, headers=ITEM_HEADERS,
                         datatype=ITEM_DATATYPES, elem_id="judgment-items", max_height=420)
    # A and B's paired comparison on the items listed, when a model to compare with is chosen.
    paired = gr.HTML(elem_id="judgments-paired")
    with gr.Row():
        downloads = {fmt: gr.DownloadButton(f"All judgments ({fmt.upper()})", elem_id=f"download-{fmt}")
                     for fmt in EXPORT_FORMATS}
    # The item shown, as the address writes it (`Hindi:3`); a page value, so the browser can put it in the link.
    selected = gr.Textbox(visible=False, elem_id="judgment-item-key")
    header = gr.Textbox(label="Item", interactive=False, elem_id="item-header")
    query = gr.Textbox(label="Query (prompt and reference material, as sent to the model and the judge)",
                       lines=6, max_lines=20, interactive=False, elem_id="item-query")
    with gr.Row(equal_height=False):
        first = build_panel("first")
        second = build_panel("second", visible=False)

    choosers = {"model": model, "compare": compare}
    filter_controls = [*fields.values(), score_min, score_max, unscored]
    filter_inputs = [model, *filter_controls]
    model_outputs = [items, *filter_controls, *downloads.values()]
    detail_outputs = [header, query, *first.outputs(), *second.outputs()]
    view_outputs = [model, compare, *model_outputs, selected, *detail_outputs]

    @refusing_bad_input
    def list_items(run_id: object, *values: object) -> Any:
        return items_table(context.store, optional_text(run_id, "model"), _item_filter(*values))

    def load_model(run_id: str | None, chosen: ItemFilter = ItemFilter()) -> dict[Any, Any]:
        try:
            details = context.store.details(run_id) if run_id else None
        except UnknownRunError:
            raise _unknown_run(run_id) from None
        updates: dict[Any, Any] = {items: items_table(context.store, run_id, chosen)}
        choices = filter_choices(judgment_items(details)) if details is not None else {}
        for name, dropdown in fields.items():
            updates[dropdown] = gr.update(choices=[ANY, *choices.get(name, [])], value=getattr(chosen, name) or ANY)
        updates.update({score_min: chosen.score_min, score_max: chosen.score_max, unscored: chosen.include_unscored})
        version = context.store.details_version(run_id) if run_id else ""
        for fmt, button in downloads.items():
            path = export_judgments(details, fmt, context.downloads_dir, run_id, version) if details is not None else None
            updates[button] = gr.update(value=str(path) if path else None)
        return updates

    @refusing_bad_input
    def choose_model(run_id: object) -> dict[Any, Any]:  # also `judgments_view`, for load tests
        return load_model(optional_text(run_id, "model"))

    @refusing_bad_input
    def show_item(run_id: object, other: object, key: object) -> dict[Any, Any]:
        run_id, other = optional_text(run_id, "model"), optional_text(other, "compare with")
        item = parse_item_key(text(key, "item"))
        if not run_id or item is None:
            return {header: "", query: "", **hidden_panel(first), **hidden_panel(second)}
        config, index = item
        try:  # the run may have been removed while its page was open
            item_header = _item_header(context, run_id, config, index)
        except UnknownRunError:
            raise _unknown_run(run_id) from None
        updates = {header: item_header, query: _query(context, run_id, config, index)}
        updates.update(panel_values(first, _label(context, run_id), _view(context, run_id, config, index)))
        if other:
            updates.update(panel_values(second, _label(context, other), _view(context, other, config, index)))
        else:
            updates.update(hidden_panel(second))
        return updates

    @refusing_bad_input
    def select_item(evt: gr.SelectData) -> str:
        return selected_item(evt.row_value)

    def clear_item() -> dict[Any, Any]:
        return {selected: "", **show_item(None, None, None)}

    def refresh(current: str | None) -> dict[Any, Any]:
        # The runs changed: new choices, and the best-ranked model; a model that changes lists its own items.
        updated = model_choices(context)
        updates = as_updates(updated, choosers)
        if updated.model["value"] != (current or None):
            updates.update({**load_model(updated.model["value"]), **clear_item()})
        return updates

    def open_link(address: str) -> dict[Any, Any]:
        link = resolve_link(context.store, parse_link(address or ""))
        if link is None:  # no model, or one the board does not have: the link leaves this tab alone
            return {output: gr.skip() for output in view_outputs}
        key = item_key(*link.item) if link.item else ""
        return {**as_updates(model_choices(context, link.model, link.compare), choosers),
                **load_model(link.model, link.filter), selected: key, **show_item(link.model, link.compare, key)}

    # The tab's own outputs follow each programmatic choice (refresh, link), so a choice fires nothing more;
    # only a person choosing a model (`input`) reloads its items.
    context.results_version.change(refresh, [model], view_outputs, show_progress="hidden")
    context.page_link.change(open_link, context.page_link, view_outputs, show_progress="hidden")
    # A new model lists new rows: the item shown was the old model's, so it goes, first, so that a row clicked
    # while the new rows load is not closed after it opens. A choice, a click or a filter made while the last
    # one loads is kept (README, "One listener per view").
    model.input(clear_item, None, [selected, *detail_outputs], trigger_mode="always_last").then(
        choose_model, [model], model_outputs, api_name=VIEW_ENDPOINT, trigger_mode="always_last")
    gr.on([*(control.change for control in (*fields.values(), unscored)),
           *(slider.release for slider in (score_min, score_max))],
          list_items, filter_inputs, items, trigger_mode="always_last")
    # Every click shows the item, even the same row again: a change event of the selection
    # would not fire then, and the panel would keep what an earlier model said.
    on_row_click(items, select_item, selected, show_item, [model, compare, selected], detail_outputs)
    compare.change(show_item, [model, compare, selected], detail_outputs)
    gr.on([control.change for control in (model, compare, *fields.values(), unscored, score_min, score_max)],
          refusing_bad_input(lambda *values: paired_comparison(context, *values)), [compare, *filter_inputs], paired,
          trigger_mode="always_last", show_progress="hidden")
    link_inputs = [model, compare, selected, *filter_controls]
    for control in link_inputs:
        control.change(None, link_inputs, None, js=LINK_SCRIPT)


def paired_comparison(context: AppContext, other: object, run_id: object, *values: object) -> str:
    """A against B on the items the filter lists (empty without a model to compare with); inputs are checked
    (`InvalidInput`)."""
    other, run_id, chosen = optional_text(other, "compare with"), optional_text(run_id, "model"), _item_filter(*values)
    if not run_id or not other or other == run_id:
        return ""
    try:
        results = compare_filtered(context.store, run_id, other, chosen)
    except UnknownRunError:
        return ""
    except RunsNotComparable as exc:
        return wrapping_html(html.escape(f"No paired comparison: {exc}"))
    return filtered_summary(results, _label(context, run_id), _label(context, other))


def model_choices(context: AppContext, model: str | None = None, compare: str | None = None) -> ModelChoices:
    """Every run as a (label, run_id) choice, with `model` and `compare` chosen when they are runs on the board;
    the model defaults to the best-ranked run, the comparison to none."""
    runs = context.store.snapshot().runs
    ranked = sorted(runs, key=lambda run: -(run.summary.get("overall") or float("-inf")))
    choices = [(run_label(run.model, run.revision), run.run_id) for run in ranked]
    run_ids = [run_id for _, run_id in choices]
    chosen = model if model in run_ids else (run_ids[0] if run_ids else None)
    return ModelChoices(
        model=gr.update(choices=choices, value=chosen),
        compare=gr.update(choices=[("(none)", "")] + choices, value=compare if compare in run_ids else ""),
    )


def items_table(store: ResultsStore, run_id: str | None, chosen: ItemFilter) -> Any:
    """The run's items that pass the filter (at most MAX_LISTED), prompt shortened, scores rounded.

    A full run has ~3,900 items; sending them all to every viewer is what makes a crowd slow,
    and nobody scrolls them: past MAX_LISTED the label says how many match and how to see them.
    The table is computed once per state of the run's details and filter, then shared.
    """
    if not run_id:
        return gr.update(value=pd.DataFrame(columns=ITEM_HEADERS), label=ITEMS_LABEL)
    key = (store.runs_dir, run_id, store.details_version(run_id), chosen)
    value, label = _ITEM_TABLES.get_or_load(key, lambda: _items_view(store, run_id, chosen))
    return gr.update(value=value, label=label)  # a new update each time: Gradio takes the value out of it


def _items_view(store: ResultsStore, run_id: str, chosen: ItemFilter) -> tuple[dict[str, Any], str]:
    matching = filter_items(judgment_items(store.details(run_id)), chosen)
    shown = matching.head(MAX_LISTED).copy()
    shown["prompt"] = shown["prompt"].astype(str).map(_short)
    label = ITEMS_LABEL if len(matching) <= MAX_LISTED else (
        f"Items: the first {MAX_LISTED} of the {len(matching)} that match. Narrow the filters to see the others, "
        "or download them all below."
    )
    return scores_as_read(shown.rename(columns=column_label), ["Item score"]), label


def selected_item(row: object) -> str:
    """The item key of a clicked row of the items table (its language and index), "" for no row; a row that is
    not one raises `InvalidInput`."""
    if not row:
        return ""
    if not isinstance(row, (list, tuple)) or len(row) < 2:
        raise InvalidInput(f"the selected row must hold a language and an index, not {echo(row)}")
    cell = row[1]  # a number as the table holds it, or its text
    index = bounded_number(cell, 0, MAX_INDEX) if isinstance(cell, str) else number(
        cell, "the selected row's index", 0, MAX_INDEX)
    if index is None or not index.is_integer():
        raise InvalidInput(f"the selected row's index must be a whole number from 0 to {MAX_INDEX}, not {echo(row[1])}")
    return item_key(text(row[0], "the selected row's language"), int(index))


def _item_filter(language: object, variant: object, domain: object, subdomain: object,
                 score_min: object, score_max: object, include_unscored: object) -> ItemFilter:
    values = {"language": language, "variant": variant, "domain": domain, "subdomain": subdomain}
    chosen = {name: optional_text(value, name) for name, value in values.items()}
    low = number(score_min, "item score at least", *SCORE_RANGE)
    high = number(score_max, "item score at most", *SCORE_RANGE)
    return ItemFilter(**{name: (None if value == ANY else value) for name, value in chosen.items()},
                      score_min=SCORE_RANGE[0] if low is None else low,
                      score_max=SCORE_RANGE[1] if high is None else high,
                      include_unscored=flag(include_unscored, "include items without a score"))


def _view(context: AppContext, run_id: str, config: str, index: int):
    try:
        return judgment_view(context.store.details(run_id), config, index)
    except (UnknownRunError, FileNotFoundError):
        return None


def _query(context: AppContext, run_id: str, config: str, index: int) -> str:
    try:
        return context.store.queries(run_id, config).get(index, f"(item {config} #{index} is not in the dataset)")
    except QueryUnavailableError as exc:
        return f"(the query could not be loaded: {exc})"


def _item_header(context: AppContext, run_id: str, config: str, index: int) -> str:
    details = context.store.details(run_id)
    row = details[(details["config"] == config) & (details["index"] == index)]
    if row.empty:
        return f"{config} #{index}"
    item = row.iloc[0]
    return f"{config} #{index} · {item['id']} · {item['variant']} · {item['domain']} / {item['subdomain']}"


def _label(context: AppContext, run_id: str) -> str:
    try:
        run = context.store.run(run_id)
    except UnknownRunError:
        raise _unknown_run(run_id) from None
    return run_label(run.model, run.revision)


def _unknown_run(run_id: str | None) -> gr.Error:
    return gr.Error(f"No evaluated run {echo(run_id)}: choose one from the list.", print_exception=False)


def _short(text: str) -> str:
    return text if len(text) <= PROMPT_CHARS else text[: PROMPT_CHARS - 1] + "…"
