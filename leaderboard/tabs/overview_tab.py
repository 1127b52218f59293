"""All benchmarks, one click from the ranking: each model's headline and rank on every benchmark, side by side."""

from __future__ import annotations

from typing import Any

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.benchmark_ranks import board_ranks
from leaderboard.board_file import BoardFile
from leaderboard.context import AppContext
from leaderboard.display import decimals_of, format_rank_range, linked_markdown, short_revision
from leaderboard.model_links import model_address
from leaderboard.overview import headline_column, overview_frame, rank_column
from leaderboard.tabs.scored_tab_parts import empty_table

OTHER_REVISION = "↳ same model, revision"
"""The model cell of a model's second and later revisions (listed under its first)."""


def note() -> str:
    """What the table shows, for every benchmark in the registry when the app is built."""
    return ("Each benchmark's own headline, in its own unit: "
            + "; ".join(f"**{b.title}**: {b.headline_metric().label} ({b.headline_metric().unit})"
                        for b in BENCHMARKS.values())
            + ". Scores of different kinds are never averaged into one number; a blank means not evaluated on that "
            "benchmark (or not ranked there). A rank reads `rank (range)`: the ranks its 95 % interval allows. "
            "A model's revisions are listed together; its name opens its page, with every benchmark's detail.")


def build(context: AppContext) -> None:
    """The side-by-side table, refreshed with the results."""
    gr.Markdown(note())
    # Its real headers from the start (an empty grid would show "1 2 3"), as a render with no runs shows them.
    headers = ["Model", "Revision", *(headline_column(b) for b in BENCHMARKS.values()),
               *(rank_column(b) for b in BENCHMARKS.values())]
    table = gr.Dataframe(empty_table(headers, {}), interactive=False, elem_id="overview-table",
                         max_height=640, wrap=True)
    context.results_version.change(lambda: render_overview(context), None, table, show_progress="hidden",
                                   concurrency_limit=None)
    board = gr.DownloadButton("Download the whole board (parquet)", elem_id="board-download", size="sm")
    board_file = BoardFile(context.settings)
    context.results_version.change(lambda: board_file.current(context), None, board, show_progress="hidden")


def render_overview(context: AppContext) -> Any:
    """The table for every benchmark's current runs, as text: scores to 2 decimals, percentages to 1, ranks."""
    runs = {name: store.snapshot().runs for name, store in context.stores.items()}
    frame = overview_frame(runs)
    ranks = {name: _rank_texts(board_ranks(context, name)) for name in runs}
    keys = [(model.lower(), revision) for model, revision in zip(frame["model"], frame["revision"])]
    models = frame["model"].str.lower()
    # The registry as it is now: a benchmark may be registered after this module is imported (the test-only toy).
    units = {headline_column(b): b.headline_metric().unit for b in BENCHMARKS.values()}
    shown = pd.DataFrame({
        # The model's name links its page at this revision; a later revision is marked as the same model's.
        "Model": [linked_markdown(OTHER_REVISION if repeated else model, model_address(model, revision), model)
                  for model, revision, repeated in zip(frame["model"], frame["revision"], models.duplicated())],
        "Revision": [short_revision(revision) for revision in frame["revision"]],
        # Blank when not evaluated; each figure with its unit's decimals.
        **{column: ["" if pd.isna(value) else f"{value:.{decimals_of(units[column])}f}" for value in frame[column]]
           for column in frame.columns[2:]},
        **{rank_column(BENCHMARKS[name]): [ranks[name].get(key, "") for key in keys] for name in runs},
    })
    return gr.update(value=shown, datatype=["markdown"] + ["str"] * (len(shown.columns) - 1))


def _rank_texts(ranks: pd.DataFrame) -> dict[tuple[str, str], str]:
    """Each ranked run's `rank (best–worst)` (the rank alone when its range is that rank), by (model lowercased,
    revision)."""
    ranked = ranks[ranks["rank"].notna()]
    return {(str(model).lower(), str(revision)): _rank_text(rank, format_rank_range(best, worst))
            for model, revision, rank, best, worst in zip(ranked["model"], ranked["revision"], ranked["rank"],
                                                          ranked["rank_best"], ranked["rank_worst"])}


def _rank_text(rank: object, span: str) -> str:
    return str(int(rank)) if span == str(int(rank)) else f"{int(rank)} ({span})"
