"""Row flags: what a reader must know before trusting a row's number, from a run's own facts."""

from __future__ import annotations

from leaderboard.row_flags import (
    CUT_OFF,
    FEW_ITEMS,
    FLAGS,
    OLD_DATASET,
    OTHER_JUDGE,
    DatasetPin,
    RunFacts,
    about_markdown,
    badges_markdown,
    board_flags,
    board_judge,
    dataset_pin,
    flag_codes,
    is_hidden,
    outdated,
    parse_codes,
    row_flags,
    run_facts,
    too_few_items,
)

SUMMARY = {"coverage": {"scored": 50, "no_response": 2, "configs": 4}, "counts": {"unclosed_thinking": 18},
           "provenance": {"judge_model": "judge-a"}}


def test_a_summary_s_facts_are_read_and_malformed_fields_are_unknown() -> None:
    assert run_facts(SUMMARY) == RunFacts(52, 4, 18, "judge-a", False)
    assert run_facts({"coverage": "x", "counts": {"unclosed_thinking": True}}, True) == RunFacts(
        None, None, None, None, True)


def test_18_of_52_answers_cut_off_in_thinking_is_flagged_and_2_are_not() -> None:
    assert CUT_OFF in row_flags(run_facts(SUMMARY), "judge-a")
    assert CUT_OFF not in row_flags(RunFacts(52, 4, 2, "judge-a"), "judge-a")  # 3.8 %: under the 5 % threshold


def test_another_judge_than_the_board_s_is_flagged() -> None:
    assert row_flags(RunFacts(52, 4, 0, "judge-b"), "judge-a") == (OTHER_JUDGE,)
    assert row_flags(RunFacts(52, 4, 0, None), "judge-a") == ()  # unknown: no flag


def test_one_item_per_language_is_too_few_for_an_interval() -> None:
    assert row_flags(RunFacts(11, 11, 0, "j"), "j") == (FEW_ITEMS,)
    assert row_flags(RunFacts(55, 11, 0, "j"), "j") == ()


def test_an_older_dataset_revision_is_flagged() -> None:
    assert row_flags(RunFacts(52, 4, 0, "j", dataset_outdated=True), "j") == (OLD_DATASET,)


def test_the_board_s_judge_is_the_one_most_runs_used_ties_going_to_the_configured_one() -> None:
    assert board_judge(["a", "b", "b", None]) == "b"
    assert board_judge(["a", "b"], configured="b") == "b"
    assert board_judge([], configured="gpt") == "gpt"


def test_codes_round_trip_and_badges_explain_themselves_on_hover_and_link_to_about() -> None:
    codes = flag_codes((CUT_OFF, FEW_ITEMS))
    assert codes == "cut_off,few_items" and parse_codes(codes + ",bogus") == (CUT_OFF, FEW_ITEMS)
    badges = badges_markdown(codes)
    assert badges.count("](?tab=about") == 2 and f'"{CUT_OFF.explanation}"' in badges
    assert badges_markdown(None) == "" and parse_codes(3) == ()
    about = about_markdown()
    assert all(flag.badge in about and flag.explanation in about for flag in FLAGS.values())
    assert '"' not in "".join(flag.explanation for flag in FLAGS.values())  # a title cannot close itself


def test_a_board_s_flags_name_the_stray_judge_of_any_benchmark() -> None:
    facts = [RunFacts(52, 4, 0, "judge-a"), RunFacts(52, 4, 0, "judge-a"), RunFacts(52, 4, 18, "judge-b"),
             RunFacts(4, 4, None, None)]  # the last: scored by rules alone, too few items
    assert board_flags(facts) == ["", "", "cut_off,other_judge", "few_items"]
    assert board_flags(facts[2:], configured_judge="judge-a") == ["cut_off", "few_items"]  # its judge is the only one named


def test_a_run_on_a_revision_older_than_the_newest_resolved_is_outdated() -> None:
    pins = [DatasetPin("org/set", "aaa", "2025-01-01T00:00:00Z"), DatasetPin("org/set", "bbb", "2025-02-01T00:00:00Z"),
            DatasetPin("org/other", "ccc", "2024-01-01T00:00:00Z"), DatasetPin("org/set", None, None)]
    assert outdated(pins) == [True, False, False, False]  # an unrecorded revision is never flagged
    assert dataset_pin({"dataset": "org/set", "dataset_revision": "aaa", "dataset_resolved_at": 3}) == DatasetPin(
        "org/set", "aaa", None)


def test_a_row_is_hidden_when_it_has_any_flag_chosen() -> None:
    assert is_hidden("cut_off,few_items", ("few_items",)) and not is_hidden("cut_off", ("few_items",))
    assert not is_hidden(None, ("cut_off",)) and not is_hidden("", ())


def test_about_names_every_board_the_flags_apply_to() -> None:
    about = about_markdown(["Indic QA", "Saraiki"])
    assert "Every benchmark's ranking (Indic QA, Saraiki) flags its rows by the same rules" in about


def test_only_the_few_items_flag_hides_an_interval() -> None:
    assert too_few_items("cut_off,few_items") and not too_few_items("cut_off,other_judge")
    assert not too_few_items(None) and not too_few_items("")
