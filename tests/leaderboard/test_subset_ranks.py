"""A ranking on chosen groups ranks the subset (#42 item 2): its order, figure, interval and rank range are the
subset's, from one joint bootstrap of the ranked runs on the subset's items, for any benchmark and breakdown;
WritingBench's on the one tab every benchmark has (`scored_tables.ranking_of` with `chosen_subset`)."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.joint_ranking import aligned_figure
from eval_backend.run_folder import RunFolder
from eval_backend.statistics import joint_bootstrap
from leaderboard.joint_ranks import JOINT_RULE
from leaderboard.ranking_query import RankingQuery, kept_rows
from leaderboard.results import ResultsStore
from leaderboard.scored_rankings import RANKED, SUBSET_COLUMN, split_standing
from leaderboard.scored_tables import chosen_subset, ranking_frame, ranking_of, subset_breakdowns, subset_line
from leaderboard.subset_ranks import Subset, subset_ranks
from tests.support.qa_runs import QA_PROFILES, QaProfile, build_qa_runs
from tests.support.run_folders import EvaluatedData

WRITING_BENCH = BENCHMARKS["indic_writing_bench"]
LONG_ID = "indic-research-collective/" + "shahmukhi-devanagari-tamil-bengali-long-model-name-" + "x" * 23
assert len(LONG_ID) == 100


def _ranked_on(evaluated: EvaluatedData, ticked: Mapping[str, Sequence[str]]) -> pd.DataFrame:
    """WritingBench's ranking as its tab ranks it with these groups ticked (by item field: `config`, `variant`)."""
    chosen = [tuple(ticked.get(breakdown.item_field, ())) for breakdown in subset_breakdowns(WRITING_BENCH)]
    snapshot = ResultsStore(evaluated.runs_dir).snapshot()
    return ranking_of(snapshot, WRITING_BENCH, "", chosen_subset(WRITING_BENCH, chosen))


def test_a_subset_is_ranked_by_its_own_figure_interval_and_rank_range(evaluated: EvaluatedData) -> None:
    whole = ranking_frame(ResultsStore(evaluated.runs_dir).snapshot().runs, WRITING_BENCH)
    ranking = _ranked_on(evaluated, {"config": ("Hindi",), "variant": ("romanized",)})
    rows = split_standing(ranking)[0]
    # The figure is the subset's: each run's Hindi x romanized score as its summary has it.
    expected = {model: evaluated.summary(model)["config_variants"]["Hindi"]["romanized"]
                for model in evaluated.ranked_models()}
    assert dict(zip(rows["model"], rows[SUBSET_COLUMN])) == pytest.approx(expected)
    assert list(rows[SUBSET_COLUMN]) == sorted(expected.values(), reverse=True)
    assert list(rows["rank"]) == [1, 2, 3] and set(rows["rank_rule"]) == {JOINT_RULE}
    # Interval and rank range: a joint bootstrap of exactly the Hindi romanized items of every ranked run.
    aligned = aligned_figure([RunFolder(evaluated.runs_dir / run_id) for run_id in rows["run_id"]], "indic")
    details = pd.read_parquet(RunFolder(evaluated.runs_dir / rows["run_id"][0]).details_path)
    variant = details.set_index(["config", "index"])["variant"]
    mask = np.array([config == "Hindi" and variant[(config, index)] == "romanized"
                     for config, index in zip(aligned.configs, aligned.indexes)])
    assert 0 < mask.sum() < len(mask)
    joint = joint_bootstrap(aligned.values[:, mask], aligned.design.subset(mask))
    assert list(rows["ci_low"]) == pytest.approx(list(joint.low))
    assert list(rows["ci_high"]) == pytest.approx(list(joint.high))
    assert list(rows["rank_best"]) == list(joint.rank_best) and list(rows["rank_worst"]) == list(joint.rank_worst)
    assert (rows["ci_low"] <= rows[SUBSET_COLUMN]).all() and (rows[SUBSET_COLUMN] <= rows["ci_high"]).all()
    # Not the Indic average's interval, and the unranked runs follow, without a subset rank.
    indic_low = whole.set_index("run_id").loc[rows["run_id"], "ci_low"].tolist()
    assert rows["ci_low"].tolist() != pytest.approx(indic_low)
    assert list(ranking["standing"][len(rows):]) and ranking["rank"][len(rows):].isna().all()


def test_a_search_shows_each_row_s_rank_on_the_whole_subset_ranking(evaluated: EvaluatedData) -> None:
    ranking = _ranked_on(evaluated, {"config": ("Hindi", "Tamil")})
    every = split_standing(ranking)[0]
    last = every.iloc[-1]
    searched = ranking[kept_rows(ranking, RankingQuery(search=last["model"], ranked_on=(("Hindi", "Tamil"),)))]
    assert searched["model"].tolist() == [last["model"]]
    assert (searched["rank"].iloc[0], searched["rank_best"].iloc[0]) == (last["rank"], last["rank_best"])
    assert searched[SUBSET_COLUMN].iloc[0] == last[SUBSET_COLUMN]


def test_the_footnote_says_what_is_ranked(evaluated: EvaluatedData) -> None:
    subset = Subset((("config", ("Hindi", "Tamil")), ("variant", ("romanized",))))
    ranking = _ranked_on(evaluated, dict(subset.groups))
    line = subset_line(WRITING_BENCH, subset, ranking)
    assert "on the chosen groups (Hindi, Tamil; romanized) alone" in line and "the subset's" in line
    assert subset_line(WRITING_BENCH, None, ranking) == ""  # the standard ranking: its rule is the tab's own


def test_the_footnote_names_the_figure_as_the_benchmark_labels_it(evaluated: EvaluatedData) -> None:
    """"Indic" is a name: the line once read "Ranked by the Indic average on the chosen subset", and QA's labels
    ("Judge accuracy") read well either way."""
    subset = Subset((("config", ("Hindi",)),))
    line = subset_line(WRITING_BENCH, subset, _ranked_on(evaluated, dict(subset.groups)))
    assert line.startswith("Ranked by the Indic average on the chosen groups (Hindi) alone"), line


def test_a_subset_without_items_of_the_figure_is_not_ranked_and_says_so(evaluated: EvaluatedData) -> None:
    english = {"config": ("english_original",)}  # not in the Indic average: nothing to resample
    subset = chosen_subset(WRITING_BENCH, [english["config"], (), ()])
    snapshot = ResultsStore(evaluated.runs_dir).snapshot()
    whole = ranking_of(snapshot, WRITING_BENCH)
    assert subset_ranks(whole, snapshot.runs, whole["standing"].eq(RANKED), WRITING_BENCH.item_statistics(),
                        "indic", subset).empty
    ranking = _ranked_on(evaluated, english)
    assert SUBSET_COLUMN not in ranking
    pd.testing.assert_frame_equal(ranking, whole)  # the standard ranking, ...
    assert subset_line(WRITING_BENCH, subset, ranking).startswith(  # ... and the line says why
        "**Not ranked on the chosen groups** (english-original)")


@pytest.fixture(scope="module")
def qa_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    profiles = (*QA_PROFILES, QaProfile(LONG_ID, lambda question, golden: golden if len(question) % 3 else "no idea"))
    return build_qa_runs(tmp_path_factory.mktemp("qa-subset"), profiles).runs_dir


def test_any_benchmark_ranks_a_subset_of_any_breakdown(qa_runs: Path) -> None:
    runs = ResultsStore(qa_runs).snapshot().runs
    table = ranking_frame(runs, INDIC_QA)
    ranked = table["standing"].eq(RANKED)
    domain = str(pd.read_parquet(runs[0].folder.details_path)["domain"].iloc[0])
    subset = Subset((("domain", (domain,)),))
    frame = subset_ranks(table, runs, ranked, INDIC_QA.item_statistics(), "judge", subset)
    assert set(frame["run_id"]) == set(table.loc[ranked, "run_id"]) and LONG_ID in set(table["model"])
    # Each run's figure is its judge accuracy on that domain's items alone, from its own details.
    for run in runs:
        details = pd.read_parquet(run.folder.details_path)
        chosen = details[details["domain"] == domain]
        own = 100.0 * chosen["judge_correct"].astype(float).mean()
        assert frame.set_index("run_id").loc[run.run_id, "subset_average"] == pytest.approx(own)
    assert (frame["rank_best"] <= frame["rank_worst"]).all()
    nothing = subset_ranks(table, runs, ranked, INDIC_QA.item_statistics(), "judge",
                           Subset((("domain", ("no such domain",)),)))
    assert nothing.empty
