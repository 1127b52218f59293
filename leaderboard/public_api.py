"""The board's documented API: `/leaderboard` (the rankings for a search and filters) and `/judgments` (one run's
items), named parameters in, plain JSON records out, as `gradio_client`'s `view_api()` describes them.

    from gradio_client import Client
    board = Client("http://127.0.0.1:7860/").predict(search="sarvam", languages=["Hindi"], api_name="/leaderboard")
    for run in board["runs"]:
        print(run["rank"], run["model"], run["subset_average"])

The parameters are the board's controls, named after them (the address's `q` is `search`, `langs` is
`languages`); each is checked by `leaderboard.endpoint_inputs` before any work, with the page's own bounds.
The page's own events stay callable, undocumented: their answers are component updates, not records.
"""

# No `from __future__ import annotations`: Gradio reads the endpoints' return types from their signatures as
# objects, and a string annotation would be described as `Any`.
import json
from typing import Any, Literal, TypedDict

import gradio as gr
import pandas as pd

from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS, VARIANTS
from leaderboard.context import AppContext
from leaderboard.endpoint_inputs import InvalidInput, echo, refusing_bad_input, text
from leaderboard.results import UnknownRunError
from leaderboard.row_flags import FLAGS
from leaderboard.tabs.leaderboard_tab import board_query, board_view
from leaderboard.writing_bench_tables import COLUMN_GROUPS, MODEL_TYPES

API_CONCURRENCY = 4
"""Calls of one documented endpoint computed at once; more wait in Gradio's queue (each may build a whole view)."""

Language = Literal[tuple(INDIC_CONFIGS)]  # type: ignore[valid-type]  # the names view_api() lists as allowed
Variant = Literal[tuple(VARIANTS)]  # type: ignore[valid-type]
ModelType = Literal[tuple(MODEL_TYPES)]  # type: ignore[valid-type]
Flag = Literal[tuple(FLAGS)]  # type: ignore[valid-type]


class Board(TypedDict):
    """`/leaderboard`'s answer: one record per run the query keeps (ranked ones first, in the board's order),
    the run folders that could not be read, and when the newest result was written."""

    runs: list[dict[str, Any]]
    problems: list[str]
    updated: str


class Judgments(TypedDict):
    """`/judgments`' answer: the run and one record per item (config, index, status, item_score, ...)."""

    run_id: str
    model: str
    revision: str
    items: list[dict[str, Any]]


def register(context: AppContext) -> None:
    """Add the documented endpoints to the Blocks being built (call inside it)."""

    @refusing_bad_input
    def leaderboard(search: str = "", languages: list[Language] | None = None, variants: list[Variant] | None = None,
                    sort: str = "rank", min_params_b: float | None = None, max_params_b: float | None = None,
                    model_type: ModelType = "all", ranked_only: bool = False, licenses: list[str] | None = None,
                    open_weights_only: bool = False, hide_flags: list[Flag] | None = None) -> Board:
        """The board's rankings for a search and filters, as records with every column the board has.

        Args:
            search: model ids containing any of these terms (separated by ;), case-insensitive
            languages: rank on the mean of these languages only (none: all 11, the standard ranking)
            variants: rank on these prompt renderings only (none: every rendering)
            sort: the column to sort by, best first (rank: the ranking)
            min_params_b: smallest model size, in billions of parameters (none: no bound)
            max_params_b: largest model size, in billions of parameters (none: no bound)
            model_type: the model type the request recorded (all: any)
            ranked_only: leave out partial and incomplete runs
            licenses: keep runs with one of these licenses (none: any)
            open_weights_only: keep runs whose weights are public on the Hub
            hide_flags: leave out runs flagged with any of these codes
        """
        query = board_query(search, languages, sort, min_params_b, max_params_b, model_type, ranked_only, licenses,
                            open_weights_only, variants, hide_flags)
        snapshot = context.store.snapshot()
        view = board_view(context.tables.table(snapshot), COLUMN_GROUPS, query) if snapshot.runs else pd.DataFrame()
        return Board(runs=records(view), problems=list(snapshot.problems), updated=last_written(view))

    @refusing_bad_input
    def judgments(run_id: str) -> Judgments:
        """One run's items as the board lists them in Judgments, with their scores.

        Args:
            run_id: the run, as `<org>__<name>/<revision>` (the `run_id` of a `/leaderboard` record)
        """
        chosen = text(run_id, "run_id")
        try:
            run = context.store.run(chosen)
            details = context.store.details(chosen)
        except UnknownRunError:
            raise InvalidInput(f"No evaluated run {echo(chosen)}: choose one from the list.") from None
        return Judgments(run_id=run.run_id, model=run.model, revision=run.revision,
                         items=records(_judgment_items(details)))

    gr.api(leaderboard, api_name="leaderboard", concurrency_limit=API_CONCURRENCY)
    gr.api(judgments, api_name="judgments", concurrency_limit=API_CONCURRENCY)


JUDGMENT_COLUMNS = ["config", "index", "status", "item_score", "language", "variant", "domain", "subdomain", "prompt"]
"""`/judgments`' columns of each item (details.parquet's)."""


def _judgment_items(details: pd.DataFrame) -> pd.DataFrame:
    return details[JUDGMENT_COLUMNS].sort_values(["config", "index"], kind="stable").reset_index(drop=True)


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """`frame`'s rows as JSON records: a missing value is null, a time ISO 8601, numbers plain."""
    if frame.empty:
        return []
    return json.loads(frame.to_json(orient="records", date_format="iso", force_ascii=False))


def last_written(view: pd.DataFrame) -> str:
    """When the newest result of `view` was written, ISO 8601 (UTC), or "" for none."""
    stamps = pd.to_datetime(view.get("created_at"), errors="coerce", utc=True).dropna() if not view.empty else None
    return "" if stamps is None or stamps.empty else stamps.max().isoformat()
