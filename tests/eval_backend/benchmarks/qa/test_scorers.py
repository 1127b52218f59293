"""The deterministic scorers reproduce every verdict table of seed 002, then our own edge cases."""

from __future__ import annotations

import unicodedata

import pytest

from eval_backend.benchmarks.qa import (
    Agreement,
    Normalization,
    OverlapScore,
    QaRow,
    exact_substring,
    nfc_would_change,
    score_row,
    word_overlap,
    words,
)
from tests.support.qa_seed_tables import EXACT_ONLY_TABLE, EXACT_TABLE, OVERLAP_ONLY_TABLE, OVERLAP_TABLE


def row(answer: str, response: str, domain: str = "Art") -> QaRow:
    return QaRow(question="q?", answer=answer, domain=domain, response=response)


@pytest.mark.parametrize(("golden", "response", "correct"), EXACT_TABLE)
def test_exact_substring_reproduces_the_seed_table(golden: str, response: str, correct: bool) -> None:
    assert exact_substring(golden, response) is correct
    assert score_row(row(golden, response)).exact_correct is correct


@pytest.mark.parametrize(("golden", "response", "correct", "matching", "total"), OVERLAP_TABLE)
def test_word_overlap_reproduces_the_seed_table(
    golden: str, response: str, correct: bool, matching: int, total: int
) -> None:
    assert word_overlap(golden, response) == OverlapScore(correct, matching, total)
    verdict = score_row(row(golden, response))
    assert (verdict.overlap_correct, verdict.matching_words, verdict.total_golden_words) == (correct, matching, total)


@pytest.mark.parametrize(("golden", "response"), EXACT_ONLY_TABLE)
def test_sub_word_matches_pass_exact_only(golden: str, response: str) -> None:
    assert score_row(row(golden, response)).agreement is Agreement.EXACT_ONLY


@pytest.mark.parametrize(("golden", "response"), OVERLAP_ONLY_TABLE)
def test_scattered_golden_words_pass_overlap_only(golden: str, response: str) -> None:
    assert score_row(row(golden, response)).agreement is Agreement.OVERLAP_ONLY


def test_both_and_neither_buckets() -> None:
    assert score_row(row("Ruru Jataka", "the Ruru Jataka.")).agreement is Agreement.BOTH
    assert score_row(row("Ruru Jataka", "Mahajanaka")).agreement is Agreement.NEITHER


def test_trailing_whitespace_in_golden_breaks_exact_but_not_overlap() -> None:
    verdict = score_row(row("Delhi ", "The capital is Delhi"))
    assert not verdict.exact_correct
    assert verdict.overlap_correct and verdict.matching_words == verdict.total_golden_words == 1
    # A response with the space after the word still contains the unstripped golden run.
    assert score_row(row("Delhi ", "Delhi is the capital")).exact_correct


def test_exact_substring_does_no_normalisation_beyond_lowercase() -> None:
    assert not exact_substring("Narmada  valley", "Narmada valley")  # internal spacing counts
    assert not exact_substring("Delhi.", "Delhi")  # punctuation counts
    assert exact_substring("delhi", "NEW DELHI!")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Delhi.", {"delhi"}),  # the seed's own example
        ('"Ruru" (Jataka)!', {"ruru", "jataka"}),
        ("गंगा। यमुना।", {"गंगा", "यमुना"}),  # Devanagari danda
        ("لاہور۔", {"لاہور"}),  # Urdu full stop
        ("«Kaveri»", {"kaveri"}),  # guillemets
        ("$5 ~x~", {"5", "x"}),  # the ASCII symbols string.punctuation counts
        ("... — ।", set()),  # tokens of punctuation only are dropped
        ("well-known co-op", {"well-known", "co-op"}),  # only the ends are stripped
        ("tab\tnew\nline", {"tab", "new", "line"}),
    ],
)
def test_words_strip_unicode_punctuation_at_token_ends(text: str, expected: set[str]) -> None:
    assert words(text) == expected


def test_word_overlap_with_punctuation_on_both_sides() -> None:
    assert word_overlap("Narmada, valley.", "It is the valley of the Narmada!").correct
    assert word_overlap("गंगा", "उत्तर: गंगा।").correct  # the danda would otherwise hide the match


def test_indic_vowel_signs_are_part_of_the_word() -> None:
    # A matra is a combining mark, not punctuation: "गंगा" and "गंग" are different words.
    assert not word_overlap("गंग", "गंगा नदी").correct
    assert exact_substring("गंग", "गंगा नदी")  # ...while exact substring matches inside the word
    assert word_overlap("காவிரி", "காவிரி ஆறு").correct  # Tamil


def test_blank_responses_are_incorrect_under_both_scorers() -> None:
    for response in ("", "   ", "\n\t"):
        verdict = score_row(row("Delhi", response))
        assert verdict.blank_response
        assert not verdict.exact_correct and not verdict.overlap_correct
    # Missing data is never correct, not even against an empty golden answer ("" in "" holds).
    assert not score_row(row("", "")).exact_correct


def test_an_empty_golden_answer_scores_correct_and_is_flagged() -> None:
    verdict = score_row(row("", "anything at all"))
    assert verdict.exact_correct and verdict.overlap_correct and verdict.empty_golden
    assert verdict.total_golden_words == 0
    assert score_row(row("...", "anything")).empty_golden  # no word left after stripping
    assert not score_row(row("Delhi", "Delhi")).empty_golden


def test_nfc_and_nfd_forms_compare_unequal_by_default() -> None:
    nfc_golden = unicodedata.normalize("NFC", "é")
    assert not exact_substring(nfc_golden, unicodedata.normalize("NFD", "café"))
    mixed = row("café", unicodedata.normalize("NFD", "café au lait"))
    assert not score_row(mixed).exact_correct and not score_row(mixed).overlap_correct
    assert nfc_would_change(mixed)


def test_nfc_normalisation_makes_the_forms_match() -> None:
    mixed = row("café", unicodedata.normalize("NFD", "café au lait"))
    verdict = score_row(mixed, Normalization.NFC)
    assert verdict.exact_correct and verdict.overlap_correct


def test_nfc_in_an_indic_script() -> None:
    golden = unicodedata.normalize("NFC", "ऩदी")  # NNNA (U+0929) composes in NFC
    response = unicodedata.normalize("NFD", "यह ऩदी है")
    assert golden != unicodedata.normalize("NFD", golden)
    assert not score_row(row(golden, response)).exact_correct
    assert score_row(row(golden, response), Normalization.NFC).exact_correct
    assert nfc_would_change(row(golden, response))


def test_rows_already_in_one_form_are_not_flagged_for_nfc() -> None:
    assert not nfc_would_change(row("गंगा", "गंगा नदी"))
    assert not nfc_would_change(row("Delhi", "Mumbai"))
