"""The QA benchmark's tables: rankings, per-language and per-domain breakdowns, the item list.

Pure functions of the runs' summaries and details as the engine wrote them; nothing here
re-scores. Canonical snake_case columns; labels are the tab's display step.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import pandas as pd

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from leaderboard.results import RunResult
from leaderboard.scored_rankings import ranked_table

METRIC_COLUMNS = ("judge", "exact", "overlap", "blank_responses", "overlap_only", "n")
RANKING_COLUMNS = ("run_id", "model", "revision", *METRIC_COLUMNS, "failed_judgments", "judge_model", "created_at")
BREAKDOWN_GROUPS = {"language": "by_language", "domain": "by_domain"}
ITEM_COLUMNS = (
    "config", "index", "domain", "question", "answer", "response", "exact_correct", "overlap_correct",
    "matching_words", "total_golden_words", "agreement", "blank_response", "judge_correct", "judge_reason",
    "judge_error", "reasoning", "finish_reason", "response_error",
)
VERDICT_FILTERS = ("all", "judge wrong", "judge right", "overlap only", "exact only", "blank", "judge failed")


def ranking_frame(runs: Sequence[RunResult]) -> pd.DataFrame:
    """One row per run: the pooled metrics and its standing; the ranked (complete) runs first, by judge
    accuracy (then exact substring) with their rank ranges, then the partial and incomplete ones."""
    rows = [_ranking_row(run) for run in runs]
    frame = pd.DataFrame(rows, columns=list(RANKING_COLUMNS))
    frame = frame.sort_values(["judge", "exact"], ascending=False, na_position="last", kind="stable")
    return ranked_table(frame, runs, INDIC_QA)


def _ranking_row(run: RunResult) -> dict[str, Any]:
    metrics = run.summary.get("metrics") or {}
    counts = run.summary.get("counts") or {}
    return {
        "run_id": run.run_id,
        "model": run.model,
        "revision": run.revision,
        **{name: metrics.get(name) for name in METRIC_COLUMNS},
        "failed_judgments": counts.get("failed_judgments", 0),
        "judge_model": run.provenance.get("judge_model"),
        "created_at": run.provenance.get("created_at"),
    }


def breakdown_frame(runs: Sequence[RunResult], group: str) -> pd.DataFrame:
    """Long table: per run and per language (or domain), exact %, overlap %, judge %, blanks, overlap only."""
    key = BREAKDOWN_GROUPS[group]
    rows = []
    for run in runs:
        for name, entry in (run.summary.get(key) or {}).items():
            metrics = entry.get("metrics") or {} if isinstance(entry, Mapping) else {}
            rows.append({"model": run.model, "revision": run.revision, group: name,
                         **{column: metrics.get(column) for column in METRIC_COLUMNS}})
    return pd.DataFrame(rows, columns=["model", "revision", group, *METRIC_COLUMNS])


def language_matrix(runs: Sequence[RunResult], metric: str = "judge") -> pd.DataFrame:
    """Models x languages of one metric (rows in ranking order), for the heatmap."""
    long = breakdown_frame(runs, "language")
    if long.empty:
        return pd.DataFrame()
    order = list(dict.fromkeys(ranking_frame(runs)["model"]))
    matrix = long.pivot_table(index="model", columns="language", values=metric, aggfunc="first", dropna=False)
    return matrix.reindex([model for model in order if model in matrix.index])


def items_frame(details: pd.DataFrame, language: str | None = None, verdict: str = "all") -> pd.DataFrame:
    """The run's items with each verdict and the judge's reason, filtered by language and verdict."""
    frame = details.reindex(columns=list(ITEM_COLUMNS))
    if language and language != "all":
        frame = frame[frame["config"] == language]
    return frame[_verdict_mask(frame, verdict)].reset_index(drop=True)


def _verdict_mask(frame: pd.DataFrame, verdict: str) -> pd.Series:
    judge = frame["judge_correct"]
    masks = {
        "all": pd.Series(True, index=frame.index),
        "judge wrong": judge.eq(False),
        "judge right": judge.eq(True),
        "overlap only": frame["agreement"].eq("overlap_only"),
        "exact only": frame["agreement"].eq("exact_only"),
        "blank": frame["blank_response"].eq(True),
        "judge failed": frame["judge_error"].notna(),
    }
    if verdict not in masks:
        raise ValueError(f"unknown verdict filter {verdict!r}; expected one of {VERDICT_FILTERS}")
    return masks[verdict].fillna(False).astype(bool)
