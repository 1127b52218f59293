"""Rank ranges from the joint bootstrap for runs on the shared revision; the overlap rule for the others.

WritingBench's ranking as every benchmark's is built (`scored_tables.ranking_frame`): `indic` is its headline and
`ci_low`, `ci_high` the headline's interval."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.joint_ranking import joint_ranking
from eval_backend.run_folder import RunFolder
from leaderboard.joint_ranks import JOINT_RULE, OVERLAP_RULE
from leaderboard.results import ResultsStore
from leaderboard.scored_rankings import RANKED, rank_ranges
from leaderboard.scored_tables import ranking_frame
from tests.support.run_folders import CONFIGS, EvaluatedData, ModelProfile, build_evaluated_data


def _ranked(runs_dir: Path) -> pd.DataFrame:
    table = ranking_frame(ResultsStore(runs_dir).snapshot().runs, BENCHMARKS["indic_writing_bench"])
    return table[table["standing"] == RANKED].reset_index(drop=True)


def test_runs_on_one_revision_take_their_rank_ranges_from_the_joint_bootstrap(evaluated: EvaluatedData) -> None:
    ranked = _ranked(evaluated.runs_dir)
    assert set(ranked["rank_rule"]) == {JOINT_RULE}
    joint = joint_ranking([RunFolder(evaluated.runs_dir / run_id) for run_id in ranked["run_id"]], "indic")
    assert ranked["rank_best"].tolist() == joint.rank_best.tolist()
    assert ranked["rank_worst"].tolist() == joint.rank_worst.tolist()
    assert ((ranked["rank_best"] <= ranked["rank"]) & (ranked["rank"] <= ranked["rank_worst"])).all()


def test_a_run_on_another_revision_keeps_the_overlap_rule(evaluated_copy: Path) -> None:
    before = _ranked(evaluated_copy)
    moved = before["run_id"].iloc[-1]
    request_path = evaluated_copy / moved / "request.json"
    request = json.loads(request_path.read_text())
    request_path.write_text(json.dumps({**request, "dataset_revision": "sha256:another"}))

    ranked = _ranked(evaluated_copy)
    rules = dict(zip(ranked["run_id"], ranked["rank_rule"]))
    assert rules.pop(moved) == OVERLAP_RULE and set(rules.values()) == {JOINT_RULE}
    overlap_best, overlap_worst = rank_ranges(ranked["ci_low"], ranked["ci_high"])
    outsider = ranked.index[ranked["run_id"] == moved][0]
    assert (ranked.loc[outsider, "rank_best"], ranked.loc[outsider, "rank_worst"]) == (
        overlap_best[outsider], overlap_worst[outsider])
    shared = ranked[ranked["run_id"] != moved]
    joint = joint_ranking([RunFolder(evaluated_copy / run_id) for run_id in shared["run_id"]], "indic")
    # The outsider, far below the others here, is surely worse: the shared runs' ranges do not move.
    assert (ranked.loc[outsider, "ci_high"] < shared["ci_low"]).all()
    assert shared["rank_best"].tolist() == joint.rank_best.tolist()
    assert shared["rank_worst"].tolist() == joint.rank_worst.tolist()


def test_a_run_without_its_per_item_table_alone_keeps_the_overlap_rule(evaluated: EvaluatedData,
                                                                         tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    shutil.copytree(evaluated.runs_dir, runs)
    removed = _ranked(runs)["run_id"].iloc[0]
    (runs / removed / "details.parquet").unlink()
    after = _ranked(runs)
    rules = dict(zip(after["run_id"], after["rank_rule"]))
    assert rules.pop(removed) == OVERLAP_RULE and set(rules.values()) == {JOINT_RULE}
    overlap_best, overlap_worst = rank_ranges(after["ci_low"], after["ci_high"])
    outsider = after.index[after["run_id"] == removed][0]
    assert (after.loc[outsider, "rank_best"], after.loc[outsider, "rank_worst"]) == (
        overlap_best[outsider], overlap_worst[outsider])
    others = after[after["run_id"] != removed]
    joint = joint_ranking([RunFolder(runs / run_id) for run_id in others["run_id"]], "indic")
    # The best run left the joint bootstrap: it is surely better than the others, whose ranges shift by one.
    assert (after.loc[outsider, "ci_low"] > others["ci_high"]).all()
    assert others["rank_best"].tolist() == (joint.rank_best + 1).tolist()
    assert others["rank_worst"].tolist() == (joint.rank_worst + 1).tolist()


def test_a_figure_on_one_cluster_per_config_keeps_the_overlap_rule_and_every_rank(tmp_path: Path) -> None:
    """Issue 40: with one request per language every replicate redraws the same items, so the joint bootstrap's
    ranks have width 0; no run may read a rank range from it."""
    long_id = "indic-nlp-collective/" + "sarvam-हिन्दी-தமிழ்-বাংলা-".ljust(79, "x")
    profiles = (ModelProfile(long_id, 9), ModelProfile("acme/mid-3b", 6), ModelProfile("acme/low-1b", 3))
    one_each = build_evaluated_data(tmp_path, profiles, {name: 1 for name in CONFIGS})
    ranked = _ranked(one_each.runs_dir)
    assert len(ranked) == 3 and set(ranked["rank_rule"]) == {OVERLAP_RULE}
    assert ranked["ci_low"].isna().all(), "a figure on one cluster per config has no interval"
    assert ranked["rank_best"].tolist() == [1, 1, 1] and ranked["rank_worst"].tolist() == [3, 3, 3]
