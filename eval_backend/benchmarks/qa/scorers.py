"""The two deterministic scorers of seed 002, exactly as its scripts define them.

Exact substring: `answer.lower() in response.lower()`, nothing else: no stripping, no
tokenising, no word boundaries. Word overlap: both sides lowercased, split on whitespace,
each token stripped of leading and trailing punctuation, empty tokens dropped, compared as
sets. A blank response is incorrect under both; an empty golden answer is correct under both
(`"" in x`, and the empty set is a subset of anything), which callers warn about.
"""

from __future__ import annotations

import string
import unicodedata
from dataclasses import replace
from enum import StrEnum

from eval_backend.benchmarks.qa.records import OverlapScore, QaRow, QaVerdict


class Normalization(StrEnum):
    """Unicode normalisation applied to both sides before scoring; none by default, as the seed."""

    NFC = "NFC"


def _is_punctuation(char: str) -> bool:
    # Unicode punctuation (categories P*: `.`, `।`, `۔`, `«`), plus the ASCII symbols Python's
    # string.punctuation also counts ($ + < = > ^ ` | ~), so ASCII text is stripped exactly as
    # the seed's `strip(string.punctuation)` would strip it.
    return unicodedata.category(char).startswith("P") or char in string.punctuation


def strip_punctuation(token: str) -> str:
    """`token` without its leading and trailing punctuation (`delhi.` -> `delhi`, `।गंगा।` -> `गंगा`)."""
    start, end = 0, len(token)
    while start < end and _is_punctuation(token[start]):
        start += 1
    while end > start and _is_punctuation(token[end - 1]):
        end -= 1
    return token[start:end]


def exact_substring(answer: str, response: str) -> bool:
    """The seed's exact-substring rule: the golden answer is one contiguous, case-insensitive run."""
    return answer.lower() in response.lower()


def words(text: str) -> frozenset[str]:
    """The word set of `text`: lowercased, whitespace-split, end punctuation stripped, no empties."""
    tokens = (strip_punctuation(token) for token in text.lower().split())
    return frozenset(token for token in tokens if token)


def word_overlap(answer: str, response: str) -> OverlapScore:
    """The seed's word-overlap rule: correct when every golden word is among the response's words."""
    golden = words(answer)
    matching = len(golden & words(response))
    return OverlapScore(correct=matching == len(golden), matching_words=matching, total_golden_words=len(golden))


def is_blank(response: str) -> bool:
    """A response that is empty or only whitespace: missing data, scored incorrect and counted."""
    return not response.strip()


def normalize(text: str, form: Normalization | None) -> str:
    """`text` in Unicode normal form `form`, or unchanged when `form` is None."""
    return unicodedata.normalize(form.value, text) if form else text


def normalized(row: QaRow, form: Normalization | None) -> QaRow:
    """`row` with its golden answer and response in normal form `form` (unchanged when None)."""
    return replace(row, answer=normalize(row.answer, form), response=normalize(row.response, form)) if form else row


def score_row(row: QaRow, form: Normalization | None = None) -> QaVerdict:
    """Both deterministic verdicts of one row, optionally after normalising both sides.

    A blank response is incorrect under both scorers even against an empty golden answer:
    missing data is never a correct answer. `empty_golden` marks a golden answer with no
    word at all (empty, blank or only punctuation), which word overlap scores correct.
    """
    row = normalized(row, form)
    blank = is_blank(row.response)
    overlap = word_overlap(row.answer, row.response)
    return QaVerdict(
        exact_correct=not blank and exact_substring(row.answer, row.response),
        overlap_correct=not blank and overlap.correct,
        matching_words=overlap.matching_words,
        total_golden_words=overlap.total_golden_words,
        blank_response=blank,
        empty_golden=overlap.total_golden_words == 0,
    )


def nfc_would_change(row: QaRow) -> bool:
    """Whether normalising both sides to NFC would flip either deterministic verdict of `row`."""
    plain, nfc = score_row(row), score_row(row, Normalization.NFC)
    return (plain.exact_correct, plain.overlap_correct) != (nfc.exact_correct, nfc.overlap_correct)
