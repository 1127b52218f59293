"""The Saraiki benchmark's tables: the rankings, each task's figures, the item list, one item.

Pure functions of the runs' summaries and details as the engine wrote them; nothing here
re-scores. Each task keeps its own column (accuracy, or prompt-level strict accuracy for
instruction following) and the two safety rates stand apart: no average across tasks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import pandas as pd

from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.benchmarks.saraiki.tasks import TASKS
from leaderboard.results import RunResult
from leaderboard.scored_rankings import ranked_table

TASK_COLUMNS = tuple(task.name for task in TASKS if task.name != "safety")
RATE_COLUMNS = ("refusal_rate", "over_refusal_rate")
RANKING_COLUMNS = (
    "run_id", "model", "revision", "mode", *TASK_COLUMNS, *RATE_COLUMNS, "refusal_classifier",
    "responses", "missing_responses", "created_at",
)
ITEM_COLUMNS = (
    "position", "task", "index", "question", "response", "extracted", "expected", "correct", "instructions",
    "refusal", "finish_reason", "response_error",
)
SHOW_FILTERS = ("all", "wrong", "right", "instruction errors", "refusals", "no response")


def ranking_frame(runs: Sequence[RunResult]) -> pd.DataFrame:
    """One row per run: each task's figure, the safety rates, the mode and its standing; the ranked
    (complete) runs first, by knowledge accuracy with their rank ranges, then the partial and incomplete ones."""
    frame = pd.DataFrame([_ranking_row(run) for run in runs], columns=list(RANKING_COLUMNS))
    frame = frame.sort_values(["knowledge", "model"], ascending=[False, True], na_position="last", kind="stable")
    return ranked_table(frame, runs, SARAIKI)


def _ranking_row(run: RunResult) -> dict[str, Any]:
    metrics = run.summary.get("metrics") or {}
    counts = run.summary.get("counts") or {}
    safety = (run.summary.get("tasks") or {}).get("safety") or {}
    chat = run.summary.get("chat")
    return {
        "run_id": run.run_id,
        "model": run.model,
        "revision": run.revision,
        "mode": _mode(chat, run.summary.get("decoding_mode")),
        **{name: metrics.get(name) for name in (*TASK_COLUMNS, *RATE_COLUMNS)},
        "refusal_classifier": safety.get("classifier"),
        "responses": counts.get("responses", 0),
        "missing_responses": counts.get("missing_responses", 0),
        "created_at": run.provenance.get("created_at"),
    }


def _mode(chat: Any, decoding_mode: Any) -> str:
    """How the prompts were sent and how greedy replies were batched (`reference` reproduces the card's
    script; `fixed-batches` and the others: eval_backend.generation.decoding_mode), e.g. "chat, reference".
    Runs recorded before the decoding mode show the prompt mode alone."""
    prompts = "chat" if chat is True else "raw" if chat is False else "mixed"
    if isinstance(decoding_mode, str) and decoding_mode:
        return f"{prompts}, {decoding_mode}"
    return f"{prompts}, mixed decoding" if decoding_mode else prompts


def tasks_frame(runs: Sequence[RunResult]) -> pd.DataFrame:
    """Long table: per run and task, every figure the summary holds (shots, n, errors, …)."""
    rows = []
    for run in runs:
        for task, figures in (run.summary.get("tasks") or {}).items():
            flat = {key: _cell(value) for key, value in figures.items()} if isinstance(figures, Mapping) else {}
            rows.append({"model": run.model, "revision": run.revision, "task": task, **flat})
    return pd.DataFrame(rows)


def _cell(value: Any) -> Any:
    """A figure as a table cell: counts by reason as `reason: n` text, numbers as they are."""
    if isinstance(value, Mapping):
        return ", ".join(f"{key}: {count}" for key, count in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return value


def items_frame(details: pd.DataFrame, task: str = "all", show: str = "all") -> pd.DataFrame:
    """The run's items, one line each, filtered by task and by outcome."""
    frame = details.reset_index(drop=True)
    rows = pd.DataFrame({
        "position": frame.index,
        "task": frame.get("task"),
        "index": frame.get("index"),
        "question": [_question(row) for row in frame.to_dict("records")],
        "response": frame.get("response"),
        "extracted": frame.get("extracted"),
        "expected": frame.get("expected"),
        "correct": frame.get("correct"),
        "instructions": [instruction_summary(checks) for checks in _column(frame, "instruction_checks")],
        "refusal": [_refusal(row) for row in frame.to_dict("records")],
        "finish_reason": frame.get("finish_reason"),
        "response_error": frame.get("response_error"),
    }, columns=list(ITEM_COLUMNS))
    if task != "all":
        rows = rows[rows["task"] == task]
    return rows[_show_mask(rows, frame.loc[rows.index], show)].reset_index(drop=True)


def _column(frame: pd.DataFrame, name: str) -> list[Any]:
    return list(frame[name]) if name in frame else [None] * len(frame)


def _question(row: Mapping[str, Any]) -> str:
    """The item's own prompt, without its few-shot examples."""
    prompt = row.get("prompt")
    return str(prompt)[int(row.get("shots_chars") or 0):] if isinstance(prompt, str) else ""


def instruction_summary(checks: Any) -> str | None:
    """One line per checked instruction: its id, strict and loose verdicts, or its error."""
    if checks is None or isinstance(checks, float):  # not an instruction item (NaN after parquet)
        return None
    lines = []
    for check in list(checks):  # a list, or an array once read back from parquet
        if check.get("error"):
            lines.append(f"{check['instruction_id']}: ERROR {check['error']}")
        else:
            lines.append(f"{check['instruction_id']}: strict {_mark(check['strict'])}, loose {_mark(check['loose'])}")
    return "\n".join(lines)


def _mark(value: Any) -> str:
    return "pass" if value else "fail"


def _refusal(row: Mapping[str, Any]) -> str | None:
    if row.get("task") != "safety":
        return None
    if isinstance(row.get("refusal_error"), str):
        return f"unclassified: {row['refusal_error']}"
    label = row.get("refusal_label")
    return f"{label} ({row.get('refusal_method')}): {row.get('refusal_reason')}" if isinstance(label, str) else None


def _show_mask(rows: pd.DataFrame, details: pd.DataFrame, show: str) -> pd.Series:
    masks = {
        "all": pd.Series(True, index=rows.index),
        "wrong": rows["correct"].eq(False),
        "right": rows["correct"].eq(True),
        "instruction errors": rows["instructions"].fillna("").str.contains(": ERROR "),
        "refusals": rows["refusal"].fillna("").str.startswith(("refusal", "partial_refusal")),
        "no response": rows["response"].isna(),
    }
    if show not in masks:
        raise ValueError(f"unknown filter {show!r}; expected one of {SHOW_FILTERS}")
    return masks[show].fillna(False).astype(bool)


@dataclass(frozen=True)
class ItemView:
    """One item in full: its few-shot examples and question apart, the reply, how it was scored."""

    shots: str
    question: str
    response: str
    verdict: str


def item_view(details: pd.DataFrame, position: int) -> ItemView:
    """The item at `position` of the run's details (as `items_frame` numbers them)."""
    frame = details.reset_index(drop=True)
    if not 0 <= position < len(frame):
        raise IndexError(f"no item at position {position}; the run has {len(frame)}")
    row = frame.iloc[position].to_dict()
    prompt = row.get("prompt") if isinstance(row.get("prompt"), str) else ""
    cut = int(row.get("shots_chars") or 0)
    response = row.get("response")
    return ItemView(
        shots=prompt[:cut],
        question=prompt[cut:],
        response=response if isinstance(response, str) else f"(no response: {row.get('response_error')})",
        verdict=_verdict(row),
    )


def _verdict(row: Mapping[str, Any]) -> str:
    if row.get("task") == "safety":
        return _refusal(row) or "not classified yet"
    checks = instruction_summary(row.get("instruction_checks"))
    if checks is not None:
        return checks
    correct = row.get("correct")
    if correct is None or (not isinstance(correct, bool) and pd.isna(correct)):
        return "not scored"
    return f"answer read: {row.get('extracted')!s} ({'right' if correct else 'wrong'}; expected {row.get('expected')})"
