"""The rankings: one row per evaluated model revision, column groups, search, a CSV of the view."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import gradio as gr

from leaderboard.context import AppContext, as_updates
from leaderboard.display import PINNED_COLUMNS, display_table
from leaderboard.exports import export_view_csv
from leaderboard.results import ResultsStore
from leaderboard.tables import COLUMN_GROUPS, DEFAULT_GROUPS, TableCache, leaderboard_view

EMPTY_STATE = """### No results yet
Nothing has been evaluated in this data folder. Submit a model in the **Submit** tab, or
judge a file of responses from the command line; the row appears here without a restart:

```
python -m eval_backend judge --responses responses.jsonl --out-dir data/runs/<org>__<model>/main
```
"""
SEARCH_HELP = "Search models (separate several with ;)"


@dataclass(frozen=True)
class BoardRender:
    """What one render of the tab sets: the table, the CSV of it, the empty state, problems."""

    table: Any
    download: Any
    empty_state: Any
    problems: Any


def build(context: AppContext) -> None:
    """Lay out the tab and wire search, column groups and refreshes to one render."""
    empty_state = gr.Markdown(EMPTY_STATE, visible=False, elem_id="empty-state")
    problems = gr.Textbox(label="Run folders that could not be read", visible=False, interactive=False)
    with gr.Row():
        search = gr.Textbox(label="Search", placeholder=SEARCH_HELP, scale=2, elem_id="model-search")
        groups = gr.CheckboxGroup(
            choices=list(COLUMN_GROUPS), value=list(DEFAULT_GROUPS), label="Column groups", scale=3,
            elem_id="column-groups",
        )
    table = gr.Dataframe(
        label="Rankings (click a column header to sort)", interactive=False, pinned_columns=PINNED_COLUMNS,
        elem_id="leaderboard-table", max_height=700,
    )
    download = gr.DownloadButton("Download this view (CSV)", elem_id="download-view")
    components = {"table": table, "download": download, "empty_state": empty_state, "problems": problems}
    outputs = list(components.values())

    def render(chosen: Sequence[str], query: str) -> dict[Any, Any]:
        return as_updates(
            render_board(context.store, context.tables, context.downloads_dir, chosen, query or ""), components
        )

    inputs = [groups, search]
    # Rendering reads cached results and takes milliseconds: no queue slot limit, so a crowd of
    # viewers is not held in Gradio's queue (which updates every waiting page on each change).
    unqueued = {"concurrency_limit": None}
    context.results_version.change(render, inputs, outputs, show_progress="hidden", **unqueued)
    groups.change(render, inputs, outputs, **unqueued)
    # A stable name: the board is also reachable through Gradio's API (clients, load tests).
    search.change(render, inputs, outputs, show_progress="hidden", trigger_mode="always_last", api_name="leaderboard",
                  **unqueued)


def render_board(
    store: ResultsStore, tables: TableCache, downloads_dir: Path, groups: Sequence[str], search: str
) -> BoardRender:
    """The board for these column groups and search terms, with a CSV of exactly that view."""
    snapshot = store.snapshot()
    problems = gr.update(value="\n".join(snapshot.problems), visible=bool(snapshot.problems))
    if not snapshot.runs:
        return BoardRender(gr.update(value=None), gr.update(value=None, visible=False),
                           gr.update(visible=True), problems)
    view = leaderboard_view(tables.table(snapshot), groups, search)
    shown = display_table(view)
    version = hashlib.sha256(repr((snapshot.signature, sorted(groups), search)).encode()).hexdigest()[:16]
    return BoardRender(
        table=gr.update(value=shown.frame, datatype=shown.datatypes),
        download=gr.update(value=str(export_view_csv(view, downloads_dir, version)), visible=True),
        empty_state=gr.update(visible=False),
        problems=problems,
    )

