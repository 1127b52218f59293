"""The parts of a scored benchmark's tab (`benchmark_tab`): the rankings (ranked runs, then the partial and
incomplete ones under them), their search, flag filter and CSV, the run folders that could not be read, a run's
downloads, tables whose score cells link to their items, empty tables with their real headers.

Percentages are shown to one decimal, as the benchmarks' own scripts print them; the downloads
keep full precision. The rankings' search works as the WritingBench board's (`;` separates
several models), as does its filter of flagged rows (`row_flags`); its CSV is the rows on screen,
and the page's address carries both.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import gradio as gr
import numpy as np
import pandas as pd

from leaderboard.cell_links import row_links
from leaderboard.context import as_updates
from leaderboard.display import PERCENT_DECIMALS, linked_markdown
from leaderboard.exports import EXPORT_FORMATS, export_judgments, export_view_csv
from leaderboard.results import Snapshot
from leaderboard.page_link import LIST_SEPARATOR, read_link
from leaderboard.row_flags import FLAGS, badges_markdown, is_hidden
from leaderboard.scored_rankings import split_standing
from leaderboard.writing_bench_tables import model_matches
from leaderboard.tabs.leaderboard_tab import FLAGS_LABEL, SEARCH_HELP

NO_MATCH = ("**No models match** the search and the flags hidden. Clear the search box, untick a flag, or "
            "separate several models with `;`.")
"""What the rankings say in place of an empty table when the search and the flag filter keep no model."""
RANKINGS_LABEL = "Rankings: complete runs (sort from the ⋮ menu of a column header)"
UNRANKED_LABEL = "Not ranked: partial runs (some configs only) and incomplete ones (items without a score, a --limit)"
PROBLEMS_LABEL = "Run folders that could not be read"
RANKED_CLASS, UNRANKED_CLASS = "scored-ranked", "scored-unranked"
"""The classes of every scored benchmark's two ranking tables: the app's CSS pins their rank and model columns."""
SEARCH_URL_SCRIPT = """(search) => {{
  const params = new URLSearchParams(window.location.search);
  search ? params.set("{param}", search) : params.delete("{param}");
  const query = params.toString();
  window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : ""));
}}"""
"""Keeps the address in step with a rankings' search box (in the browser only), under the tab's own parameter."""
FLAGS_URL_SCRIPT = """(codes) => {{
  const params = new URLSearchParams(window.location.search);
  (codes || []).length ? params.set("{param}", codes.join("{separator}")) : params.delete("{param}");
  const query = params.toString();
  window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : ""));
}}"""
"""Keeps the address in step with the rankings' flag filter (in the browser only): `<tab>_hide_flags=cut_off,…`."""
CellLink = Callable[[Mapping[str, Any], str], "str | None"]
"""(one row of a table, as a mapping with its `run_id`; a number column) -> the address of the items behind that
cell, or None where it links nowhere."""


@dataclass(frozen=True)
class RankingsView:
    """One render of the rankings: the ranked rows the search keeps, the unranked ones under them, their
    CSV, the note when none is kept, the run folders that could not be read, and what is ranked."""

    table: Any
    unranked: Any
    download: Any
    no_match: Any
    problems: Any
    rule: Any = None


@dataclass(frozen=True)
class RankingFilters:
    """The rankings' controls a viewer narrows them with: the search box, the flags hidden, and per breakdown
    a ranking may be restricted to, the groups ranked on (`scored_tables.subset_breakdowns`)."""

    search: gr.Textbox
    hide_flags: gr.CheckboxGroup
    subsets: tuple[gr.CheckboxGroup, ...] = ()

    @property
    def inputs(self) -> list[Any]:
        return [self.search, self.hide_flags, *self.subsets]


def rankings_section(prefix: str, page_link: gr.Textbox | None, results_version: gr.Textbox, param: str,
                     render: Callable[..., RankingsView], empty: pd.DataFrame,
                     subsets: Sequence[tuple[str, str]] = (),
                     subset_choices: Callable[[], list[list[str]]] = list,
                     readings: Sequence[Any] = ()) -> tuple[RankingFilters, dict[str, Any]]:
    """The rankings' search box and flag filter, "no match" note, ranked and unranked tables, CSV button and
    unreadable run folders (all but the filters keyed as `RankingsView`), the "rank on chosen groups" boxes of
    `subsets` ((field, label) per breakdown; `subset_choices()` lists each one's groups on the board, set whenever
    the results change) and the line saying what is ranked; `empty` is the ranked table before any run.
    `render(search, flags hidden, *groups ticked, *readings)`, `readings` being more controls it reads (the style
    view).
    A link's `param` fills the search, its `<prefix>_hide_flags` the flag filter and `<prefix>_on_<field>` the
    groups ranked on; changing any writes it in the address.

    Changing a filter re-renders the rankings alone through `render`; the tab renders them with the rest of its
    board when the results or a reading change.
    """
    search = search_box(prefix, param)
    rankings = {
        "no_match": gr.Markdown(NO_MATCH, visible=False, elem_id=f"{prefix}-no-match"),
        "table": gr.Dataframe(empty, label=RANKINGS_LABEL, interactive=False, elem_id=f"{prefix}-table",
                              elem_classes=[RANKED_CLASS]),
        "unranked": gr.Dataframe(label=UNRANKED_LABEL, interactive=False, elem_id=f"{prefix}-unranked",
                                 visible=False, elem_classes=[UNRANKED_CLASS]),
        "download": gr.DownloadButton("Download this table (CSV)", elem_id=f"{prefix}-download-view", visible=False),
        "problems": gr.Textbox(label=PROBLEMS_LABEL, interactive=False, visible=False, elem_id=f"{prefix}-problems"),
    }
    # The flag filter sits under the tables: the ranked rows stay the first screen, and a restored filter is in view.
    filters = RankingFilters(search, flag_filter(prefix), tuple(subset_filter(prefix, *names) for names in subsets))
    rankings["rule"] = gr.Markdown("", elem_id=f"{prefix}-ranking-rule")
    params = [subset_param(prefix, field) for field, _ in subsets]
    if filters.subsets:  # keyed by box: a list returned to one output would be read as that box's value
        results_version.change(lambda: {box: gr.update(choices=names)
                                        for box, names in zip(filters.subsets, subset_choices())},
                               None, list(filters.subsets), show_progress="hidden")
    if page_link is not None:
        page_link.change(lambda query: [*linked_filters(query, param, flags_param(prefix)),
                                        *(linked_list(query, name, known) for name, known in
                                          zip(params, subset_choices() if params else ()))],
                         page_link, filters.inputs, show_progress="hidden")
    # One listener for every control (README, "One listener per view").
    gr.on([control.change for control in filters.inputs],
          lambda *values: as_updates(render(*values), rankings), [*filters.inputs, *readings], list(rankings.values()),
          show_progress="hidden", trigger_mode="always_last")
    return filters, rankings


def subset_filter(prefix: str, field: str, label: str) -> gr.CheckboxGroup:
    """The "rank on these groups only" boxes of one breakdown; ticking one writes `<prefix>_on_<field>` in the
    address."""
    boxes = gr.CheckboxGroup(choices=[], value=[], elem_id=f"{prefix}-rank-{field}",
                             label=f"Rank on these groups of {label.lower()} only (their items alone, with their own "
                                   "interval and rank range; none ticked: every item)")
    boxes.change(None, boxes, None, js=FLAGS_URL_SCRIPT.format(param=subset_param(prefix, field),
                                                                separator=LIST_SEPARATOR))
    return boxes


def subset_param(prefix: str, field: str) -> str:
    """The address parameter of the groups a tab's ranking is restricted to (`qa_on_domain=History,Science`)."""
    return f"{prefix}_on_{field}"


def linked_list(query: str | None, param: str, known: Sequence[str]) -> Any:
    """The `known` names a page address's `param` lists (others dropped); an address without it leaves the
    control as it is."""
    link = read_link(query)
    return list(link.listed(param, known)) if link.has(param) else gr.skip()


def item_downloads(prefix: str) -> dict[str, gr.DownloadButton]:
    """One download button per export format for a run's items, in a row, hidden until a model is chosen."""
    with gr.Row():
        return {fmt: gr.DownloadButton(f"All items ({fmt.upper()})", elem_id=f"{prefix}-download-{fmt}", visible=False)
                for fmt in EXPORT_FORMATS}


def search_box(prefix: str, param: str) -> gr.Textbox:
    """The rankings' search box; typing in it writes `param` in the address."""
    search = gr.Textbox(label="Search", placeholder=SEARCH_HELP, elem_id=f"{prefix}-search")
    search.change(None, search, None, js=SEARCH_URL_SCRIPT.format(param=param))
    return search


def flag_filter(prefix: str) -> gr.CheckboxGroup:
    """The rankings' "hide rows flagged" boxes, one per flag (its badge); ticking one writes the address."""
    hide = gr.CheckboxGroup(choices=[(flag.badge, flag.code) for flag in FLAGS.values()], value=[], label=FLAGS_LABEL,
                            elem_id=f"{prefix}-hide-flags")
    hide.change(None, hide, None, js=FLAGS_URL_SCRIPT.format(param=flags_param(prefix), separator=LIST_SEPARATOR))
    return hide


def flags_param(prefix: str) -> str:
    """The address parameter of a tab's flag filter (`qa_hide_flags`)."""
    return f"{prefix}_hide_flags"


def linked_search(query: str | None, param: str) -> Any:
    """The search a page address's `param` holds; an address without it leaves the box as it is."""
    link = read_link(query)
    return link.text(param) if link.has(param) else gr.skip()


def linked_filters(query: str | None, search_param: str, hide_param: str) -> tuple[Any, Any]:
    """The search and the flags hidden a page address holds (unknown flag codes dropped); a filter the address
    does not name is left as it is."""
    link = read_link(query)
    return linked_search(query, search_param), list(link.listed(hide_param, FLAGS)) if link.has(hide_param) else gr.skip()


@dataclass(frozen=True)
class RankingsLayout:
    """How a benchmark's rankings read: its columns on screen (`shown_columns`), their headers, the score links."""

    shown_columns: Callable[[pd.DataFrame], pd.DataFrame]
    labels: Mapping[str, str]
    link: CellLink | None = None


def rankings_view(snapshot: Snapshot, ranking: pd.DataFrame, layout: RankingsLayout, search: str,
                  hidden_flags: Sequence[str], downloads_dir: Path, prefix: str, file_name: str,
                  rule: str = "") -> RankingsView:
    """The rankings' rows whose model matches `search` (all when blank) and that have none of `hidden_flags`,
    ranked ones apart from the others, as `layout` reads them, with a CSV of exactly those rows (every column),
    and `rule`, the line saying what is ranked."""
    hide = tuple(code for code in hidden_flags or () if code in FLAGS)
    shown = ranking[kept_rows(ranking, search or "", hide)] if len(ranking) else ranking
    problems = gr.update(value="\n".join(snapshot.problems), visible=bool(snapshot.problems))
    if snapshot.runs and shown.empty:
        hidden = gr.update(visible=False)
        return RankingsView(hidden, hidden, gr.update(value=None, visible=False), gr.update(visible=True), problems,
                            gr.update(value=rule))
    ranked, unranked = split_standing(layout.shown_columns(shown))
    return RankingsView(
        table=linked_table(ranked, layout.labels, layout.link, visible=True),
        unranked=linked_table(unranked, layout.labels, layout.link, visible=not unranked.empty),
        download=rankings_download(snapshot, shown, downloads_dir, prefix, file_name,
                                   (search or "", hide, rule)),
        no_match=gr.update(visible=False),
        problems=problems,
        rule=gr.update(value=rule),
    )


def kept_rows(ranking: pd.DataFrame, search: str, hide: Sequence[str]) -> pd.Series:
    """Which rows the search and the flags hidden keep (unknown flag codes hide nothing)."""
    hide = tuple(code for code in hide or () if code in FLAGS)
    flagged = ranking["flags"].map(lambda codes: is_hidden(codes, hide)).astype(bool)
    return model_matches(ranking["model"], search) & ~flagged


def rankings_download(snapshot: Snapshot, ranking: pd.DataFrame, downloads_dir: Path, prefix: str,
                      file_name: str, filters: Any = "") -> Any:
    """The download button of the rankings' CSV, written once per state of the results and of the `filters`
    (the search and flags hidden); hidden with no runs."""
    if not snapshot.runs:
        return gr.update(value=None, visible=False)
    version = hashlib.sha256(repr((snapshot.signature, filters)).encode()).hexdigest()[:16]
    csv = export_view_csv(ranking.drop(columns=["run_id"]), downloads_dir, f"{prefix}-{version}", file_name=file_name)
    return gr.update(value=str(csv), visible=True)


def run_downloads(details: pd.DataFrame, downloads_dir: Path, name: str, version: str) -> dict[str, Any]:
    """One run's items in every export format, as download-button updates keyed by format."""
    return {fmt: gr.update(value=str(export_judgments(details, fmt, downloads_dir, name, version)), visible=True)
            for fmt in EXPORT_FORMATS}


def empty_table(columns: Sequence[str], labels: Mapping[str, str]) -> pd.DataFrame:
    """A table with no rows under its real headers (an empty grid would show "1 2 3")."""
    return pd.DataFrame(columns=[labels.get(column, column) for column in columns])


def rounded_table(frame: pd.DataFrame, labels: Mapping[str, str], **props: Any) -> Any:
    """Numbers rounded for reading, headers labelled, text shown as text (`props`: more of the table's settings)."""
    shown = frame.round(PERCENT_DECIMALS).rename(columns=lambda column: labels.get(column, column))
    return gr.update(value=shown, datatype=["number" if pd.api.types.is_numeric_dtype(shown[c]) else "str"
                                            for c in shown.columns], **props)


def linked_table(frame: pd.DataFrame, labels: Mapping[str, str], link: CellLink | None = None, **props: Any) -> Any:
    """`rounded_table` with every number cell `link` gives an address a link to the items behind it (the cell
    stays a number, so the grid sorts it as one), the `flags` cell its badges, and `run_id` (which `link` reads)
    left out of what is shown."""
    rows = frame.to_dict("records")
    shown = frame.drop(columns=["run_id"], errors="ignore").round(PERCENT_DECIMALS)
    numeric = [pd.api.types.is_numeric_dtype(shown[column]) and not pd.api.types.is_bool_dtype(shown[column])
               for column in shown.columns]
    data = [[_plain(cell) for cell in row] for row in shown.itertuples(index=False)]
    texts = [_row_texts(list(shown.columns), values, numeric, row, link) for values, row in zip(data, rows)]
    markdown = {position for position, column in enumerate(shown.columns)
                if column == "flags" or (numeric[position] and any(text.startswith("[") for text in
                                                                   (line[position] for line in texts)))}
    datatypes = ["markdown" if position in markdown else "number" if number else "str"
                 for position, number in enumerate(numeric)]
    value = {"headers": [labels.get(column, column) for column in shown.columns], "data": data,
             "metadata": {"display_value": texts, "styling": None}}
    return gr.update(value=value, datatype=datatypes, **props)


def _plain(cell: Any) -> Any:
    """A cell as JSON carries it: None for a missing value, numpy scalars as Python ones."""
    if cell is None or cell is pd.NA or (isinstance(cell, float) and np.isnan(cell)):
        return None
    return cell.item() if isinstance(cell, np.generic) else cell


def _row_texts(columns: list[str], values: list[Any], numeric: list[bool], row: Mapping[str, Any],
               link: CellLink | None) -> list[str]:
    """How one row's cells read: the flags as badges, a number as the grid writes it (linked where `link` says,
    the row's address carried once: `cell_links.row_links`), text as it is."""
    texts = [_cell_text(column, cell, number) for column, cell, number in zip(columns, values, numeric)]
    if link is None:
        return texts
    addresses = [link(row, column) if number and text else None for column, text, number in zip(columns, texts, numeric)]
    return [linked_markdown(text, address) if address else text for text, address in zip(texts, row_links(addresses))]


def _cell_text(column: str, cell: Any, number: bool) -> str:
    """How one cell reads, unlinked: the flags as badges, a number as the grid writes it, text as it is."""
    if column == "flags":
        return badges_markdown(cell)
    if cell is None:
        return ""
    if not number:
        return str(cell)
    return str(int(cell)) if float(cell).is_integer() else repr(float(cell))  # as the grid writes it: 50, 57.1
