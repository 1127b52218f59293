"""Reading the answer out of a reply, exactly as the seed's script does.

Multiple choice: the first standalone capital letter A-J (`\\b([A-J])\\b`). Math: Arabic-Indic
and Extended Arabic-Indic digits become ASCII, commas go, and the last number
(`-?\\d+(?:\\.\\d+)?`) is compared with `float`. Python's `\\d` and `\\b` are Unicode-aware,
as in the script, so nothing here narrows them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from eval_backend.benchmarks.saraiki.rows import MathRow, McqRow

_LETTER = re.compile(r"\b([A-J])\b")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")
"""Extended Arabic-Indic (Urdu, Saraiki) and Arabic-Indic digits to ASCII, the script's table."""


@dataclass(frozen=True)
class AnswerScore:
    """What was read from a reply (None: nothing matched) and whether it is the item's answer."""

    extracted: str | None
    correct: bool


def extract_letter(reply: str) -> str | None:
    """The first standalone letter A-J of the reply, or None."""
    found = _LETTER.search(reply)
    return found.group(1) if found else None


def score_mcq(row: McqRow, reply: str) -> AnswerScore:
    """Correct when the first letter found is the item's answer letter."""
    letter = extract_letter(reply)
    return AnswerScore(letter, letter is not None and letter == row.answer_letter)


def extract_number(reply: str) -> str | None:
    """The last number of the reply after digit translation and comma removal, as text, or None."""
    numbers = _NUMBER.findall(reply.translate(DIGITS).replace(",", ""))
    return numbers[-1] if numbers else None


def score_math(row: MathRow, reply: str) -> AnswerScore:
    """Correct when the last number equals `answer_number` as floats."""
    number = extract_number(reply)
    return AnswerScore(number, number is not None and float(number) == float(row.answer_number))
