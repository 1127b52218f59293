"""Answers are read out of replies by the script's two rules, and only by them."""

from __future__ import annotations

import pytest

from eval_backend.benchmarks.saraiki.answers import extract_letter, extract_number, score_math, score_mcq
from eval_backend.benchmarks.saraiki.rows import MathRow, McqRow

ROW = McqRow("سوال", ("ہک", "ݙو", "ترائے", "چار"), answer_index=2)  # answer C


@pytest.mark.parametrize(
    ("reply", "letter"),
    [
        (" C", "C"),
        (" C. ترائے", "C"),
        ("(C)", "C"),
        (" B\n\nسوال ... Answer: C", "B"),  # the first letter counts, not the last
        (" The answer is C", "C"),  # "The" is no standalone capital
        (" A because", "A"),
        (" c", None),  # lowercase is not an answer letter
        (" K", None),  # past J
        (" CD", None),  # no word boundary inside "CD"
        (" Cب", None),  # Saraiki letters are word characters: no boundary
        ("", None),
    ],
)
def test_the_first_standalone_letter_is_the_answer(reply: str, letter: str | None) -> None:
    assert extract_letter(reply) == letter


def test_multiple_choice_is_correct_only_on_the_items_letter() -> None:
    assert score_mcq(ROW, " C").correct
    assert not score_mcq(ROW, " B").correct
    nothing = score_mcq(ROW, " کوئی جواب نئیں")
    assert nothing.extracted is None and not nothing.correct


@pytest.mark.parametrize(
    ("reply", "number"),
    [
        (" 15", "15"),
        (" ۱۵", "15"),  # Extended Arabic-Indic (Urdu, Saraiki)
        (" ١٥", "15"),  # Arabic-Indic
        (" 1,234", "1234"),
        (" ۱,۲۳۴", "1234"),
        (" 3 انب تے 12 ہور، کل 15 انب", "15"),  # the last number
        (" -7.50", "-7.50"),
        (" نئیں پتہ", None),
    ],
)
def test_the_last_number_after_digit_translation(reply: str, number: str | None) -> None:
    assert extract_number(reply) == number


@pytest.mark.parametrize(
    ("answer", "reply", "correct"),
    [
        (15, " ۱۵", True),
        (15, " 15.0", True),  # float equality
        (15.0, " 15", True),
        ("15", " ١٥ انب", True),
        (1234, " 1,234", True),
        (15, " 15.5", False),
        (15, " 15 یا 16", False),  # the last number decides
        (15, " ", False),
    ],
)
def test_math_compares_floats(answer: int | float | str, reply: str, correct: bool) -> None:
    assert score_math(MathRow("سوال", answer), reply).correct is correct


def test_arabic_decimal_separator_is_not_a_decimal_point() -> None:
    # The script translates digits only: "۱٫۵" reads as two numbers, and the last is 5.
    assert extract_number(" ۱٫۵") == "5"
