"""The QA tab's tables and figures, from run folders the real engine wrote."""

from __future__ import annotations

import pytest

from leaderboard.qa_figures import accuracy_bars, language_heatmap
from leaderboard.qa_tables import VERDICT_FILTERS, breakdown_frame, items_frame, language_matrix, ranking_frame
from leaderboard.results import ResultsStore
from leaderboard.scored_rankings import split_standing
from tests.support.qa_runs import QA_PROFILES, QaData, QaProfile, build_qa_runs


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QaData:
    return build_qa_runs(tmp_path_factory.mktemp("qa"))


@pytest.fixture(scope="module")
def store(qa: QaData) -> ResultsStore:
    return ResultsStore(qa.runs_dir)


def test_rankings_put_the_best_judge_accuracy_first_with_every_scorer(store: ResultsStore) -> None:
    ranking = ranking_frame(store.snapshot().runs)
    assert set(ranking["model"][:2]) == {"acme/strong-7b", "acme/reasoner-3b"}  # both 100 % under the judge
    weak = ranking.set_index("model").loc["acme/weak-1b"]
    assert weak["blank_responses"] == 4 and weak["judge"] == 0.0 and weak["n"] == 9
    assert weak["exact"] == pytest.approx(100 * 5 / 9)  # "It is not X" contains X: exact counts it


def test_complete_runs_are_ranked_with_rank_ranges_and_a_limited_run_is_not(tmp_path) -> None:
    limited = QaProfile("acme/limited-<i>13b</i>", QA_PROFILES[0].answer)
    data = build_qa_runs(tmp_path, (*QA_PROFILES[:3], limited), limits={limited.model_id: 1})
    ranking = ranking_frame(ResultsStore(data.runs_dir).snapshot().runs)
    ranked, unranked = split_standing(ranking)
    assert set(ranked["model"][:2]) == {"acme/strong-7b", "acme/reasoner-3b"} and ranked["model"][2] == "acme/weak-1b"
    assert list(ranked["rank"]) == [1, 1, 3]  # equal judge accuracy shares the rank
    # 100 % twice, with nothing to resample apart: the two share ranks 1-2; 0 % is surely last.
    assert list(zip(ranked["rank_best"], ranked["rank_worst"])) == [(1, 2), (1, 2), (3, 3)]
    # The limited run answered its 3 questions right, yet is listed apart, never ranked above the others.
    assert list(unranked["model"]) == [limited.model_id] and unranked["judge"][0] == 100.0
    assert unranked["standing_note"][0] == "incomplete: 3 of 9 items"
    assert "rank" not in unranked and "standing_note" not in ranked


def test_breakdowns_by_language_and_by_domain(store: ResultsStore) -> None:
    runs = store.snapshot().runs
    languages = breakdown_frame(runs, "language")
    strong = languages[languages["model"] == "acme/strong-7b"].set_index("language")
    assert sorted(strong.index) == ["english", "hindi", "tamil"] and set(strong["judge"]) == {100.0}
    assert strong.loc["english", "n"] == 4
    domains = breakdown_frame(runs, "domain")
    assert {"Art", "History", "Geography", "Language", "Literature"} == set(domains["domain"])
    matrix = language_matrix(runs)
    assert matrix.loc["acme/strong-7b", "tamil"] == 100.0
    # Rows in ranking order: equal judge accuracy (0 %) falls back to exact substring.
    assert list(matrix.index[2:]) == ["acme/weak-1b", "evil-org/<script>alert(1)</script>"]


def test_the_item_list_shows_each_verdict_and_the_judges_reason_with_filters(store: ResultsStore) -> None:
    run_id = next(run.run_id for run in store.snapshot().runs if run.model == "acme/weak-1b")
    details = store.details(run_id)
    everything = items_frame(details)
    assert len(everything) == 9
    assert {"exact_correct", "overlap_correct", "judge_correct", "judge_reason"} <= set(everything)
    blanks = items_frame(details, verdict="blank")
    assert len(blanks) == 4 and set(blanks["judge_reason"]) == {"blank response"}
    hindi_wrong = items_frame(details, language="hindi", verdict="judge wrong")
    assert set(hindi_wrong["config"]) == {"hindi"} and not hindi_wrong["judge_correct"].any()
    assert all(len(items_frame(details, verdict=name)) <= 9 for name in VERDICT_FILTERS)
    with pytest.raises(ValueError, match="unknown verdict filter"):
        items_frame(details, verdict="nonsense")


def test_figures_escape_model_ids_and_draw_an_empty_state(store: ResultsStore) -> None:
    runs = store.snapshot().runs
    bars = accuracy_bars(ranking_frame(runs))
    labels = [label for trace in bars.data for label in trace.y]
    assert any("&lt;script&gt;" in label for label in labels) and not any("<script>" in label for label in labels)
    assert len(bars.data) == 3
    heatmap = language_heatmap(language_matrix(runs))
    assert not any("<script>" in label for label in heatmap.data[0].y)
    assert accuracy_bars(ranking_frame(())).layout.annotations[0].text == "No QA results yet."
