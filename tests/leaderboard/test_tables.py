"""The leaderboard table built from real run folders: order, breakdowns, groups, search."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.indic_writing_bench import INDIC_CONFIGS
from leaderboard.results import ResultsStore
from leaderboard.tables import BASE_COLUMNS, TableCache, column_groups, group_members, leaderboard_view, top_n
from tests.support.run_folders import SCRIPT_MODEL_ID, EvaluatedData


def test_rows_are_ranked_by_the_engine_s_overall_score(table: pd.DataFrame, evaluated: EvaluatedData) -> None:
    assert list(table["model"]) == evaluated.ranked_models()
    assert list(table["rank"]) == [1, 2, 3, 4, 5]


def test_language_columns_are_the_summary_config_means(table: pd.DataFrame, evaluated: EvaluatedData) -> None:
    rows = table.set_index("model")
    for model in evaluated.folders:
        for config, score in evaluated.summary(model)["configs"].items():
            assert rows.loc[model, f"config.{config}"] == score
    partial = rows.loc["bharat/partial-1b"]
    assert math.isnan(partial["config.Bengali"]) and math.isnan(partial["config.english_original"])


def test_indic_average_is_the_mean_of_the_indic_config_means(table: pd.DataFrame, evaluated: EvaluatedData) -> None:
    rows = table.set_index("model")
    configs = evaluated.summary("flaky/judge-fails-2b")["configs"]
    indic = [score for config, score in configs.items() if config in INDIC_CONFIGS]
    assert len(indic) == 3  # english_original is left out
    assert rows.loc["flaky/judge-fails-2b", "indic_average"] == pytest.approx(sum(indic) / 3)


def test_robustness_drop_is_the_shortfall_against_native_in_percent(table: pd.DataFrame, evaluated: EvaluatedData) -> None:
    row = table.set_index("model").loc["acme/reasoner-3b"]
    variants = evaluated.summary("acme/reasoner-3b")["variants"]
    for variant in ("code_mixed", "romanized"):
        expected = 100 * (variants["native"] - variants[variant]) / variants["native"]
        assert row[f"drop_{variant}"] == pytest.approx(expected)
        assert row[f"drop_{variant}"] > 0  # the profile answers worse off-script


def test_column_groups_toggle_their_columns(table: pd.DataFrame) -> None:
    groups = column_groups(table)
    assert "config.Hindi" in groups["languages"] and "indic_average" in groups["languages"]
    assert groups["variants"][:3] == ["variant.native", "variant.code_mixed", "variant.romanized"]
    only_domains = leaderboard_view(table, ["domains"])
    assert list(only_domains.columns) == BASE_COLUMNS + groups["domains"]
    assert not any(column.startswith("config.") for column in only_domains.columns)
    assert list(leaderboard_view(table, []).columns) == BASE_COLUMNS


def test_search_matches_any_term_literally_and_ignores_case(table: pd.DataFrame) -> None:
    assert list(leaderboard_view(table, [], "ACME")["model"]) == ["acme/strong-7b", "acme/reasoner-3b"]
    assert set(leaderboard_view(table, [], "partial; flaky")["model"]) == {"bharat/partial-1b", "flaky/judge-fails-2b"}
    assert list(leaderboard_view(table, [], "<script>")["model"]) == [SCRIPT_MODEL_ID]
    assert leaderboard_view(table, [], "a.c.m.e").empty  # not a regular expression
    assert len(leaderboard_view(table, [], "  ")) == len(table)


def test_top_n_keeps_the_best_ranked(table: pd.DataFrame) -> None:
    assert list(top_n(table, 2)["rank"]) == [1, 2]
    assert len(top_n(table, 50)) == len(table)


def test_group_members_follow_the_benchmark_order(table: pd.DataFrame) -> None:
    assert group_members(table, "config") == ["Bengali", "Hindi", "Tamil", "english_original"]
    assert group_members(table, "variant") == ["native", "code_mixed", "romanized"]


def test_the_cached_table_is_rebuilt_only_when_the_results_change(evaluated_copy: Path) -> None:
    store, cache = ResultsStore(evaluated_copy, reuse_s=0), TableCache()
    first = cache.table(store.snapshot())
    assert cache.table(store.snapshot()) is first
    summary_path = next(evaluated_copy.glob("acme__strong-7b/*/summary.json"))
    summary = json.loads(summary_path.read_text())
    summary["overall"] = 0.5
    summary_path.write_text(json.dumps(summary))
    rebuilt = cache.table(store.snapshot())
    assert rebuilt is not first
    assert rebuilt.set_index("model").loc["acme/strong-7b", "overall"] == 0.5
