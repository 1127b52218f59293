"""What the QA tab shows beyond its metrics: the three verdicts as words, the filters, one item in full."""

from __future__ import annotations

from eval_backend.benchmarks.qa.board import QA_BOARD, item_view

RIGHT = {"question": "River?", "answer": "Ganga", "response": "Ganga", "judge_correct": True, "judge_reason": "States it.",
         "exact_correct": True, "overlap_correct": True, "agreement": "both", "blank_response": False}
BLANK = {**RIGHT, "response": "", "judge_correct": False, "judge_reason": "blank response", "exact_correct": False,
         "overlap_correct": False, "agreement": "neither", "blank_response": True}
FAILED = {**RIGHT, "judge_correct": None, "judge_error": "HTTP 500 after 3 attempts"}


def test_an_item_reads_with_its_golden_answer_and_each_verdict() -> None:
    view = item_view(RIGHT)
    assert view.question == "River?" and view.response == "Ganga"
    assert view.verdict == ("Golden answer: Ganga\nJudge: right (States it.)\nExact substring: right\n"
                            "Word overlap: right")
    assert "Judge: failed: HTTP 500 after 3 attempts" in item_view(FAILED).verdict
    assert item_view({**RIGHT, "response": None, "response_error": "context"}).response == "(no answer: context)"


def test_the_item_table_says_verdicts_in_words() -> None:
    values = {field.label: field.value(BLANK) if field.value else BLANK.get(field.name) for field in QA_BOARD.item_fields}
    assert values == {"Question": "River?", "Golden answer": "Ganga", "Answer": "", "Judge": "wrong", "Exact": "wrong",
                      "Overlap": "wrong", "Judge's reason": "blank response", "Length (characters)": 0}


def test_the_filters_keep_the_rows_they_name() -> None:
    keep = {choice.label: choice.keep for choice in QA_BOARD.item_filters}
    assert keep["judge right"](RIGHT) and not keep["judge right"](BLANK) and keep["judge wrong"](BLANK)
    assert keep["blank"](BLANK) and not keep["blank"](RIGHT)
    assert keep["judge failed"](FAILED) and not keep["judge failed"](RIGHT)
    assert not keep["judge wrong"](FAILED)  # a failed judgment is neither right nor wrong
