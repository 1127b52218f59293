"""Dataset rows become typed rows; a row the script could not use is refused by name."""

from __future__ import annotations

import json

import pytest

from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.saraiki.rows import InstructionRow, MathRow, McqRow, SafetyRow, parse_row, selects
from eval_backend.benchmarks.saraiki.tasks import CONFIGS, TASKS_BY_NAME
from tests.support.saraiki_dataset import DEV_CONFIGS, saraiki_rows

from .conftest import RowsReader


def test_the_test_dataset_has_every_config_with_english_originals(read_rows: RowsReader) -> None:
    for config in CONFIGS:
        rows = read_rows(config, "test")
        assert rows, config
        text_columns = {"question", "prompt", "passage", "options"} & rows[0].keys()
        assert {f"{column}_en" for column in text_columns} <= rows[0].keys(), config
    for config in DEV_CONFIGS:
        assert len(read_rows(config, "dev")) == (8 if config == "math" else 5)


def test_every_row_of_the_dataset_parses(read_rows: RowsReader) -> None:
    for task in TASKS_BY_NAME.values():
        rows = [row for row in read_rows(task.config, "test") if selects(task, row)]
        parsed = [parse_row(task, index, row) for index, row in enumerate(rows)]
        assert parsed, task.name
    hard = [parse_row(TASKS_BY_NAME["knowledge_hard"], i, row) for i, row in enumerate(read_rows("knowledge_hard", "test"))]
    assert {len(row.options) for row in hard if isinstance(row, McqRow)} == set(range(4, 11))


def test_rows_keep_the_saraiki_fields_and_not_the_english_ones(read_rows: RowsReader) -> None:
    raw = read_rows("reading_comprehension", "test")[0]
    row = parse_row(TASKS_BY_NAME["reading_comprehension"], 0, raw)
    assert row == McqRow(raw["question"], tuple(raw["options"]), raw["answer_index"], raw["passage"])
    raw = read_rows("instruction_following", "test")[1]
    row = parse_row(TASKS_BY_NAME["instruction_following"], 1, raw)
    assert isinstance(row, InstructionRow) and row.prompt == raw["prompt"]
    assert row.instruction_ids == ("length_constraints:number_paragraphs", "detectable_content:postscript")
    assert row.kwargs == ({"num_paragraphs": 2, "relation": None}, {"postscript_marker": "P.S."})


def test_truthfulness_and_safety_rows_are_told_apart(read_rows: RowsReader) -> None:
    rows = read_rows("truthfulness_safety", "test")
    truthful, safety = TASKS_BY_NAME["truthfulness"], TASKS_BY_NAME["safety"]
    assert all(isinstance(parse_row(truthful, i, r), McqRow) for i, r in enumerate(rows) if selects(truthful, r))
    parsed = [parse_row(safety, i, r) for i, r in enumerate(rows) if selects(safety, r)]
    assert {row.expected_behavior for row in parsed if isinstance(row, SafetyRow)} == {"refuse", "comply"}


def test_math_questions_use_both_arabic_indic_digit_forms(read_rows: RowsReader) -> None:
    questions = " ".join(row["question"] for row in read_rows("math", "test"))
    assert set(questions) & set("۰۱۲۳۴۵۶۷۸۹"), "no Extended Arabic-Indic (Urdu) digits"
    assert set(questions) & set("٠١٢٣٤٥٦٧٨٩"), "no Arabic-Indic digits"


def test_math_answer_keeps_its_loaded_value(read_rows: RowsReader) -> None:
    raw = read_rows("math", "dev")[0]
    row = parse_row(TASKS_BY_NAME["math"], 0, raw)
    assert isinstance(row, MathRow) and row.answer_number == raw["answer_number"] and type(row.answer_number) is int


def one_instruction(kwargs: str) -> dict[str, str]:
    """A row's edit to one word-count instruction with these kwargs (an object's JSON text)."""
    return {"instruction_id_list": '["length_constraints:number_words"]', "kwargs": f"[{kwargs}]"}


@pytest.mark.parametrize(
    ("task", "edit", "field"),
    [
        ("knowledge_hard", {"options": [f"o{i}" for i in range(11)]}, "options"),
        ("knowledge", {"options": ["only one"], "answer_index": 0}, "options"),
        ("knowledge", {"answer_index": 4}, "answer_index"),
        ("knowledge", {"answer_index": None}, "answer_index"),
        ("knowledge", {"question": None}, "question"),
        ("math", {"answer_number": "twelve"}, "answer_number"),
        ("instruction_following", {"kwargs": "[{}"}, "kwargs"),
        ("instruction_following", {"instruction_id_list": "[]"}, "instruction_id_list"),
        ("instruction_following", {"kwargs": json.dumps([{}, {}])}, "kwargs"),
        ("instruction_following", {"source": "google/IFEval-xx"}, "source"),
        ("safety", {"expected_behavior": "ignore"}, "expected_behavior"),
        ("math", {"answer_number": float("nan")}, "answer_number"),
        ("math", {"answer_number": float("-inf")}, "answer_number"),
        ("math", {"answer_number": "nan"}, "answer_number"),
        ("math", {"answer_number": "9" * 5000}, "answer_number"),  # reads as infinity
        ("instruction_following", {"instruction_id_list": "[" * 100_000 + "]" * 100_000}, "instruction_id_list"),
        ("instruction_following", one_instruction('{"num_words": ' + "9" * 5000 + ', "relation": "at least"}'),
         "kwargs"),
        ("instruction_following", one_instruction('{"num_words": NaN, "relation": "at least"}'), "kwargs"),
        ("instruction_following", one_instruction('{"num_words": 300, "num_words": 30, "relation": "at least"}'),
         "kwargs"),
        ("instruction_following", one_instruction('{"num_words": 300, "x": ' + "[" * 40 + "]" * 40 + "}"), "kwargs"),
    ],
)
def test_a_row_the_script_could_not_use_is_refused_with_its_field(task: str, edit: dict, field: str) -> None:
    spec = TASKS_BY_NAME[task]
    row = next(row for row in saraiki_rows(spec.config, "test", 4) if selects(spec, row)) | edit
    with pytest.raises(ItemValidationError) as error:
        parse_row(spec, 3, row)
    assert f"config {spec.config!r}, row 3, field {field!r}" in str(error.value)


def test_a_refused_json_cell_names_the_part_of_it_that_is_wrong() -> None:
    spec = TASKS_BY_NAME["instruction_following"]
    row = saraiki_rows(spec.config, "test", 2)[1] | one_instruction('{"num_words": Infinity, "relation": "at least"}')
    with pytest.raises(ItemValidationError, match=r"^config 'instruction_following', row 1, field 'kwargs': "
                                                  r"\$\[0\]\.num_words: Infinity is not a JSON number$"):
        parse_row(spec, 1, row)
