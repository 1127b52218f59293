"""The seed's CSV files: responses in (`question`, `answer`, `Domain`, `response`), verdicts out.

Every cell is read as text exactly as written: no NA conversion (a cell reading `NA` or
`None` is that text, an empty cell is ""), no stripping, so golden answers keep their
whitespace as the seed's scripts keep it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pandas as pd

from eval_backend.benchmarks.qa.records import QaJudgment, QaRow, QaVerdict
from eval_backend.responses_input import ResponsesInputError

SCORED_COLUMNS = ("exact_correct", "overlap_correct", "matching_words", "total_golden_words", "blank_response")
JUDGE_COLUMNS = ("judge_correct", "judge_reason")


@dataclass(frozen=True)
class ResponsesTable:
    """A responses CSV as read: the table with every input column, and its rows as records."""

    frame: pd.DataFrame
    rows: tuple[QaRow, ...]


def read_responses_csv(path: Path, *, need_question: bool, limit: int | None = None) -> ResponsesTable:
    """The first `limit` rows (all when None) of a responses CSV, every cell as text.

    Raises ResponsesInputError naming the file (and the column) when it cannot be read or
    lacks `answer`, `Domain` or `response` (or `question`, which only the judge reads).
    """
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False, nrows=limit)
    except (OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise ResponsesInputError(f"{path}: cannot read the responses CSV: {exc}") from exc
    required = ("question", "answer", "Domain", "response") if need_question else ("answer", "Domain", "response")
    missing = [column for column in required if column not in frame.columns]
    if missing:
        found = ", ".join(map(repr, frame.columns)) or "none"
        raise ResponsesInputError(f"{path}: missing column {', '.join(map(repr, missing))} (columns found: {found})")
    questions = frame["question"] if need_question else [""] * len(frame)
    rows = tuple(
        QaRow(question=q, answer=a, domain=d, response=r)
        for q, a, d, r in zip(questions, frame["answer"], frame["Domain"], frame["response"], strict=True)
    )
    return ResponsesTable(frame, rows)


def scored_frame(
    table: ResponsesTable, verdicts: Sequence[QaVerdict], judgments: Sequence[QaJudgment] | None = None
) -> pd.DataFrame:
    """Every input column plus the verdict columns (and the judge's with `judgments`).

    Booleans are Python bools, so the CSV reads `True` / `False`; a failed judgment leaves
    `judge_correct` empty and puts its error in `judge_reason`.
    """
    frame = table.frame.copy()
    for column in SCORED_COLUMNS:
        frame[column] = [getattr(verdict, column) for verdict in verdicts]
    if judgments is not None:
        frame["judge_correct"] = pd.Series([j.correct for j in judgments], index=frame.index, dtype=object)
        frame["judge_reason"] = [judgment.reason for judgment in judgments]
    return frame
