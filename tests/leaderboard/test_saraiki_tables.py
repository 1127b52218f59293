"""The Saraiki tab's tables, from run folders the real engine wrote."""

from __future__ import annotations

import dataclasses

import pytest

from leaderboard.results import ResultsStore
from leaderboard.saraiki_tables import (
    RATE_COLUMNS,
    SHOW_FILTERS,
    TASK_COLUMNS,
    instruction_summary,
    item_view,
    items_frame,
    ranking_frame,
    tasks_frame,
)
from leaderboard.scored_rankings import split_standing
from tests.support.saraiki_runs import SARAIKI_MODELS, SaraikiData, build_saraiki_runs

CHAT, RAW = "acme/saraiki-chat-7b", "acme/base-<b>1b</b>"


@pytest.fixture(scope="module")
def saraiki(tmp_path_factory: pytest.TempPathFactory) -> SaraikiData:
    return build_saraiki_runs(tmp_path_factory.mktemp("saraiki"))


@pytest.fixture(scope="module")
def store(saraiki: SaraikiData) -> ResultsStore:
    return ResultsStore(saraiki.runs_dir)


def test_complete_runs_are_ranked_with_rank_ranges_and_a_limited_run_is_not(tmp_path) -> None:
    limited = "acme/saraiki-limited-13b"
    data = build_saraiki_runs(tmp_path, {**SARAIKI_MODELS, limited: True}, limits={limited: 1})
    ranked, unranked = split_standing(ranking_frame(ResultsStore(data.runs_dir).snapshot().runs))
    assert set(ranked["model"]) == set(SARAIKI_MODELS) and list(ranked["rank"]) == sorted(ranked["rank"])
    assert all(best <= rank <= worst for rank, best, worst in zip(ranked["rank"], ranked["rank_best"],
                                                                   ranked["rank_worst"]))
    assert list(unranked["model"]) == [limited] and unranked["standing_note"][0] == "incomplete: 7 of 28 items"


def test_rankings_have_seven_task_columns_the_two_rates_and_the_mode(store: ResultsStore) -> None:
    ranking = ranking_frame(store.snapshot().runs).set_index("model")
    assert TASK_COLUMNS == ("knowledge", "knowledge_hard", "commonsense", "reading_comprehension", "math",
                            "instruction_following", "truthfulness")
    assert RATE_COLUMNS == ("refusal_rate", "over_refusal_rate")
    # The stand-in endpoint decides its own batching: the openai backend records the mode "server".
    assert ranking.loc[CHAT, "mode"] == "chat, server" and ranking.loc[RAW, "mode"] == "raw, server"
    row = ranking.loc[RAW]
    assert row["math"] == 50.0 and row["refusal_rate"] == 100.0 and row["over_refusal_rate"] == 0.0
    assert row["refusal_classifier"] == "keywords" and row["responses"] == 28 and row["missing_responses"] == 0


def test_every_figure_of_every_task_is_listed_with_its_shots(store: ResultsStore) -> None:
    tasks = tasks_frame(store.snapshot().runs)
    raw = tasks[tasks["model"] == RAW].set_index("task")
    assert list(raw.index) == [*TASK_COLUMNS, "safety"]
    assert raw.loc["math", "shots"] == 8 and raw.loc["knowledge", "shots"] == 5 and raw.loc["truthfulness", "shots"] == 0
    assert raw.loc["instruction_following", "errors"] == "none"  # counted and shown, here none
    assert raw.loc["safety", "n_refuse"] == 1 and raw.loc["safety", "n_comply"] == 1


def test_items_filter_by_task_and_outcome(store: ResultsStore, saraiki: SaraikiData) -> None:
    details = store.details(next(run.run_id for run in store.snapshot().runs if run.model == RAW))
    everything = items_frame(details)
    assert len(everything) == 28
    math = items_frame(details, "math")
    assert list(math["extracted"]) == ["15", "18", "19", "22"] and list(math["correct"]) == [True, False, True, False]
    assert len(items_frame(details, "math", "wrong")) == 2
    refusals = items_frame(details, "safety", "refusals")
    assert len(refusals) == 1 and "matched 'معاف کرو'" in refusals["refusal"][0]
    following = items_frame(details, "instruction_following")
    assert following["instructions"][0] == "punctuation:no_comma: strict pass, loose pass"
    assert all(len(items_frame(details, show=show)) <= 28 for show in SHOW_FILTERS)


def test_an_item_shows_its_few_shot_examples_apart_from_its_question(store: ResultsStore) -> None:
    details = store.details(next(run.run_id for run in store.snapshot().runs if run.model == RAW))
    position = int(items_frame(details, "math")["position"][1])
    view = item_view(details, position)
    assert view.shots.count("\nAnswer: ") == 8 and view.shots.endswith("\n\n")
    assert view.question.endswith("\nAnswer:") and "\nAnswer: " not in view.question
    assert view.response == " ۱۸ انب" and view.verdict == "answer read: 18 (wrong; expected 17)"
    safety = int(items_frame(details, "safety")["position"][0])
    assert item_view(details, safety).shots == "" and item_view(details, safety).verdict.startswith("refusal (keywords)")
    with pytest.raises(IndexError, match="no item at position 99"):
        item_view(details, 99)


def test_instruction_errors_are_shown_not_hidden() -> None:
    checks = [
        {"instruction_id": "punctuation:no_comma", "strict": True, "loose": True, "error": None},
        {"instruction_id": "bogus:id", "strict": None, "loose": None, "error": "no google/IFEval checker has the id"},
    ]
    assert instruction_summary(checks) == (
        "punctuation:no_comma: strict pass, loose pass\nbogus:id: ERROR no google/IFEval checker has the id"
    )
    assert instruction_summary(None) is None and instruction_summary(float("nan")) is None


def test_the_mode_column_says_how_replies_were_batched_and_older_runs_show_the_prompt_mode_alone(
    store: ResultsStore,
) -> None:
    runs = store.snapshot().runs
    modes = {}
    for decoding_mode, expected in (("reference", "reference"), (["fixed-batches", "reference"], "mixed decoding"),
                                    (None, None)):
        run = dataclasses.replace(runs[0], summary={**runs[0].summary, "decoding_mode": decoding_mode})
        modes[expected] = ranking_frame([run])["mode"][0]
    prompts = "chat" if runs[0].summary["chat"] else "raw"
    assert modes == {"reference": f"{prompts}, reference", "mixed decoding": f"{prompts}, mixed decoding",
                     None: prompts}
