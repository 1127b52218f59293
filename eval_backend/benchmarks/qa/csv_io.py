"""The seed's CSV files: responses in (`question`, `answer`, `Domain`, `response`), verdicts out.

Every cell is read as text exactly as written (`eval_backend.text_csv`, the reader the
dataset loader uses for CSV configs too): no NA conversion, no type inference, no
stripping, so golden answers keep their whitespace as the seed's scripts keep it.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from eval_backend.benchmarks.qa.records import QaJudgment, QaRow, QaVerdict
from eval_backend.responses_input import ResponsesInputError
from eval_backend.text_csv import CsvReadError, TextCsv, read_text_csv

SCORED_COLUMNS = ("exact_correct", "overlap_correct", "matching_words", "total_golden_words", "blank_response")
JUDGE_COLUMNS = ("judge_correct", "judge_reason")


@dataclass(frozen=True)
class ResponsesTable:
    """A responses CSV as read: every input column, and its rows as records."""

    csv: TextCsv
    rows: tuple[QaRow, ...]


def read_responses_csv(path: Path, *, need_question: bool, limit: int | None = None) -> ResponsesTable:
    """The first `limit` rows (all when None) of a responses CSV, every cell as text.

    Raises ResponsesInputError naming the file (and the column or row) when it cannot be read
    or lacks `answer`, `Domain` or `response` (or `question`, which only the judge reads).
    """
    try:
        table = read_text_csv(path, limit)
    except CsvReadError as exc:
        raise ResponsesInputError(f"{exc.source}: cannot read the responses CSV: {exc.reason}") from exc
    required = ("question", "answer", "Domain", "response") if need_question else ("answer", "Domain", "response")
    missing = [column for column in required if column not in table.header]
    if missing:
        found = ", ".join(map(repr, table.header)) or "none"
        raise ResponsesInputError(f"{path}: missing column {', '.join(map(repr, missing))} (columns found: {found})")
    questions = table.column("question") if need_question else [""] * len(table.rows)
    rows = tuple(
        QaRow(question=q, answer=a, domain=d, response=r)
        for q, a, d, r in zip(questions, table.column("answer"), table.column("Domain"), table.column("response"),
                              strict=True)
    )
    return ResponsesTable(table, rows)


def write_scored_csv(
    path: Path, table: ResponsesTable, verdicts: Sequence[QaVerdict], judgments: Sequence[QaJudgment] | None = None
) -> None:
    """Every input column plus the verdict columns (and the judge's with `judgments`), as CSV.

    Booleans read `True` / `False`; a failed judgment leaves `judge_correct` empty and puts
    its error in `judge_reason`.
    """
    header = [*table.csv.header, *SCORED_COLUMNS, *(JUDGE_COLUMNS if judgments is not None else ())]
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        for number, (cells, verdict) in enumerate(zip(table.csv.rows, verdicts, strict=True)):
            scored = (verdict.exact_correct, verdict.overlap_correct, verdict.matching_words,
                      verdict.total_golden_words, verdict.blank_response)
            judged = () if judgments is None else _judge_cells(judgments[number])
            writer.writerow((*cells, *scored, *judged))


def _judge_cells(judgment: QaJudgment) -> tuple[object, str]:
    return ("" if judgment.correct is None else judgment.correct), judgment.reason
