"""The parts of a scored benchmark's tab (`benchmark_tab`): the rankings (ranked runs, then the partial and
incomplete ones under them), their search and CSV, the run folders that could not be read, a run's downloads,
rounded tables, empty tables with their real headers.

Percentages are shown to one decimal, as the benchmarks' own scripts print them; the downloads
keep full precision. The rankings' search works as the WritingBench board's (`;` separates
several models), its CSV is the rows on screen, and the page's address carries the search.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import gradio as gr
import pandas as pd

from leaderboard.context import as_updates
from leaderboard.display import PERCENT_DECIMALS
from leaderboard.exports import EXPORT_FORMATS, export_judgments, export_view_csv
from leaderboard.results import Snapshot
from leaderboard.page_link import read_link
from leaderboard.scored_rankings import split_standing
from leaderboard.tables import model_matches
from leaderboard.tabs.leaderboard_tab import SEARCH_HELP

NO_MATCH = "**No models match** the search. Clear the search box, or separate several models with `;`."
"""What the rankings say in place of an empty table when the search keeps no model."""
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


@dataclass(frozen=True)
class RankingsView:
    """One render of the rankings: the ranked rows the search keeps, the unranked ones under them, their
    CSV, the note when none is kept, and the run folders that could not be read."""

    table: Any
    unranked: Any
    download: Any
    no_match: Any
    problems: Any


def rankings_section(prefix: str, page_link: gr.Textbox | None, param: str,
                     render: Callable[[str], RankingsView], empty: pd.DataFrame) -> tuple[gr.Textbox, dict[str, Any]]:
    """The rankings' search box, "no match" note, ranked and unranked tables, CSV button and unreadable run
    folders (all but the search keyed as `RankingsView`); `empty` is the ranked table before any run.

    Typing a search re-renders the rankings alone through `render`; the tab renders them with the rest
    of its board when the results change.
    """
    search = search_box(prefix, page_link, param)
    rankings = {
        "no_match": gr.Markdown(NO_MATCH, visible=False, elem_id=f"{prefix}-no-match"),
        "table": gr.Dataframe(empty, label=RANKINGS_LABEL, interactive=False, elem_id=f"{prefix}-table",
                              elem_classes=[RANKED_CLASS]),
        "unranked": gr.Dataframe(label=UNRANKED_LABEL, interactive=False, elem_id=f"{prefix}-unranked",
                                 visible=False, elem_classes=[UNRANKED_CLASS]),
        "download": gr.DownloadButton("Download this table (CSV)", elem_id=f"{prefix}-download-view", visible=False),
        "problems": gr.Textbox(label=PROBLEMS_LABEL, interactive=False, visible=False, elem_id=f"{prefix}-problems"),
    }
    search.change(lambda terms: as_updates(render(terms), rankings), [search], list(rankings.values()),
                  show_progress="hidden", trigger_mode="always_last")
    return search, rankings


def item_downloads(prefix: str) -> dict[str, gr.DownloadButton]:
    """One download button per export format for a run's items, in a row, hidden until a model is chosen."""
    with gr.Row():
        return {fmt: gr.DownloadButton(f"All items ({fmt.upper()})", elem_id=f"{prefix}-download-{fmt}", visible=False)
                for fmt in EXPORT_FORMATS}


def search_box(prefix: str, page_link: gr.Textbox | None, param: str) -> gr.Textbox:
    """The rankings' search box; a link's `param` fills it, and typing in it writes `param` in the address."""
    search = gr.Textbox(label="Search", placeholder=SEARCH_HELP, elem_id=f"{prefix}-search")
    if page_link is not None:
        page_link.change(lambda query: linked_search(query, param), page_link, search, show_progress="hidden")
    search.change(None, search, None, js=SEARCH_URL_SCRIPT.format(param=param))
    return search


def linked_search(query: str | None, param: str) -> Any:
    """The search a page address's `param` holds; an address without it leaves the box as it is."""
    link = read_link(query)
    return link.text(param) if link.has(param) else gr.skip()


def rankings_view(snapshot: Snapshot, ranking: pd.DataFrame, shown_columns: Callable[[pd.DataFrame], pd.DataFrame],
                  labels: Mapping[str, str], search: str, downloads_dir: Path, prefix: str,
                  file_name: str) -> RankingsView:
    """The rankings' rows whose model matches `search` (all when blank), ranked ones apart from the others,
    as `shown_columns` lays them out, with a CSV of exactly those rows (every column)."""
    shown = ranking[model_matches(ranking["model"], search or "")] if len(ranking) else ranking
    problems = gr.update(value="\n".join(snapshot.problems), visible=bool(snapshot.problems))
    if snapshot.runs and shown.empty:
        hidden = gr.update(visible=False)
        return RankingsView(hidden, hidden, gr.update(value=None, visible=False), gr.update(visible=True), problems)
    ranked, unranked = split_standing(shown_columns(shown))
    return RankingsView(
        table=rounded_table(ranked, labels, visible=True),
        unranked=rounded_table(unranked, labels, visible=not unranked.empty),
        download=rankings_download(snapshot, shown, downloads_dir, prefix, file_name, search or ""),
        no_match=gr.update(visible=False),
        problems=problems,
    )


def rankings_download(snapshot: Snapshot, ranking: pd.DataFrame, downloads_dir: Path, prefix: str,
                      file_name: str, search: str = "") -> Any:
    """The download button of the rankings' CSV, written once per state of the results and search; hidden with
    no runs."""
    if not snapshot.runs:
        return gr.update(value=None, visible=False)
    version = hashlib.sha256(repr((snapshot.signature, search)).encode()).hexdigest()[:16]
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
