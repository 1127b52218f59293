"""Any scored benchmark's tables from its declarations, on run folders the real engine wrote (QA, Saraiki, the toy)."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from leaderboard.joint_ranks import JOINT_RULE
from leaderboard.results import ResultsStore
from leaderboard.row_flags import FEW_ITEMS_INTERVAL
from leaderboard.scored_rankings import split_standing
from leaderboard.scored_tables import (
    breakdown_frame,
    groups,
    item_filters,
    item_labels,
    item_view,
    items_frame,
    labels,
    ranking_frame,
    shown_ranking,
    tab_id,
)
from tests.support.qa_runs import QA_PROFILES, QaData, QaProfile, build_qa_runs
from tests.support.saraiki_runs import SARAIKI_MODELS, SaraikiData, build_saraiki_runs
from tests.support.toy_runs import LONG_ID, TRANSLATOR, build_toy_runs
from tests.support.toy_translation import registered

WEAK, SCRIPT = "acme/weak-1b", "evil-org/<script>alert(1)</script>"
CHAT, RAW = "acme/saraiki-chat-7b", "acme/base-<b>1b</b>"


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    data: QaData = build_qa_runs(tmp_path_factory.mktemp("qa"))
    return ResultsStore(data.runs_dir)


@pytest.fixture(scope="module")
def saraiki(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    data: SaraikiData = build_saraiki_runs(tmp_path_factory.mktemp("saraiki"))
    return ResultsStore(data.runs_dir)


def details_of(store: ResultsStore, model: str):
    return store.details(next(run.run_id for run in store.snapshot().runs if run.model == model))


def test_the_ranking_puts_the_headline_first_in_its_direction_with_every_metric(qa: ResultsStore) -> None:
    ranking = ranking_frame(qa.snapshot().runs, INDIC_QA)
    assert set(ranking["model"][:2]) == {"acme/strong-7b", "acme/reasoner-3b"}  # both 100 % under the judge
    weak = ranking.set_index("model").loc[WEAK]
    assert weak["blank_responses"] == 4 and weak["judge"] == 0.0 and weak["items"] == 9
    assert weak["exact"] == pytest.approx(100 * 5 / 9)  # "It is not X" contains X: exact counts it
    assert labels(INDIC_QA)["judge"] == "Judge accuracy %" and labels(SARAIKI)["over_refusal_rate"].endswith("% ↓")


def test_runs_on_one_dataset_revision_get_rank_ranges_from_the_joint_bootstrap_and_a_limited_run_none(
    tmp_path: Path,
) -> None:
    limited = QaProfile("acme/limited-<i>13b</i>", QA_PROFILES[0].answer)
    data = build_qa_runs(tmp_path, (*QA_PROFILES[:3], limited), limits={limited.model_id: 1})
    ranked, unranked = split_standing(ranking_frame(ResultsStore(data.runs_dir).snapshot().runs, INDIC_QA))
    assert set(ranked["model"][:2]) == {"acme/strong-7b", "acme/reasoner-3b"} and ranked["model"][2] == WEAK
    assert list(ranked["rank"]) == [1, 1, 3]  # equal judge accuracy shares the rank
    # The same answers to the same items: the two hold rank 1 in every replicate; 0 % is surely last.
    assert list(zip(ranked["rank_best"], ranked["rank_worst"])) == [(1, 1), (1, 1), (3, 3)]
    assert set(ranked["rank_rule"]) == {JOINT_RULE}
    # The limited run answered its 3 questions right, yet is listed apart, never ranked above the others.
    assert list(unranked["model"]) == [limited.model_id] and unranked["judge"][0] == 100.0
    assert unranked["standing_note"][0] == "incomplete: 3 of 9 items"
    assert "rank" not in unranked and "standing_note" not in ranked


def test_saraiki_ranks_on_knowledge_with_each_task_apart_and_its_mode(tmp_path: Path) -> None:
    limited = "acme/saraiki-limited-13b"
    data = build_saraiki_runs(tmp_path, {**SARAIKI_MODELS, limited: True}, limits={limited: 1})
    ranking = ranking_frame(ResultsStore(data.runs_dir).snapshot().runs, SARAIKI)
    ranked, unranked = split_standing(ranking)
    assert set(ranked["model"]) == set(SARAIKI_MODELS) and list(ranked["rank"]) == sorted(ranked["rank"])
    assert all(best <= rank <= worst for rank, best, worst in zip(ranked["rank"], ranked["rank_best"],
                                                                   ranked["rank_worst"]))
    assert list(unranked["model"]) == [limited] and unranked["standing_note"][0] == "incomplete: 7 of 28 items"
    row = ranking.set_index("model").loc[RAW]
    assert row["prompts"] == "raw" and row["decoding_mode"] == "server"  # an endpoint batches as it likes
    assert row["math"] == 50.0 and row["refusal_rate"] == 100.0
    assert row["over_refusal_rate"] == 0.0 and row["items"] == 28 and row["missing_responses"] == 0


def test_the_screen_shows_rank_model_headline_rank_range_and_interval_first(qa: ResultsStore) -> None:
    shown = shown_ranking(ranking_frame(qa.snapshot().runs, INDIC_QA), INDIC_QA)
    assert list(shown.columns[:6]) == ["rank", "model", "judge", "rank_range", "interval", "flags"]
    weak = shown.set_index("model").loc[WEAK]
    # Three questions per language: its interval ("0.0 – 0.0") means nothing, so it is not shown as a number.
    assert weak["rank_range"] == "3" and weak["interval"] == FEW_ITEMS_INTERVAL and weak["flags"] == "few_items"


def test_breakdowns_by_language_and_domain_with_the_headlines_interval(qa: ResultsStore) -> None:
    runs = qa.snapshot().runs
    language, domain = INDIC_QA.board.breakdowns
    languages = breakdown_frame(runs, INDIC_QA, language)
    strong = languages[languages["model"] == "acme/strong-7b"].set_index("language")
    assert sorted(strong.index) == ["english", "hindi", "tamil"] and set(strong["judge"]) == {100.0}
    assert set(strong["interval"]) == {"100.0 – 100.0"}  # per config, from the summary's config intervals
    assert {"Art", "History", "Geography", "Language", "Literature"} == set(breakdown_frame(runs, INDIC_QA, domain)["domain"])


def test_saraikis_tasks_list_every_figure_with_its_shots(saraiki: ResultsStore) -> None:
    tasks = breakdown_frame(saraiki.snapshot().runs, SARAIKI, SARAIKI.board.breakdowns[0])
    raw = tasks[tasks["model"] == RAW].set_index("task")
    assert list(raw.index) == ["knowledge", "knowledge_hard", "commonsense", "reading_comprehension", "math",
                               "instruction_following", "truthfulness", "safety"]
    assert raw.loc["math", "shots"] == 8 and raw.loc["knowledge", "shots"] == 5 and raw.loc["truthfulness", "shots"] == 0
    assert raw.loc["instruction_following", "errors"] == "none"  # counted and shown, here none
    assert raw.loc["safety", "n_refuse"] == 1 and raw.loc["safety", "n_comply"] == 1


def test_qa_items_read_in_words_filter_by_language_and_verdict(qa: ResultsStore) -> None:
    details = details_of(qa, WEAK)
    everything = items_frame(details, INDIC_QA)
    assert list(everything.columns) == list(item_labels(INDIC_QA)) and len(everything) == 9
    assert list(item_labels(INDIC_QA).values()) == ["Item", "Language", "Question", "Golden answer", "Answer",
                                                     "Length (characters)", "Judge", "Exact", "Overlap", "Judge's reason"]
    lengths = [float(len(text)) if isinstance(text, str) else None for text in details["response"]]
    assert everything["answer_length"].astype(object).where(everything["answer_length"].notna(), None).tolist() == lengths
    assert None in lengths  # an item without an answer has no length, never 0
    blanks = items_frame(details, INDIC_QA, show="blank")
    assert len(blanks) == 4 and set(blanks["judge_reason"]) == {"blank response"} and set(blanks["judge_verdict"]) == {"wrong"}
    hindi_wrong = items_frame(details, INDIC_QA, "hindi", "judge wrong")
    assert set(hindi_wrong["config"]) == {"hindi"} and list(hindi_wrong["item"]) == [
        f"hindi:{index}" for index in details[(details["config"] == "hindi") & ~details["judge_correct"].astype(bool)]["index"]]
    assert groups(details, INDIC_QA) == ["all", "english", "hindi", "tamil"]
    assert all(len(items_frame(details, INDIC_QA, show=name)) <= 9 for name in item_filters(INDIC_QA))
    with pytest.raises(ValueError, match="unknown filter"):
        items_frame(details, INDIC_QA, show="nonsense")


def test_saraiki_items_filter_by_task_and_the_opened_one_is_the_one_its_key_names(saraiki: ResultsStore) -> None:
    details = details_of(saraiki, RAW)
    assert len(items_frame(details, SARAIKI)) == 28
    math = items_frame(details, SARAIKI, "math")
    assert list(math["extracted"]) == ["15", "18", "19", "22"] and list(math["correct"]) == ["right", "wrong", "right",
                                                                                              "wrong"]
    wrong = items_frame(details, SARAIKI, "math", "wrong")
    assert len(wrong) == 2
    config, index = wrong["item"][0].split(":")
    view = item_view(details, SARAIKI, config, int(index))  # the first of the filtered list, by its key
    assert view is not None and view.verdict == "answer read: 18 (wrong; expected 17)"
    assert view.shots.count("\nAnswer: ") == 8 and view.question.endswith("\nAnswer:")
    refusals = items_frame(details, SARAIKI, "safety", "refusals")
    assert len(refusals) == 1 and "matched 'معاف کرو'" in refusals["refusal"][0]
    assert items_frame(details, SARAIKI, "instruction_following")["instructions"][0] == (
        "punctuation:no_comma: strict pass, loose pass")
    assert item_view(details, SARAIKI, "math", 99) is None


def test_a_benchmark_that_declares_no_board_gets_every_table_by_default(tmp_path: Path) -> None:
    data = build_toy_runs(tmp_path)
    with registered() as toy:
        store = ResultsStore(data.runs_dir)
        runs = store.snapshot().runs
        assert tab_id(toy) == "toy_translation" and labels(toy)["chrf"] == "chrF (score 0–100)"
        ranked, unranked = split_standing(ranking_frame(runs, toy))
        assert list(ranked["model"]) == [LONG_ID, TRANSLATOR, "acme/echo-1b"] and list(ranked["rank"]) == [1, 2, 3]
        assert set(ranked["rank_rule"]) == {JOINT_RULE} and len(unranked) == 1
        languages = breakdown_frame(runs, toy, toy.board.breakdowns[0])
        assert set(languages[languages["model"] == TRANSLATOR]["adequacy"]) == {100.0, 0.0}
        details = details_of(store, TRANSLATOR)
        items = items_frame(details, toy, "tamil")
        assert list(item_labels(toy).values()) == ["Item", "Config", "Source", "Reference", "Answer",
                                                   "Length (characters)", "Adequacy", "chrF",
                                                   "Adequacy reason"]
        assert list(items["item"]) == ["tamil:0", "tamil:1", "tamil:2"] and set(items["adequacy"]) == {0.0}
        view = item_view(details, toy, "hindi", 0)
        assert view is not None and view.question == "source: The river is wide.\nreference: नदी चौड़ी है।"
        assert view.verdict.startswith("Adequacy: 100.0\nchrF: 100.0\n")
