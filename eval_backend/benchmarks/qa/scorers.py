"""The two deterministic scorers of seed 002, exactly as its scripts define them.

Exact substring: `answer.lower() in response.lower()`, nothing else: no stripping, no
tokenising, no word boundaries. Word overlap: both sides lowercased, split on whitespace,
each token stripped of leading and trailing punctuation, empty tokens dropped, compared as
sets. A blank response is incorrect under both; an empty golden answer is correct under both
(`"" in x`, and the empty set is a subset of anything), which callers warn about.
"""

from __future__ import annotations

import functools
import re
import string
import sys
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


_LISTED_PLANES = 2
"""Punctuation is listed for planes 0 and 1, where all of it is; a text with a character past
them is stripped character by character instead, so the two ways never disagree."""
_UNLISTED = re.compile(f"[{chr(_LISTED_PLANES * 0x10000)}-{chr(sys.maxunicode)}]")


@functools.cache
def _punctuation() -> str:
    """Every character `_is_punctuation` accepts in the listed planes, for C-speed `str.strip`
    (a per-character check in Python was most of qa-score's time; listing them takes ~35 ms)."""
    return "".join(char for char in map(chr, range(_LISTED_PLANES * 0x10000)) if _is_punctuation(char))


def _strip_each_character(token: str) -> str:
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
    return _words_of_lowered(text.lower())


def word_overlap(answer: str, response: str) -> OverlapScore:
    """The seed's word-overlap rule: correct when every golden word is among the response's words."""
    golden = words(answer)
    matching = len(golden & words(response))
    return OverlapScore(correct=matching == len(golden), matching_words=matching, total_golden_words=len(golden))


_STRIPPED: dict[str, str] = {}
"""Tokens already stripped, and what they came to: text repeats its words, and the lookup costs
a quarter of the strip. Emptied when it reaches `_STRIPPED_MAX` entries (a few MB)."""
_STRIPPED_MAX = 1 << 16


def _words_of_lowered(lowered: str) -> frozenset[str]:
    tokens = lowered.split()
    if _UNLISTED.search(lowered):
        found = set(map(_strip_each_character, tokens))
    else:
        stripped = _STRIPPED
        found = {known if (known := stripped.get(token)) is not None else _strip_new(token) for token in tokens}
    found.discard("")
    return frozenset(found)


def _strip_new(token: str) -> str:
    if len(_STRIPPED) >= _STRIPPED_MAX:
        _STRIPPED.clear()
    result = _STRIPPED[token] = token.strip(_punctuation())
    return result


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
    answer, response = row.answer.lower(), row.response.lower()  # once for both scorers: same rules
    golden = _words_of_lowered(answer)
    matching = len(golden & _words_of_lowered(response))
    return QaVerdict(
        exact_correct=not blank and answer in response,
        overlap_correct=not blank and matching == len(golden),
        matching_words=matching,
        total_golden_words=len(golden),
        blank_response=blank,
        empty_golden=not golden,
    )


def nfc_would_change(row: QaRow) -> bool:
    """Whether normalising both sides to NFC would flip either deterministic verdict of `row`."""
    if unicodedata.is_normalized("NFC", row.answer) and unicodedata.is_normalized("NFC", row.response):
        return False  # NFC leaves both as they are: the same verdicts (the common case, checked in C)
    plain, nfc = score_row(row), score_row(row, Normalization.NFC)
    return (plain.exact_correct, plain.overlap_correct) != (nfc.exact_correct, nfc.overlap_correct)
