"""A benchmark's item browser: one model's items under the declared filters, one item in full, the downloads.

Built from the benchmark's declarations (`eval_backend.benchmarks.board_view`): the item table's columns, its
filters (the board's group, each breakdown's field, the "Show" choices) and how one item reads. Items open by
clicking their row, counted in the filtered list; the opened item is in the address
(`?tab=qa&qa_model=<run id>&qa_item=<config>:<index>`, with the filters), a link to it opens it, and a score link
(`?tab=qa&model=<run id>&config=hindi`) opens the browser on that model with that filter set.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from leaderboard.context import AppContext, as_updates
from leaderboard.endpoint_inputs import optional_text, refusing_bad_input, text
from leaderboard.judgment_links import known_run, parse_item_key
from leaderboard.page_link import read_link
from leaderboard.results import ResultsStore, UnknownRunError
from leaderboard.scored_tables import (
    ALL,
    groups,
    item_filters,
    item_groupings,
    item_labels,
    item_view,
    items_frame,
    ranking_of,
    tab_id,
)
from leaderboard.tabs.scored_tab_parts import empty_table, item_downloads, rounded_table, run_downloads

ITEMS_LABEL = "Items (click a row to read it in full)"
ITEM_URL_SCRIPT = """(model, item, ...values) => {{
  const params = new URLSearchParams(window.location.search);
  if (params.get("tab") !== "{tab}") return;
  const fields = {fields};
  model ? params.set("{tab}_model", model) : params.delete("{tab}_model");
  item ? params.set("{tab}_item", item) : params.delete("{tab}_item");
  params.delete("model");  // a score link's model: the tab's own parameter says which model is shown now
  fields.forEach((field, i) => values[i] && values[i] !== "{all}" ? params.set(field, values[i]) : params.delete(field));
  window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
}}"""
"""Keeps the address in step with the item browser's model, filters and opened item (in the browser only)."""
LINK_SCRIPT = """(query, linked, item) => {{
  const params = new URLSearchParams(query || "");
  // `model=<run id>` is how a score cell and a model page link a run's items (`score_links.items_address`).
  const asked = params.get("{tab}_model") || params.get("model");
  if (params.get("tab") !== "{tab}" || !asked) return [linked, item];
  return [(query || "").slice(0, 8192), (params.get("{tab}_item") || "").slice(0, 512)];
}}"""
"""Hands a link that opens this tab's items to the server: an address naming none asks the server nothing. The
server reads it within bounds (`page_link.read_link`) and checks the run (`known_run`) and item
(`parse_item_key`) before it shows anything."""


@dataclass(frozen=True)
class Items:
    """The item browser for one model: its items under the filters, each filter's choices, the downloads."""

    items: Any
    groupings: tuple[Any, ...]
    jsonl: Any
    csv: Any
    parquet: Any


@dataclass(frozen=True)
class Detail:
    """One item in full (plain text: a model's output is never rendered as HTML)."""

    title: Any
    shots_panel: Any
    shots: Any
    question: Any
    response: Any
    verdict: Any


def build(context: AppContext, benchmark: Benchmark) -> gr.Dropdown:
    """Lay out the item browser and wire it to its controls and the page's address; returns its model chooser,
    whose choices the tab's board render keeps up to date (`model_update`)."""
    prefix = tab_id(benchmark)
    gr.Markdown("### Items: each prompt, the answer and how it was scored")
    with gr.Row():
        model = gr.Dropdown(label="Model", elem_id=f"{prefix}-model", scale=2)
        groupings = [gr.Dropdown([ALL], value=ALL, label=field.label, elem_id=f"{prefix}-{_grouping_id(benchmark, i)}")
                     for i, field in enumerate(item_groupings(benchmark))]
        show = gr.Dropdown(item_filters(benchmark), value=ALL, label="Show", elem_id=f"{prefix}-show")
    items = gr.Dataframe(empty_table(list(item_labels(benchmark)), item_labels(benchmark)),
                         label=ITEMS_LABEL, interactive=False, elem_id=f"{prefix}-items", max_height=640, wrap=True,
                         elem_classes=["item-table"])
    files = item_downloads(prefix)
    opened = gr.Textbox(visible=False, elem_id=f"{prefix}-item-key")
    title = gr.Markdown(visible=False, elem_id=f"{prefix}-item-title")
    with gr.Accordion("Few-shot examples of this item's prompt", open=False, visible=False,
                      elem_id=f"{prefix}-shots-panel") as shots_panel:
        shots = gr.Textbox(label="Few-shot examples", lines=8, max_lines=30, elem_id=f"{prefix}-shots")
    question = gr.Textbox(label="The item's prompt", lines=4, max_lines=30, elem_id=f"{prefix}-question")
    response = gr.Textbox(label="The model's answer", lines=4, max_lines=30, elem_id=f"{prefix}-response")
    verdict = gr.Textbox(label="Scored as", lines=3, max_lines=20, elem_id=f"{prefix}-verdict")
    browser = [items, *groupings, *files.values()]
    detail = {"title": title, "shots_panel": shots_panel, "shots": shots, "question": question, "response": response,
              "verdict": verdict}

    @refusing_bad_input
    def browse(run_id: object, chosen_show: object, *chosen: object) -> list[Any]:
        picked = tuple(text(value, "item filter") for value in chosen)
        return item_updates(render_items(context, benchmark, optional_text(run_id, "model"),
                                         text(chosen_show, "show"), picked))

    @refusing_bad_input
    def show_item(run_id: object, key: object) -> dict[Any, Any]:
        return as_updates(render_item(context, benchmark, optional_text(run_id, "model"), text(key, "item")), detail)

    def select_item(evt: gr.SelectData) -> str:
        row = evt.row_value or []
        return str(row[0]) if row else ""

    def open_filters(query: str, current: str | None) -> list[Any]:
        return linked_filters(context, benchmark, query, current)

    def open_model(query: str, current: str | None) -> dict[str, Any]:
        return linked_model(context, benchmark, query, current)

    item_inputs = [model, show, *groupings]
    # Keeps the filters a link (or a viewer) chose: a model's items under them, or all where it has none.
    model.change(browse, item_inputs, browser)
    address = ITEM_URL_SCRIPT.format(tab=prefix, all=ALL, fields=json.dumps([f.name for f in item_groupings(benchmark)]))
    # One listener for the item filters (README, "One listener per view").
    gr.on([control.input for control in (*groupings, show)], browse, item_inputs, browser,
          trigger_mode="always_last").then(None, [model, opened, *groupings], None, js=address)
    detail_outputs = list(detail.values())
    # Every click opens the item, the same row again too: the key is set, then the item shown from it. A click
    # made while an item opens is kept (README, "One listener per view").
    items.select(select_item, None, opened, trigger_mode="always_last").then(
        show_item, [model, opened], detail_outputs, trigger_mode="always_last").then(
        None, [model, opened, *groupings], None, js=address)
    if context.page_link is not None:  # a link goes through a plain text box: only a valid run is chosen
        linked = gr.Textbox(visible=False, elem_id=f"{prefix}-linked-model")
        context.page_link.change(None, [context.page_link, linked, opened], [linked, opened], js=LINK_SCRIPT.format(tab=prefix))
        # The filters first, then the model: the model's change lists its items with the filters read as it
        # fires, which (set in one update with the model) could still be the old ones, and arrive last.
        linked.change(open_filters, [linked, model], [*groupings, show], show_progress="hidden").then(
            open_model, [linked, model], model, show_progress="hidden").then(
            browse, item_inputs, browser).then(show_item, [model, opened], detail_outputs)
    return model


def _grouping_id(benchmark: Benchmark, position: int) -> str:
    """The element id of an item filter: `group` for the board's group (as before), else `group-<field>`."""
    return "group" if position == 0 else f"group-{item_groupings(benchmark)[position].name}"


def store_of(context: AppContext, benchmark: Benchmark) -> ResultsStore:
    return context.stores[benchmark.name]


def model_choices(ranking: pd.DataFrame) -> list[tuple[str, str]]:
    """The item browser's models, in ranking order: (model @ revision, run id)."""
    return [(f"{model} @ {str(revision)[:12]}", run_id)
            for run_id, model, revision in zip(ranking["run_id"], ranking["model"], ranking["revision"])]


def model_update(context: AppContext, benchmark: Benchmark, ranking: pd.DataFrame, current: str | None,
                 query: str) -> dict[str, Any]:
    """The Model dropdown's new choices (the `ranking`'s runs); its value only when the one it shows is no longer
    on the board: the run the address `query` links this tab to, else the first ranked.

    `current` is the value when the render was asked for: a link (or a viewer) may have chosen another since,
    which a value sent back with the choices would overwrite, and list another run's items under the link.
    """
    choices = model_choices(ranking)
    runs = [run_id for _, run_id in choices]
    if current in runs:
        return gr.update(choices=choices)
    return gr.update(choices=choices, value=linked_run(context, benchmark, query) or (runs[0] if runs else None))


def linked_run(context: AppContext, benchmark: Benchmark, query: str | None) -> str | None:
    """The run of this benchmark's board that the address `query` links this tab to (`<tab>_model` or a score
    link's `model`), or None."""
    link = read_link(query)
    if link.text("tab") != tab_id(benchmark):
        return None
    return known_run(store_of(context, benchmark), link.text(f"{tab_id(benchmark)}_model") or link.text("model"))


def render_items(context: AppContext, benchmark: Benchmark, run_id: str | None, show: str,
                 chosen: Sequence[str]) -> Items:
    """The chosen run's items under the filters (`chosen`: one value per `item_groupings`; a value the run has
    none of is all), each filter's choices and the run's downloads."""
    fields = item_groupings(benchmark)
    if not run_id:
        hidden = gr.update(value=None, visible=False)
        return Items(gr.skip(), tuple(gr.update(choices=[ALL], value=ALL) for _ in fields), hidden, hidden, hidden)
    store = store_of(context, benchmark)
    details = _details(store, benchmark, run_id)
    exports = run_downloads(details, context.downloads_dir, f"{benchmark.name}-{run_id}",
                            store.details_version(run_id))
    choices = [groups(details, benchmark, field.name) for field in fields]
    values = [value if value in options else ALL for value, options in zip(chosen, choices)]
    shown = items_frame(details, benchmark, show=show if show in item_filters(benchmark) else ALL,
                        where={field.name: value for field, value in zip(fields, values)})
    return Items(items=rounded_table(shown, item_labels(benchmark)),
                 groupings=tuple(gr.update(choices=options, value=value) for options, value in zip(choices, values)),
                 **exports)


def item_updates(view: Items) -> list[Any]:
    """An `Items` as the browser's outputs, in order: the table, each filter, the downloads."""
    return [view.items, *view.groupings, view.jsonl, view.csv, view.parquet]


def linked_filters(context: AppContext, benchmark: Benchmark, query: str, current: str | None) -> list[Any]:
    """What a link (`?tab=<tab>&model=<run id>&<field>=<value>`) sets in the item browser's filters: each filter it
    names (with the choices of its run, or of the one shown where the run is not on the board), Show back to all."""
    link, store = read_link(query), store_of(context, benchmark)
    run_id = linked_run(context, benchmark, query) or current
    details = _details(store, benchmark, run_id) if run_id else pd.DataFrame()
    filters = []
    for field in item_groupings(benchmark):
        options = groups(details, benchmark, field.name) if run_id else [ALL]
        asked = link.text(field.name, ALL)
        filters.append(gr.update(choices=options, value=asked if asked in options else ALL))
    return [*filters, ALL]


def linked_model(context: AppContext, benchmark: Benchmark, query: str, current: str | None) -> dict[str, Any]:
    """The model a link sets in the item browser: its run when on the board, else the one shown."""
    store = store_of(context, benchmark)
    ranking = ranking_of(store.snapshot(), benchmark, context.settings.judge.model)
    # A dropdown's update must carry its choices: Gradio rebuilds the session's copy from the update.
    return gr.update(choices=model_choices(ranking), value=linked_run(context, benchmark, query) or current)


def render_item(context: AppContext, benchmark: Benchmark, run_id: str | None, key: str | None) -> Detail:
    """One item of the chosen run in full: few-shot examples (folded away), prompt, answer, verdict."""
    item = parse_item_key(key)
    if not run_id or item is None:
        hidden = gr.update(visible=False)
        return Detail(hidden, hidden, "", "", "", "")
    view = item_view(_details(store_of(context, benchmark), benchmark, run_id), benchmark, *item)
    if view is None:  # a link's item the run does not have: nothing is opened
        hidden = gr.update(visible=False)
        return Detail(hidden, hidden, "", "", "", "")
    return Detail(
        title=gr.update(value=f"**Item {item[0]} #{item[1]}**", visible=True),
        shots_panel=gr.update(visible=bool(view.shots)),
        shots=view.shots,
        question=view.question, response=view.response, verdict=view.verdict,
    )


def _details(store: ResultsStore, benchmark: Benchmark, run_id: str) -> pd.DataFrame:
    try:
        return store.details(run_id)
    except UnknownRunError:
        raise gr.Error(f"No evaluated {benchmark.title} run {run_id!r}: choose one from the list.") from None
