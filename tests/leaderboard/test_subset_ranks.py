"""A ranking on chosen groups ranks the subset (#42 item 2): its order, figure, interval and rank range are the
subset's, from one joint bootstrap of the ranked runs on the subset's items, for any benchmark and breakdown."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.joint_ranking import aligned_figure
from eval_backend.run_folder import RunFolder
from eval_backend.statistics import joint_bootstrap
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import ranking_frame
from leaderboard.scored_rankings import RANKED
from leaderboard.subset_ranks import Subset, subset_ranks
from leaderboard.writing_bench_tables import BoardQuery, TableCache, query_rows, ranked_rows, subset_rule
from tests.support.qa_runs import QA_PROFILES, QaProfile, build_qa_runs
from tests.support.run_folders import EvaluatedData

LONG_ID = "indic-research-collective/" + "shahmukhi-devanagari-tamil-bengali-long-model-name-" + "x" * 23
assert len(LONG_ID) == 100


def test_a_subset_is_ranked_by_its_own_figure_interval_and_rank_range(evaluated: EvaluatedData) -> None:
    store, tables = ResultsStore(evaluated.runs_dir), TableCache()
    snapshot = store.snapshot()
    query = BoardQuery(languages=("Hindi",), variants=("romanized",))
    rows = ranked_rows(query_rows(tables.table(snapshot), query, tables.subset(snapshot, query)))
    # The figure is the subset's: each run's Hindi x romanized score as its summary has it.
    expected = {model: evaluated.summary(model)["config_variants"]["Hindi"]["romanized"]
                for model in evaluated.ranked_models()}
    assert dict(zip(rows["model"], rows["subset_average"])) == pytest.approx(expected)
    assert list(rows["subset_average"]) == sorted(expected.values(), reverse=True)
    assert list(rows["rank"]) == [1, 2, 3]
    # Interval and rank range: a joint bootstrap of exactly the Hindi romanized items of every ranked run.
    aligned = aligned_figure([RunFolder(evaluated.runs_dir / run_id) for run_id in rows["run_id"]], "indic")
    details = pd.read_parquet(RunFolder(evaluated.runs_dir / rows["run_id"][0]).details_path)
    variant = details.set_index(["config", "index"])["variant"]
    mask = np.array([config == "Hindi" and variant[(config, index)] == "romanized"
                     for config, index in zip(aligned.configs, aligned.indexes)])
    assert 0 < mask.sum() < len(mask)
    joint = joint_bootstrap(aligned.values[:, mask], aligned.design.subset(mask))
    assert list(rows["subset_ci_low"]) == pytest.approx(list(joint.low))
    assert list(rows["subset_ci_high"]) == pytest.approx(list(joint.high))
    assert list(rows["rank_best"]) == list(joint.rank_best) and list(rows["rank_worst"]) == list(joint.rank_worst)
    assert (rows["subset_ci_low"] <= rows["subset_average"]).all()
    assert (rows["subset_average"] <= rows["subset_ci_high"]).all()
    assert rows["subset_ci_low"].tolist() != rows["indic_ci_low"].tolist()  # not the Indic average's


def test_a_search_shows_each_row_s_rank_on_the_whole_subset_ranking(evaluated: EvaluatedData) -> None:
    store, tables = ResultsStore(evaluated.runs_dir), TableCache()
    snapshot = store.snapshot()
    query = BoardQuery(languages=("Hindi", "Tamil"))
    every = ranked_rows(query_rows(tables.table(snapshot), query, tables.subset(snapshot, query)))
    last = every.iloc[-1]
    searched = query_rows(tables.table(snapshot), BoardQuery(search=last["model"], languages=("Hindi", "Tamil")),
                          tables.subset(snapshot, query))
    assert searched["model"].tolist() == [last["model"]]
    assert (searched["rank"].iloc[0], searched["rank_best"].iloc[0]) == (last["rank"], last["rank_best"])


def test_the_footnote_says_what_is_ranked() -> None:
    assert "Hindi, Tamil; romanized" in subset_rule(("Hindi", "Tamil"), ("romanized",))
    assert "the subset's" in subset_rule(("Hindi",))
    assert subset_rule((), ()).startswith("Ranked by the Indic average")


def test_a_subset_without_items_of_the_figure_has_no_interval_or_rank_range(evaluated: EvaluatedData) -> None:
    store, tables = ResultsStore(evaluated.runs_dir), TableCache()
    snapshot = store.snapshot()
    english = BoardQuery(languages=("english_original",))  # not in the Indic average: nothing to resample
    assert tables.subset(snapshot, english).empty
    rows = ranked_rows(query_rows(tables.table(snapshot), english, tables.subset(snapshot, english)))
    assert "rank_best" not in rows and "subset_ci_low" not in rows
    assert list(rows["subset_average"]) == sorted(rows["config.english_original"], reverse=True)


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
