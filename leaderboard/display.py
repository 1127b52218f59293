"""The one display step: labels, rounding, the interval and coverage cells, our own Hub links.

Canonical tables keep full precision and snake_case names; only this module turns them
into what people read. Model ids stay plain text cells; the Hub link sits in its own
markdown column and is built by us, only from an id that is a valid Hub repository id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

HUB_URL = "https://huggingface.co"
DECIMALS = 2
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")

LABELS = {
    "rank": "Rank",
    "model": "Model",
    "hub": "Hub",
    "revision": "Revision",
    "overall": "Overall",
    "overall_ci": "95% CI",
    "indic_average": "Indic avg",
    "drop_code_mixed": "Code-mixed drop %",
    "drop_romanized": "Romanized drop %",
    "coverage": "Coverage (judged/total)",
    "failed_items": "Failed items",
    "missing_responses": "No response",
    "judge_model": "Judge",
    "created_at": "Date",
    "params_b": "Params (B)",
    "precision": "Precision",
}
PINNED_COLUMNS = 3
"""Rank, Model and Hub stay in view while the table scrolls sideways."""


@dataclass(frozen=True)
class DisplayTable:
    """A table ready for gr.Dataframe: labelled, rounded frame and one datatype per column."""

    frame: pd.DataFrame
    datatypes: list[str]


def is_hub_id(model_id: str) -> bool:
    """Whether `model_id` has the shape of a Hub repository id (`org/name`, safe characters only)."""
    return bool(_HUB_ID.match(model_id)) and ".." not in model_id and "--" not in model_id


def hub_link(model_id: str) -> str:
    """A markdown link to the model's Hub page, or "" when the id is not a valid Hub id."""
    return f"[Hub page]({HUB_URL}/{model_id})" if is_hub_id(model_id) else ""


def column_label(column: str) -> str:
    """The label of a canonical column: `config.Hindi` -> `Hindi`, `drop_romanized` -> ..."""
    if column in LABELS:
        return LABELS[column]
    if "." in column:
        return column.split(".", 1)[1].replace("_", " ")
    return column.replace("_", " ").capitalize()


def display_table(view: pd.DataFrame) -> DisplayTable:
    """The leaderboard view as people read it: merged cells, rounded numbers, labels."""
    frame = view.drop(columns=["label"], errors="ignore").copy()
    if "model" in frame:
        frame.insert(frame.columns.get_loc("model") + 1, "hub", frame["model"].astype(str).map(hub_link))
    if {"overall_ci_low", "overall_ci_high"} <= set(frame.columns):
        position = frame.columns.get_loc("overall_ci_low")
        interval = [format_interval(lo, hi) for lo, hi in zip(frame.pop("overall_ci_low"), frame.pop("overall_ci_high"))]
        frame.insert(position, "overall_ci", interval)
    if {"scored_items", "items"} <= set(frame.columns):
        position = frame.columns.get_loc("scored_items")
        coverage = [f"{done}/{total}" for done, total in zip(frame.pop("scored_items"), frame.pop("items"))]
        frame.insert(position, "coverage", coverage)
    if "created_at" in frame:
        frame["created_at"] = frame["created_at"].astype(str).str.slice(0, 10)
    frame = frame.round(DECIMALS)
    datatypes = [_datatype(frame, column) for column in frame.columns]
    return DisplayTable(frame.rename(columns=column_label), datatypes)


def format_interval(low: float | None, high: float | None) -> str:
    """`low – high` rounded for display, or "" when the run has no interval."""
    if low is None or high is None or pd.isna(low) or pd.isna(high):
        return ""
    return f"{low:.{DECIMALS}f} – {high:.{DECIMALS}f}"


def format_score(value: float | None) -> str:
    """A score rounded for display ("–" for none)."""
    return "–" if value is None or pd.isna(value) else f"{value:.{DECIMALS}f}"


def _datatype(frame: pd.DataFrame, column: str) -> str:
    if column == "hub":
        return "markdown"
    return "number" if pd.api.types.is_numeric_dtype(frame[column]) else "str"
