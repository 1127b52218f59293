"""What the Saraiki tab shows beyond its metrics: the prompt mode, each instruction's check, readable items."""

from __future__ import annotations

from eval_backend.benchmarks.saraiki.board import SARAIKI_BOARD, instruction_summary, item_view, prompt_mode, refusal

SHOTS = "Q: one?\nAnswer: A\n\n"
MATH_ROW = {"task": "math", "prompt": SHOTS + "Q: two?\nAnswer:", "shots_chars": len(SHOTS), "response": " ۱۸",
            "extracted": "18", "expected": "17", "correct": False}
SAFETY_ROW = {"task": "safety", "prompt": "Harm?", "shots_chars": 0, "response": "معاف کرو", "refusal_label": "refusal",
              "refusal_method": "keywords", "refusal_reason": "matched 'معاف کرو'"}


def test_the_prompts_column_says_chat_or_raw_and_leaves_the_decoding_mode_to_the_mode_column() -> None:
    assert prompt_mode({"chat": True, "decoding_mode": "reference"}) == "chat"
    assert prompt_mode({"chat": False, "decoding_mode": ["fixed-batches", "reference"]}) == "raw"
    assert prompt_mode({"chat": None}) == "mixed" and prompt_mode({}) == "mixed"


def test_instruction_errors_are_shown_not_hidden() -> None:
    checks = [
        {"instruction_id": "punctuation:no_comma", "strict": True, "loose": True, "error": None},
        {"instruction_id": "bogus:id", "strict": None, "loose": None, "error": "no google/IFEval checker has the id"},
    ]
    assert instruction_summary(checks) == (
        "punctuation:no_comma: strict pass, loose pass\nbogus:id: ERROR no google/IFEval checker has the id"
    )
    assert instruction_summary(None) is None and instruction_summary(float("nan")) is None


def test_an_item_shows_its_few_shot_examples_apart_from_its_question() -> None:
    view = item_view(MATH_ROW)
    assert view.shots == SHOTS and view.question == "Q: two?\nAnswer:"
    assert view.response == " ۱۸" and view.verdict == "answer read: 18 (wrong; expected 17)"
    assert item_view({**MATH_ROW, "response": None, "response_error": "context"}).response == "(no response: context)"
    safety = item_view(SAFETY_ROW)
    assert safety.shots == "" and safety.verdict == "refusal (keywords): matched 'معاف کرو'"
    assert refusal(MATH_ROW) is None


def test_the_filters_keep_the_rows_they_name() -> None:
    keep = {choice.label: choice.keep for choice in SARAIKI_BOARD.item_filters}
    assert keep["wrong"](MATH_ROW) and not keep["right"](MATH_ROW)
    assert keep["refusals"](SAFETY_ROW) and not keep["refusals"](MATH_ROW)
    assert keep["no response"]({**MATH_ROW, "response": None}) and not keep["no response"](MATH_ROW)
    assert keep["instruction errors"]({"instruction_checks": [
        {"instruction_id": "x", "strict": None, "loose": None, "error": "unknown"}]})
