"""Per-item judgment views over a run's details table (details.parquet): pure, no I/O."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

import pandas as pd

from eval_backend.benchmarks.writing_bench.items import BANDS

ITEM_COLUMNS = ["config", "index", "status", "item_score", "language", "variant", "domain", "subdomain", "prompt"]
FILTER_FIELDS = ("language", "variant", "domain", "subdomain")
CRITERIA_COLUMNS = ["criterion", "score", "reason", "error", "description", *BANDS]


@dataclass(frozen=True)
class ItemFilter:
    """Which items to list: one value per field (None: any) and an item-score range.

    Items without a score (failed, pending, no response) are listed only when
    `include_unscored` is set, since no score range can hold them.
    """

    language: str | None = None
    variant: str | None = None
    domain: str | None = None
    subdomain: str | None = None
    score_min: float = 0.0
    score_max: float = 10.0
    include_unscored: bool = True


@dataclass(frozen=True)
class JudgmentView:
    """One item of one run as the judge saw it: the response, its reasoning and each criterion."""

    config: str
    index: int
    status: str
    item_score: float | None
    response: str
    reasoning: str
    response_error: str
    criteria: pd.DataFrame


def judgment_items(details: pd.DataFrame) -> pd.DataFrame:
    """The run's items, one row each, in (config, index) order."""
    return details[ITEM_COLUMNS].sort_values(["config", "index"], kind="stable").reset_index(drop=True)


def filter_choices(items: pd.DataFrame) -> dict[str, list[str]]:
    """The values each filter field can take in these items."""
    return {name: sorted(items[name].dropna().astype(str).unique()) for name in FILTER_FIELDS}


def filter_items(items: pd.DataFrame, chosen: ItemFilter) -> pd.DataFrame:
    """The items that pass every field filter and the score range."""
    keep = pd.Series(True, index=items.index)
    for name in FILTER_FIELDS:
        value = getattr(chosen, name)
        if value:
            keep &= items[name] == value
    score = items["item_score"]
    in_range = score.between(chosen.score_min, chosen.score_max)
    keep &= in_range | (score.isna() & chosen.include_unscored)
    return items[keep].reset_index(drop=True)


def judgment_view(details: pd.DataFrame, config: str, index: int) -> JudgmentView | None:
    """The item (config, index) of this run, or None when the run does not have it."""
    rows = details[(details["config"] == config) & (details["index"] == index)]
    if rows.empty:
        return None
    row = rows.iloc[0].to_dict()
    return JudgmentView(
        config=config,
        index=int(index),
        status=str(row["status"]),
        item_score=None if pd.isna(row["item_score"]) else float(row["item_score"]),
        response=_text(row.get("response")),
        reasoning=_text(row.get("reasoning")),
        response_error=_text(row.get("response_error")),
        criteria=criteria_table(row),
    )


def criteria_table(row: Mapping[str, Any]) -> pd.DataFrame:
    """One row per criterion: its name, description, score, the judge's reason and the rubric bands."""
    checklist = json.loads(row.get("checklist") or "[]")
    rows = []
    number = 1
    while f"criterion_{number}" in row:
        entry = checklist[number - 1] if number - 1 < len(checklist) else {}
        score = row.get(f"score_{number}")
        rows.append({
            "criterion": _text(row.get(f"criterion_{number}")),
            "description": _text(entry.get("criteria_description")),
            "score": None if score is None or pd.isna(score) else int(score),
            "reason": _text(row.get(f"reason_{number}")),
            "error": _text(row.get(f"error_{number}")),
            **{band: _text(entry.get(band)) for band in BANDS},
        })
        number += 1
    return pd.DataFrame(rows, columns=CRITERIA_COLUMNS)


def _text(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
