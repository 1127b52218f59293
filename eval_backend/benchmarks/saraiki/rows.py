"""Dataset rows of the Saraiki benchmark as typed records, checked as they are read.

Only the Saraiki fields are read: the `*_en` columns are the English originals, kept in the
dataset for analysis and never shown to the model. A row that the script could not use
(options past the tenth letter, an answer index outside the options, an `answer_number` that
`float` rejects or reads as NaN or infinity, instruction lists that are not strict JSON within
`JSON_CELL_LIMITS`) is refused with an error naming the config, the row and the field, instead of
failing later or scoring wrongly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.saraiki.tasks import LETTERS, SaraikiTask, TaskKind
from eval_backend.strict_json import JsonLimits, StrictJsonError, parse_strict_json

IFEVAL_SOURCE = "google/IFEval"
IFBENCH_SOURCE = "allenai/IFBench_test"
IF_SOURCES = (IFEVAL_SOURCE, IFBENCH_SOURCE)
EXPECTED_BEHAVIORS = ("refuse", "comply")
MIN_OPTIONS = 2
JSON_CELL_LIMITS = JsonLimits(max_bytes=64 * 1024)
"""A JSON cell (`instruction_id_list`, `kwargs`) holds at most 64 KiB; IFEval's largest is under 1 KiB."""


@dataclass(frozen=True)
class McqRow:
    """A multiple-choice row; `passage` is empty for the configs that have none."""

    question: str
    options: tuple[str, ...]
    answer_index: int
    passage: str = ""

    @property
    def answer_letter(self) -> str:
        return LETTERS[self.answer_index]


@dataclass(frozen=True)
class MathRow:
    """A GSM8K-style row; `answer_number` is kept as loaded, since the prompt shows its `str()`."""

    question: str
    answer_number: int | float | str


@dataclass(frozen=True)
class InstructionRow:
    """A prompt with verifiable constraints: ids and their kwargs, decoded from the JSON columns."""

    prompt: str
    instruction_ids: tuple[str, ...]
    kwargs: tuple[Mapping[str, Any], ...]
    source: str


@dataclass(frozen=True)
class SafetyRow:
    """A request the model should refuse (`refuse`) or answer (`comply`)."""

    question: str
    expected_behavior: str


SaraikiRow = McqRow | MathRow | InstructionRow | SafetyRow


def parse_row(task: SaraikiTask, index: int, row: Mapping[str, Any]) -> SaraikiRow:
    """The typed row of `task` from a dataset row; raises ItemValidationError naming what is wrong."""
    where = _Where(task.config, index)
    if task.kind is TaskKind.MULTIPLE_CHOICE:
        return _mcq(where, row)
    if task.kind is TaskKind.MATH:
        return _math(where, row)
    if task.kind is TaskKind.INSTRUCTION_FOLLOWING:
        return _instruction(where, row)
    return _safety(where, row)


def selects(task: SaraikiTask, row: Mapping[str, Any]) -> bool:
    """Whether `row` belongs to `task` (the `item_type` filter of `truthfulness_safety`)."""
    return task.item_type is None or row.get("item_type") == task.item_type


@dataclass(frozen=True)
class _Where:
    config: str
    index: int

    def error(self, field: str, problem: str) -> ItemValidationError:
        return ItemValidationError(f"config {self.config!r}, row {self.index}, field {field!r}: {problem}")

    def text(self, row: Mapping[str, Any], field: str) -> str:
        value = row.get(field)
        if not isinstance(value, str):
            raise self.error(field, f"expected text, got {_shown(value)}")
        return value


def _mcq(where: _Where, row: Mapping[str, Any]) -> McqRow:
    options = row.get("options")
    if not isinstance(options, (list, tuple)) or not all(isinstance(option, str) for option in options):
        raise where.error("options", f"expected a list of texts, got {_shown(options)}")
    if not MIN_OPTIONS <= len(options) <= len(LETTERS):
        raise where.error("options", f"{len(options)} options; the letters A-J allow {MIN_OPTIONS} to {len(LETTERS)}")
    answer = row.get("answer_index")
    if type(answer) is not int or not 0 <= answer < len(options):
        raise where.error("answer_index", f"expected an index into the {len(options)} options, got {_shown(answer)}")
    passage = row.get("passage")
    if passage is not None and not isinstance(passage, str):
        raise where.error("passage", f"expected text, got {_shown(passage)}")
    return McqRow(where.text(row, "question"), tuple(options), answer, passage or "")


def _math(where: _Where, row: Mapping[str, Any]) -> MathRow:
    answer = row.get("answer_number")
    try:
        if isinstance(answer, bool):
            raise TypeError
        number = float(answer)  # the script compares with float(answer_number)
    except (TypeError, ValueError, OverflowError):
        raise where.error("answer_number", f"expected a number, got {_shown(answer)}") from None
    if not math.isfinite(number):  # no reply can ever equal it
        raise where.error("answer_number", f"expected a finite number, got {_shown(answer)}")
    return MathRow(where.text(row, "question"), answer)


def _instruction(where: _Where, row: Mapping[str, Any]) -> InstructionRow:
    ids = _json_list(where, row, "instruction_id_list")
    if not ids or not all(isinstance(item, str) for item in ids):
        raise where.error("instruction_id_list", f"expected a non-empty JSON list of ids, got {_shown(ids)}")
    kwargs = _json_list(where, row, "kwargs")
    if len(kwargs) != len(ids) or not all(isinstance(item, dict) for item in kwargs):
        raise where.error("kwargs", f"expected a JSON list of {len(ids)} objects, one per instruction id")
    source = row.get("source")
    if source not in IF_SOURCES:
        raise where.error("source", f"expected one of {', '.join(IF_SOURCES)}, got {_shown(source)}")
    return InstructionRow(where.text(row, "prompt"), tuple(ids), tuple(kwargs), source)


def _safety(where: _Where, row: Mapping[str, Any]) -> SafetyRow:
    behavior = row.get("expected_behavior")
    if behavior not in EXPECTED_BEHAVIORS:
        raise where.error("expected_behavior", f"expected refuse or comply, got {_shown(behavior)}")
    return SafetyRow(where.text(row, "question"), behavior)


def _json_list(where: _Where, row: Mapping[str, Any], field: str) -> list[Any]:
    text = where.text(row, field)
    try:
        value = parse_strict_json(text, field, JSON_CELL_LIMITS)
    except StrictJsonError as exc:
        raise where.error(field, exc.problem) from None
    if not isinstance(value, list):
        raise where.error(field, f"expected a JSON list, got {type(value).__name__}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
