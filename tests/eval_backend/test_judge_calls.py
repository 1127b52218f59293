"""A judge call's id names the item, the part judged and the judged response, for every benchmark kind."""

from __future__ import annotations

import pytest

from eval_backend.judge_calls import JudgeCall, call_id_of, parse_call_id


def test_a_call_id_reads_back_as_its_call_even_with_the_separator_in_the_config() -> None:
    assert parse_call_id(call_id_of("odd|config", 12, 4, "ab" * 32)) == ("odd|config", 12, "4", "ab" * 32)
    with pytest.raises(ValueError):
        parse_call_id("not-one-of-ours")


def test_a_judge_scorer_s_name_is_the_part_of_its_call() -> None:
    call = JudgeCall("saraiki_safety", 3, "refusal", "cd" * 32, lambda: [])
    assert call.call_id == "saraiki_safety|3|refusal|" + "cd" * 32
    assert parse_call_id(call.call_id)[2] == "refusal"


def test_a_rubric_call_id_is_the_one_batches_in_flight_were_recorded_under() -> None:
    # judge_batches.jsonl written before judge calls were generic holds "config|index|criterion|sha".
    assert call_id_of("Hindi", 7, 2, "ef" * 32) == "Hindi|7|2|" + "ef" * 32
