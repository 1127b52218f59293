"""A benchmark's item browser: one model's items under the declared filters, one item in full beside another
model's answer to it, their paired comparison on the items listed, and the downloads.

Built from the benchmark's declarations (`eval_backend.benchmarks.board_view`: the item table's columns, its
filters, how one item reads). Items open by a click on their row; the address holds the view
(`?tab=qa&qa_model=<run id>&qa_compare=<run id>&qa_item=<config>:<index>`, with the filters), and so opens it. A
score link (`?tab=qa&model=<run id>&config=hindi`) opens the browser on that model with that filter set; so do the
links of a tab's former id (`BoardView.former_tabs`: `?tab=judgments&model=…&language=Hindi`), a filter named
by its label as they did.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any, Sequence

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.board_view import ItemView
from eval_backend.benchmarks.metric import PERCENT
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.run_comparison import RunsNotComparable
from eval_backend.run_items import model_label
from leaderboard.comparison_tables import filtered_summary, wrapping_html
from leaderboard.context import AppContext
from leaderboard.endpoint_inputs import InvalidInput, echo, optional_text, refusing_bad_input, text
from leaderboard.exports import EXPORT_FORMATS
from leaderboard.item_links import item_key, known_run, parse_item_key
from leaderboard.items_link_view import WHOLE_BOARD_CLASS
from leaderboard.page_link import MAX_LINK_CHARS, PageLink, read_link
from leaderboard.results import QueryUnavailableError, ResultsStore, UnknownRunError
from leaderboard.run_pair import compare_filtered
from leaderboard.scored_tables import (
    ALL, groups, item_filters, item_groupings, item_labels, item_view, items_frame, ranking_of, tab_id,
)
from leaderboard.tabs.item_panel import build_panel, hidden_panel, panel_values
from leaderboard.tabs.scored_tab_parts import empty_table, item_downloads, rounded_table, run_downloads
from leaderboard.tabs.row_clicks import on_row_click

ITEMS_LABEL = "Items (click a row to read it in full)"
MAX_LISTED = 1000
"""Rows sent at most: a full WritingBench run has ~3,900 items, and sending them all to every viewer is what makes a
crowd slow; nobody scrolls them. Past it the label says how many match and how to see them."""
NO_COMPARISON = ("(none)", "")
ITEM_URL_SCRIPT = """(model, compare, item, ...values) => {{
  const params = new URLSearchParams(window.location.search);
  // An address naming no tab shows the first tab: its item browser, when on screen, writes the address too.
  const shown = document.getElementById("{tab}-item-browser")?.offsetParent != null;
  if (!({tabs}.includes(params.get("tab")) || (!params.get("tab") && shown))) return;
  params.set("tab", "{tab}");  // a former tab's link now names the tab it opened
  const fields = {fields};
  const put = (name, value) => value && value !== "{all}" ? params.set(name, value) : params.delete(name);
  put("{tab}_model", model);
  put("{tab}_compare", compare);
  put("{tab}_item", item);
  // A score link's or a former tab's parameters: the tab's own say what is shown now.
  ["model", "compare", "item", ...{labels}].forEach((name) => params.delete(name));
  fields.forEach((field, i) => put(field, values[i]));
  window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
}}"""
"""Keeps the address in step with the item browser's models, filters and opened item (in the browser only)."""
LINK_SCRIPT = """(query, linked) => {{
  const params = new URLSearchParams(query || "");
  const tabs = {tabs};
  // `model=<run id>` is how a score cell and a model page link a run's items (`score_links.items_address`).
  const named = tabs.some((tab) => params.get(tab + "_model")) || params.get("model");
  return tabs.includes(params.get("tab")) && named ? (query || "").slice(0, {limit}) : linked;
}}"""
"""Hands a link that opens this tab's items to the server: an address naming none asks the server nothing. The
server reads it within bounds (`page_link.read_link`) and checks the runs (`known_run`) and item
(`parse_item_key`) before it shows anything."""


@dataclass(frozen=True)
class Items:
    """The item browser for one model: its items under the filters, each filter's choices, the downloads (one per
    export format)."""

    items: Any
    groupings: tuple[Any, ...]
    downloads: tuple[Any, ...]

    def updates(self) -> list[Any]:
        """The browser's outputs, in order: the table, each filter, the downloads."""
        return [self.items, *self.groupings, *self.downloads]


@dataclass(frozen=True)
class OpenedItem:
    """One item in full: its header, few-shot examples, prompt, and each chosen model's view of it (None: that
    run has no such item), labelled with the model."""

    header: str
    shots: str
    question: str
    views: tuple[tuple[str, ItemView | None], ...]


@dataclass(frozen=True)
class ItemLink:
    """What an address asks of the item browser; None or empty where it asks nothing (every value untrusted)."""

    model: str | None
    compare: str | None
    item: str
    filters: tuple[str, ...]


def build(context: AppContext, benchmark: Benchmark) -> None:
    """Lay out the item browser in the benchmark's tab and wire it to its results, its controls and the page's
    address."""
    prefix = tab_id(benchmark)
    tabs = json.dumps(_link_tabs(benchmark))
    fields = item_groupings(benchmark)
    with gr.Column(elem_id=f"{prefix}-item-browser"):
        gr.Markdown("### Items: each prompt, the answer and how it was scored")
        # What a score link opened: how many items and their mean, and the way to the whole board.
        line = gr.HTML(elem_id=f"{prefix}-linked-line")
        with gr.Row():
            # Custom values let API clients name a run id directly (the results store refuses an unknown one).
            model = gr.Dropdown(label="Model", elem_id=f"{prefix}-model", scale=2, allow_custom_value=True)
            compare = gr.Dropdown([NO_COMPARISON], value="", label="Compare with (optional)", scale=2,
                                  elem_id=f"{prefix}-compare", allow_custom_value=True)
        with gr.Row():
            # The board's group keeps its element id `group`; any other filter's is `group-<field>`.
            groupings = [gr.Dropdown([ALL], value=ALL, label=field.label,
                                     elem_id=f"{prefix}-group" + (f"-{field.name}" if i else ""))
                         for i, field in enumerate(fields)]
            show = gr.Dropdown(item_filters(benchmark), value=ALL, label="Show", elem_id=f"{prefix}-show")
        items = gr.Dataframe(empty_table(list(item_labels(benchmark)), item_labels(benchmark)), label=ITEMS_LABEL,
                             interactive=False, elem_id=f"{prefix}-items", max_height=640, wrap=True,
                             elem_classes=["item-table"])
        paired = gr.HTML(elem_id=f"{prefix}-paired")
        files = item_downloads(prefix)
        # The key of the item last asked for (a row clicked, a link, a model chosen), kept on the server, which
        # applies them one at a time in the order it takes them; `opened`, in the page, is the key of the item shown.
        wanted = gr.State("")
        opened = gr.Textbox(visible=False, elem_id=f"{prefix}-item-key")
        title = gr.Textbox(label="Item", interactive=False, visible=False, elem_id=f"{prefix}-item-title")
        with gr.Accordion("Few-shot examples of this item's prompt", open=False, visible=False,
                          elem_id=f"{prefix}-shots-panel") as shots_panel:
            shots = gr.Textbox(label="Few-shot examples", lines=8, max_lines=30, elem_id=f"{prefix}-shots")
        question = gr.Textbox(label="The item's prompt", lines=4, max_lines=30, interactive=False, visible=False,
                              elem_id=f"{prefix}-question")
        with gr.Row(equal_height=False):
            panels = (build_panel(prefix), build_panel(f"{prefix}-second", visible=False))
        # A link goes through a plain text box: only a valid run is chosen. Empty, not None: the script hands back ""
        # for an address that names no item, which must not be a change (it would send this tab's four link events
        # on every linked visit, to any tab).
        linked = (gr.Textbox("", visible=False, elem_id=f"{prefix}-linked-model")
                  if context.page_link is not None else None)
    browser = [items, *groupings, *files.values()]
    detail_outputs = [opened, title, shots_panel, shots, question,
                      *(output for panel in panels for output in panel.outputs())]
    item_inputs = [model, show, *groupings]

    def checked(run_id: object, show_value: object,
                chosen: Sequence[object]) -> tuple[str | None, str, tuple[str, ...]]:
        """The model, the "Show" choice and each item filter, checked as untrusted input."""
        picked = tuple(text(value, "item filter") for value in chosen)
        return optional_text(run_id, "model"), text(show_value, "show"), picked

    @refusing_bad_input
    def browse(run_id: object, chosen_show: object, *chosen: object) -> list[Any]:
        return render_items(context, benchmark, *checked(run_id, chosen_show, chosen)).updates()

    @refusing_bad_input
    def show_item(run_id: object, other: object, key: object) -> dict[Any, Any]:
        asked = text(key, "item")  # not `wanted`, the state it comes from
        shown = render_item(context, benchmark, optional_text(run_id, "model"), optional_text(other, "compare with"),
                            asked)
        if shown is None:
            hidden = gr.update(visible=False)
            return {opened: "", title: hidden, shots_panel: hidden, shots: "",
                    question: gr.update(value="", visible=False), **hidden_panel(panels[0]), **hidden_panel(panels[1])}
        updates = {opened: asked, title: gr.update(value=shown.header, visible=True),
                   shots_panel: gr.update(visible=bool(shown.shots)), shots: shown.shots,
                   question: gr.update(value=shown.question, visible=True), **hidden_panel(panels[1])}
        for panel, (label, view) in zip(panels, shown.views):
            updates.update(panel_values(panel, label, view))
        return updates

    @refusing_bad_input
    def compare_listed(run_id: object, other: object, chosen_show: object, *chosen: object) -> str:
        run_id, show_value, picked = checked(run_id, chosen_show, chosen)
        return paired_comparison(context, benchmark, run_id, optional_text(other, "compare with"), show_value, picked)

    @refusing_bad_input
    def select_item(evt: gr.SelectData) -> str:
        return selected_item(evt.row_value)

    def refresh(current: str | None, other: str | None, query: str = "") -> list[Any]:
        return model_updates(context, benchmark, current, other, text(query, "page address", MAX_LINK_CHARS))

    address = ITEM_URL_SCRIPT.format(tab=prefix, tabs=tabs, all=ALL, fields=json.dumps([f.name for f in fields]),
                                     labels=json.dumps(sorted({f.label.lower() for f in fields})))
    address_inputs = [model, compare, opened, *groupings]
    page_link = [context.page_link] if context.page_link is not None else []
    context.results_version.change(refresh, [model, compare, *page_link], [model, compare], show_progress="hidden")
    # Keeps the filters a link (or a viewer) chose: a model's items under them, or all where it has none.
    model.change(browse, item_inputs, browser)
    # A model a viewer chooses lists new rows: the item shown was the old model's, so it goes (through `wanted`).
    model.input(lambda: "", None, wanted, trigger_mode="always_last").then(None, address_inputs, None, js=address)
    # One listener for the item filters (README, "One listener per view").
    gr.on([control.input for control in (*groupings, show)], browse, item_inputs, browser,
          trigger_mode="always_last").then(None, address_inputs, None, js=address)
    # A click, a link and a model chosen each write the key; one listener shows what it names, the last written
    # (leaderboard/tabs/row_clicks.py).
    on_row_click(items, select_item, wanted, show_item, [model, compare, wanted], detail_outputs).then(
        None, address_inputs, None, js=address)
    compare.input(show_item, [model, compare, wanted], detail_outputs).then(None, address_inputs, None, js=address)
    gr.on([control.change for control in (model, compare, show, *groupings)], compare_listed,
          [model, compare, show, *groupings], paired, trigger_mode="always_last", show_progress="hidden")
    if context.page_link is not None and linked is not None:
        context.page_link.change(None, [context.page_link, linked], linked,
                                 js=LINK_SCRIPT.format(tabs=tabs, limit=MAX_LINK_CHARS))

        def open_link(query: str, current: str | None, other: str | None) -> list[Any]:
            return linked_view(context, benchmark, query, current, other)

        @refusing_bad_input
        def line_of(run_id: object, chosen_show: object, *chosen: object) -> str:
            return linked_line(context, benchmark, *checked(run_id, chosen_show, chosen))

        def browse_link(query: str, run_id: object, chosen_show: object, *chosen: object) -> list[Any]:
            return [*browse(run_id, chosen_show, *chosen), read_item_link(context, benchmark, query).item]

        # The filters with the models; then the items under them with the key of the item the link names, shown by
        # the key's listener once the model it belongs to is on the page (and before any row of it can be clicked);
        # then the line above them.
        linked.change(open_link, [linked, model, compare], [*groupings, show, model, compare],
                      show_progress="hidden").then(browse_link, [linked, *item_inputs], [*browser, wanted]).then(
            line_of, item_inputs, line)


def _link_tabs(benchmark: Benchmark) -> list[str]:
    """The tab ids whose links this item browser reads: its own, then the board's former ids."""
    return list(dict.fromkeys((tab_id(benchmark), *benchmark.board.former_tabs)))


def store_of(context: AppContext, benchmark: Benchmark) -> ResultsStore:
    return context.stores[benchmark.name]


def choice_label(model: str, revision: object) -> str:
    """A run as the model choosers and the item's panels name it (`run_items.model_label`: the revision shown when
    it is not the default branch, its first 12 characters)."""
    return model_label(model, str(revision)[:12])


def model_updates(context: AppContext, benchmark: Benchmark, current: str | None, other: str | None,
                  query: str) -> list[Any]:
    """The Model and Compare dropdowns' new choices (the board's runs), each value only when the one it shows is no
    longer on the board: the model then the run the address `query` links this tab to, else the first ranked.

    `current` is the value when the refresh was asked for: a link (or a viewer) may have chosen another since,
    which a value sent back with the choices would overwrite, and list another run's items under the link.
    """
    choices = _choices(context, benchmark)
    runs = [run_id for _, run_id in choices]
    model = gr.update(choices=choices) if current in runs else gr.update(
        choices=choices, value=read_item_link(context, benchmark, query).model or (runs[0] if runs else None))
    compare = gr.update(choices=[NO_COMPARISON, *choices], **({} if not other or other in runs else {"value": ""}))
    return [model, compare]


def _choices(context: AppContext, benchmark: Benchmark) -> list[tuple[str, str]]:
    """The item browser's models, in ranking order: (model @ revision, run id)."""
    ranking = ranking_of(store_of(context, benchmark).snapshot(), benchmark, context.settings.judge.model)
    return [(choice_label(model, revision), run_id)
            for run_id, model, revision in zip(ranking["run_id"], ranking["model"], ranking["revision"])]


def read_item_link(context: AppContext, benchmark: Benchmark, query: str | None) -> ItemLink:
    """What the address `query` asks of this tab's item browser: its runs when on the board, its item key and
    each filter's value as given (`ALL` where it names none); nothing when it names another tab."""
    link, tabs = read_link(query), _link_tabs(benchmark)
    if link.text("tab") not in tabs:
        return ItemLink(None, None, "", tuple(ALL for _ in item_groupings(benchmark)))
    store = store_of(context, benchmark)
    model = known_run(store, _param(link, tabs, "model"))
    compare = known_run(store, _param(link, tabs, "compare"))
    filters = tuple(link.text(field.name) or link.text(field.label.lower()) or ALL
                    for field in item_groupings(benchmark))
    return ItemLink(model, compare if compare != model else None, _param(link, tabs, "item"), filters)


def _param(link: PageLink, tabs: Sequence[str], name: str) -> str:
    """`<tab>_<name>` for the first of `tabs` the link gives one, else the plain `<name>` (a score link's)."""
    return next((link.text(f"{tab}_{name}") for tab in tabs if link.has(f"{tab}_{name}")), link.text(name))


def linked_view(context: AppContext, benchmark: Benchmark, query: str, current: str | None,
                other: str | None) -> list[Any]:
    """What a link sets in the item browser: each filter it names (with the choices of its run, or of the one
    shown where the run is not on the board), Show back to all, the model (its run, else the one shown) and the
    model compared (the link's, else none)."""
    link = read_item_link(context, benchmark, query)
    run_id = link.model or current
    details = _details(store_of(context, benchmark), benchmark, run_id) if run_id else pd.DataFrame()
    options = [groups(details, benchmark, field.name) if run_id else [ALL] for field in item_groupings(benchmark)]
    filters = [gr.update(choices=names, value=asked if asked in names else ALL)
               for names, asked in zip(options, link.filters)]
    # A dropdown's update must carry its choices: Gradio rebuilds the session's copy from the update.
    choices = _choices(context, benchmark)
    return [*filters, ALL, gr.update(choices=choices, value=run_id),
            gr.update(choices=[NO_COMPARISON, *choices], value=link.compare or "")]


def render_items(context: AppContext, benchmark: Benchmark, run_id: str | None, show: str,
                 chosen: Sequence[str]) -> Items:
    """The chosen run's items under the filters (`chosen`: one value per `item_groupings`; a value the run has
    none of is all), each filter's choices and the run's downloads."""
    fields = item_groupings(benchmark)
    if not run_id:
        hidden = gr.update(value=None, visible=False)
        return Items(gr.skip(), tuple(gr.update(choices=[ALL], value=ALL) for _ in fields),
                     tuple(hidden for _ in EXPORT_FORMATS))
    store = store_of(context, benchmark)
    details = _details(store, benchmark, run_id)
    exports = run_downloads(details, context.downloads_dir, f"{benchmark.name}-{run_id}",
                            store.details_version(run_id))
    choices = [groups(details, benchmark, field.name) for field in fields]
    values = [value if value in options else ALL for value, options in zip(chosen, choices)]
    listed = _listed(details, benchmark, show, values)
    return Items(items=rounded_table(listed.head(MAX_LISTED), item_labels(benchmark), label=_items_label(len(listed))),
                 groupings=tuple(gr.update(choices=options, value=value) for options, value in zip(choices, values)),
                 downloads=tuple(exports.values()))


def _items_label(matching: int) -> str:
    return ITEMS_LABEL if matching <= MAX_LISTED else (
        f"Items: the first {MAX_LISTED} of the {matching} that match. Narrow the filters to see the others, "
        "or download them all below.")


def _listed(details: pd.DataFrame, benchmark: Benchmark, show: str, chosen: Sequence[str]) -> pd.DataFrame:
    """The items the filters keep (a "Show" choice the benchmark does not declare is all)."""
    return items_frame(details, benchmark, show=show if show in item_filters(benchmark) else ALL,
                       where={field.name: value for field, value in zip(item_groupings(benchmark), chosen)})


def paired_comparison(context: AppContext, benchmark: Benchmark, run_id: str | None, other: str | None, show: str,
                      chosen: Sequence[str]) -> str:
    """A against B on the items the filters list, one line per figure (empty without a model to compare with)."""
    if not run_id or not other or other == run_id:
        return ""
    store = store_of(context, benchmark)
    try:
        listed = _listed(_details(store, benchmark, run_id), benchmark, show, chosen)
        keys = [parse_item_key(key) for key in listed["item"]]
        results = compare_filtered(store, run_id, other, [key for key in keys if key is not None])
        return filtered_summary(results, _label(store, run_id), _label(store, other))
    except (UnknownRunError, gr.Error):  # a run removed while its page was open
        return ""
    except RunsNotComparable as exc:
        return wrapping_html(html.escape(f"No paired comparison: {exc}"))


def selected_item(row: object) -> str:
    """The item key a clicked row of the items table begins with, "" for no row; a row that is not one raises
    `InvalidInput` (an event's data is the browser's, untrusted)."""
    if not row:
        return ""
    if not isinstance(row, (list, tuple)) or parse_item_key(row[0]) is None:
        raise InvalidInput(f"the selected row must begin with an item (<config>:<index>), not {echo(row)}")
    return str(row[0])


def linked_line(context: AppContext, benchmark: Benchmark, run_id: str | None, show: str,
                chosen: Sequence[str]) -> str:
    """The line above the items a link opened: "6 items · mean 6.90 (the cell you clicked)" (the benchmark's first
    figure with a value on these items), and a link to the whole board."""
    if not run_id:
        return ""
    details = _details(store_of(context, benchmark), benchmark, run_id)
    listed = _listed(details, benchmark, show, chosen)
    parts = [f"{len(listed)} item{'' if len(listed) == 1 else 's'}"]
    if benchmark.item_statistics and len(listed):
        statistics = benchmark.item_statistics()
        keys = set(listed["item"])
        rows = [item_key(config, int(index)) in keys for config, index in zip(details["config"], details["index"])]
        values = statistics.values(details)[rows]
        figure = next((figure for figure in statistics.figures if values[figure.name].notna().any()), None)
        if figure is not None:
            percent = " %" if figure.unit == PERCENT else ""
            parts.append(f"mean {values[figure.name].mean():.2f}{percent} (the cell you clicked)")
    whole = f'<a class="{WHOLE_BOARD_CLASS}" href="?tab={html.escape(tab_id(benchmark))}">the whole board</a>'
    return wrapping_html(f"{html.escape(' · '.join(parts))} · {whole}")


def render_item(context: AppContext, benchmark: Benchmark, run_id: str | None, other: str | None,
                key: str | None) -> OpenedItem | None:
    """The item `key` of the chosen run in full, and of the run compared with it when one is; None when no item is
    opened or the chosen run has no such item (a link's)."""
    item = parse_item_key(key)
    if not run_id or item is None:
        return None
    store = store_of(context, benchmark)
    view = item_view(_details(store, benchmark, run_id), benchmark, *item)
    if view is None:
        return None
    views = [(_label(store, run_id), view)]
    if other and other != run_id:
        views.append((_label(store, other), item_view(_details(store, benchmark, other), benchmark, *item)))
    return OpenedItem(header=view.header or f"Item {item[0]} #{item[1]}", shots=view.shots,
                      question=view.question or _query(store, run_id, *item), views=tuple(views))


def _query(store: ResultsStore, run_id: str, config: str, index: int) -> str:
    """The item's query from the run's dataset (a benchmark whose details leave it out)."""
    try:
        return store.queries(run_id, config).get(index, f"(item {config} #{index} is not in the dataset)")
    except QueryUnavailableError as exc:
        return f"(the query could not be loaded: {exc})"


def _label(store: ResultsStore, run_id: str) -> str:
    try:
        run = store.run(run_id)
    except UnknownRunError:
        raise gr.Error(f"No evaluated run {run_id!r}: choose one from the list.", print_exception=False) from None
    return choice_label(run.model, run.revision)


def _details(store: ResultsStore, benchmark: Benchmark, run_id: str) -> pd.DataFrame:
    try:
        return store.details(run_id)
    except UnknownRunError:
        raise gr.Error(f"No evaluated run {run_id!r}: choose one from the list of {benchmark.title}'s runs.",
                       print_exception=False) from None
