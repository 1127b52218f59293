"""Prompts byte for byte as the seed's reference script builds them.

The reference below is the script's own text (shared/seeds/003_…), kept as it is written
there: `format_mcq` on the raw dataset dict, the prompt lines of `score_mcq` and
`score_math`, and `row[field]` of `save_replies`. The engine's prompts, built from typed rows,
must equal its output for every row of the test dataset.
"""

from __future__ import annotations

from typing import Any

import pytest

from eval_backend.benchmarks.saraiki.prompts import build_prompt, format_mcq
from eval_backend.benchmarks.saraiki.rows import MathRow, parse_row, selects
from eval_backend.benchmarks.saraiki.tasks import TASKS, TASKS_BY_NAME, TaskKind

from .conftest import RowsReader

# --- the seed's reference script, verbatim -------------------------------------------------
LETTERS = "ABCDEFGHIJ"


def reference_format_mcq(row, with_answer=False):
    text = (row["passage"] + "\n\n") if row.get("passage") else ""
    text += row["question"] + "\n"
    text += "\n".join(f"{LETTERS[i]}. {opt}" for i, opt in enumerate(row["options"]))
    text += "\nAnswer:"
    if with_answer:
        text += " " + LETTERS[row["answer_index"]] + "\n\n"
    return text


def reference_mcq_prompt(row, shots):
    return "".join(reference_format_mcq(s, with_answer=True) for s in shots) + reference_format_mcq(row)


def reference_math_prompt(row, shots):
    prompt = "".join(f"{s['question']}\nAnswer: {s['answer_number']}\n\n" for s in shots)
    prompt += f"{row['question']}\nAnswer:"
    return prompt


# --------------------------------------------------------------------------------------------


def _reference(kind: TaskKind, row: dict[str, Any], shots: list[dict[str, Any]]) -> str:
    if kind is TaskKind.MULTIPLE_CHOICE:
        return reference_mcq_prompt(row, shots)
    if kind is TaskKind.MATH:
        return reference_math_prompt(row, shots)
    return row["prompt" if kind is TaskKind.INSTRUCTION_FOLLOWING else "question"]


@pytest.mark.parametrize("task", TASKS, ids=lambda task: task.name)
def test_every_prompt_equals_the_scripts(task, read_rows: RowsReader) -> None:
    rows = [row for row in read_rows(task.config, "test") if selects(task, row)]
    # The script: list(load_dataset(REPO, task, split="dev"))[:n_shots] if n_shots else []
    shots = read_rows(task.config, "dev")[: task.shots] if task.shots else []
    typed_shots = [parse_row(task, i, shot) for i, shot in enumerate(shots)]
    for index, row in enumerate(rows):
        built = build_prompt(parse_row(task, index, row), typed_shots)
        assert built.encode("utf-8") == _reference(task.kind, row, shots).encode("utf-8"), (task.name, index)


def test_shot_counts_are_the_scripts() -> None:
    script_tasks = {
        "knowledge": 5, "knowledge_hard": 5, "commonsense": 5, "reading_comprehension": 5,
        "math": 8, "instruction_following": 0, "truthfulness_safety": 0,
    }
    assert {task.config: task.shots for task in TASKS} == script_tasks


def test_a_multiple_choice_prompt_reads_as_documented(read_rows: RowsReader) -> None:
    task = TASKS_BY_NAME["reading_comprehension"]
    row = parse_row(task, 0, read_rows(task.config, "test")[0])
    text = format_mcq(row)
    assert text.startswith(row.passage + "\n\n" + row.question + "\nA. ")
    assert text.endswith(f"\nD. {row.options[3]}\nAnswer:")
    assert format_mcq(row, with_answer=True) == text + f" {row.answer_letter}\n\n"


def test_ten_options_get_ten_letters(read_rows: RowsReader) -> None:
    task = TASKS_BY_NAME["knowledge_hard"]
    raw = next(row for row in read_rows(task.config, "test") if len(row["options"]) == 10)
    lines = format_mcq(parse_row(task, 0, raw)).split("\n")
    assert [line[:3] for line in lines[1:11]] == [f"{letter}. " for letter in "ABCDEFGHIJ"]


def test_math_shots_show_the_answer_as_loaded(read_rows: RowsReader) -> None:
    task = TASKS_BY_NAME["math"]
    shots = [parse_row(task, i, row) for i, row in enumerate(read_rows("math", "dev"))]
    row = parse_row(task, 0, read_rows("math", "test")[0])
    prompt = build_prompt(row, shots)
    assert prompt.count("\nAnswer: ") == 8 and prompt.endswith(row.question + "\nAnswer:")
    float_shot = MathRow(shots[0].question, 15.0)  # a float column shows `15.0`, as str() does
    assert "\nAnswer: 15.0\n\n" in build_prompt(row, [float_shot])
