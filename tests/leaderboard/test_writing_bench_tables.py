"""The leaderboard table built from real run folders: ranking rule, breakdowns, groups, search, the license and
open-weights filters, ranking on chosen languages and variants."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS, VARIANTS
from leaderboard.results import ResultsStore
from leaderboard.scored_rankings import INCOMPLETE, PARTIAL, RANKED, rank_ranges
from leaderboard.writing_bench_tables import (
    BASE_COLUMNS,
    DEFAULT_GROUPS,
    ENGLISH_COLUMNS,
    BoardQuery,
    TableCache,
    base_columns,
    cell_column,
    chosen_variants,
    column_groups,
    group_members,
    language_variant_frame,
    leaderboard_view,
    license_choices,
    model_matches,
    model_type,
    query_rows,
    ranked_rows,
    standing_frame,
    subdomain_frame,
    table_for_runs,
    top_n,
    unranked_rows,
)
from tests.support.run_folders import SCRIPT_MODEL_ID, EvaluatedData


def test_complete_runs_are_ranked_by_the_indic_average(table: pd.DataFrame, evaluated: EvaluatedData) -> None:
    ranked = ranked_rows(table)
    assert list(ranked["model"]) == evaluated.ranked_models() and len(ranked) == 3
    assert list(ranked["rank"]) == [1, 2, 3]
    assert list(ranked["indic_average"]) == sorted(ranked["indic_average"], reverse=True)
    assert "overall" in table  # the all-config mean stays, as a secondary column


def test_partial_and_incomplete_runs_are_listed_apart_labelled_and_unranked(table: pd.DataFrame) -> None:
    assert list(table["standing"]) == [RANKED] * 3 + [PARTIAL, INCOMPLETE]  # never interleaved
    unranked = unranked_rows(table).set_index("model")
    assert unranked.loc["bharat/partial-1b", "standing_note"] == "partial: 2 of 4 configs"
    assert unranked.loc["flaky/judge-fails-2b", "standing_note"] == "incomplete: 21 of 24 items"
    assert unranked["rank"].isna().all() and unranked["rank_best"].isna().all()
    assert list(top_n(table, 50)["standing"]) == [RANKED] * 3


def test_coverage_counts_come_from_the_summary(table: pd.DataFrame, evaluated: EvaluatedData) -> None:
    rows = table.set_index("model")
    partial = rows.loc["bharat/partial-1b"]
    assert (partial["covered_items"], partial["expected_items"], partial["no_response_items"]) == (12, 12, 3)
    assert rows.loc["flaky/judge-fails-2b", "failed_items"] == 3
    assert rows.loc["acme/reasoner-3b", "unclosed_thinking"] == 0


def test_rank_ranges_follow_the_intervals_as_chatbot_arena_computes_them() -> None:
    low = pd.Series([8.0, 7.5, 5.0, 5.5])
    high = pd.Series([9.0, 8.5, 6.0, 7.6])
    assert rank_ranges(low, high) == ([1, 1, 3, 2], [2, 3, 4, 4])
    apart = rank_ranges(pd.Series([9.0, 7.0, 5.0]), pd.Series([9.5, 7.5, 5.5]))
    assert apart == ([1, 2, 3], [1, 2, 3])  # no overlap: each range is one rank


def test_ranked_rows_carry_a_rank_range_around_their_rank(table: pd.DataFrame) -> None:
    ranked = ranked_rows(table)
    assert ((ranked["rank_best"] <= ranked["rank"]) & (ranked["rank"] <= ranked["rank_worst"])).all()
    assert (ranked["indic_ci_low"] <= ranked["indic_average"]).all()
    assert (ranked["indic_average"] <= ranked["indic_ci_high"]).all()


def test_a_summary_from_before_coverage_is_unranked_until_scored_again(evaluated_copy: Path) -> None:
    summary_path = next(evaluated_copy.glob("acme__strong-7b/*/summary.json"))
    summary = json.loads(summary_path.read_text())
    for key in ("coverage", "complete", "config_group_ci"):
        summary.pop(key)
    summary_path.write_text(json.dumps(summary))
    rows = table_for_runs(ResultsStore(evaluated_copy).snapshot().runs).set_index("model")
    assert rows.loc["acme/strong-7b", "standing"] == INCOMPLETE
    assert "score the run again" in rows.loc["acme/strong-7b", "standing_note"]


def test_rows_on_an_older_dataset_revision_are_flagged(evaluated_copy: Path) -> None:
    request_path = next(evaluated_copy.glob("acme__strong-7b/*/request.json"))
    request = json.loads(request_path.read_text())
    request.update(dataset_revision="sha256:newer", dataset_resolved_at="2999-01-01T00:00:00+00:00")
    request_path.write_text(json.dumps(request))
    frame = standing_frame(ResultsStore(evaluated_copy).snapshot().runs).set_index("run_id")
    newer = next(run_id for run_id in frame.index if run_id.startswith("acme__strong-7b/"))
    assert not frame.loc[newer, "dataset_outdated"]
    assert frame.drop(index=newer)["dataset_outdated"].all()


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
    assert "config.Hindi" in groups["languages"] and "config.english_original" not in groups["languages"]
    assert {"indic_average", *ENGLISH_COLUMNS, "overall"} <= set(BASE_COLUMNS)
    assert groups["variants"][:3] == ["variant.native", "variant.code_mixed", "variant.romanized"]
    only_domains = leaderboard_view(table, ["domains"])
    assert list(only_domains.columns) == base_columns(table) + groups["domains"]
    assert "config.english_original" in base_columns(table)
    assert "config.indian_english" not in base_columns(table)  # no run has it
    assert not any(column.startswith("config.") and column not in ENGLISH_COLUMNS for column in only_domains.columns)
    assert list(leaderboard_view(table, []).columns) == base_columns(table)


def test_search_matches_any_term_literally_and_ignores_case(table: pd.DataFrame) -> None:
    assert set(leaderboard_view(table, [], "ACME")["model"]) == {"acme/strong-7b", "acme/reasoner-3b"}
    assert set(leaderboard_view(table, [], "partial; flaky")["model"]) == {"bharat/partial-1b", "flaky/judge-fails-2b"}
    assert list(leaderboard_view(table, [], "<script>")["model"]) == [SCRIPT_MODEL_ID]
    assert leaderboard_view(table, [], "a.c.m.e").empty  # not a regular expression
    assert len(leaderboard_view(table, [], "  ")) == len(table)


def test_a_search_over_no_models_is_a_mask_that_combines_with_others() -> None:
    """A benchmark with no runs yet is searched too (a shared link names one): the mask stays boolean."""
    nobody = pd.Series([], dtype="string")
    matched = model_matches(nobody, "ਸਰਾਇਕੀ; acme")
    assert matched.dtype == bool and (matched & ~pd.Series([], dtype=bool)).empty


def test_top_n_keeps_the_best_ranked(table: pd.DataFrame) -> None:
    assert list(top_n(table, 2)["rank"]) == [1, 2]
    assert len(top_n(table, 50)) == len(ranked_rows(table))


def test_language_by_rendering_and_subdomain_scores_are_read_from_the_summaries(
    store: ResultsStore, evaluated: EvaluatedData
) -> None:
    runs = store.snapshot().runs
    by_variant = language_variant_frame(runs)
    strong = next(run for run in runs if run.model == "acme/strong-7b")
    mine = by_variant[by_variant["run_id"] == strong.run_id].set_index(["config", "variant"])["score"]
    expected = evaluated.summary("acme/strong-7b")["config_variants"]
    assert mine.to_dict() == {(c, v): score for c, variants in expected.items() for v, score in variants.items()}
    subdomains = subdomain_frame(runs)
    assert (subdomains["domain"] != "").all()
    row = subdomains[subdomains["run_id"] == strong.run_id].iloc[0]
    assert evaluated.summary("acme/strong-7b")["subdomains"][f"{row['domain']} / {row['subdomain']}"] == row["score"]


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


def test_the_model_type_comes_from_what_the_request_recorded() -> None:
    assert model_type({"reasoning": True, "generation": {"chat": True}}) == "reasoning"
    assert model_type({"generation": {"chat": True}}) == "chat"
    assert model_type({"reasoning": False, "generation": {"chat": False}}) == "base"
    assert model_type({}) == "" and model_type({"generation": "chat"}) == ""


def test_the_license_filter_keeps_the_chosen_licenses_and_unknown_only_when_chosen(table: pd.DataFrame) -> None:
    assert license_choices(table) == ["apache-2.0", "mit", "other:acme-research", "unknown"]  # "unknown" last
    chosen = query_rows(table, BoardQuery(licenses=("apache-2.0", "mit")))
    assert set(chosen["model"]) == {"acme/strong-7b", "bharat/partial-1b"}
    unknown = query_rows(table, BoardQuery(licenses=("unknown",)))
    assert set(unknown["model"]) == {"flaky/judge-fails-2b", SCRIPT_MODEL_ID}  # nothing recorded: the CLI's runs
    assert len(query_rows(table, BoardQuery())) == len(table)  # none chosen: every license, unknown included


def test_open_weights_only_keeps_the_runs_known_to_have_them(table: pd.DataFrame) -> None:
    opened = query_rows(table, BoardQuery(open_weights_only=True))
    assert set(opened["model"]) == {"acme/strong-7b", "bharat/partial-1b"}  # gated: out; unknown: out
    assert list(ranked_rows(opened)["rank"]) == [1]  # a filter keeps the standard ranks of what it shows
    both = query_rows(table, BoardQuery(open_weights_only=True, licenses=("mit",)))
    assert list(both["model"]) == ["bharat/partial-1b"]


def test_the_metadata_group_shows_license_and_open_weights_and_is_not_shown_by_default(table: pd.DataFrame) -> None:
    assert column_groups(table)["metadata"] == ["license", "open_weights"]
    assert "metadata" not in DEFAULT_GROUPS
    assert "license" not in leaderboard_view(table, DEFAULT_GROUPS).columns
    assert list(leaderboard_view(table, ["metadata"]).columns[-2:]) == ["license", "open_weights"]


def cell_mean(evaluated: EvaluatedData, model: str, languages: list[str], variants: list[str]) -> float:
    """The mean of a run's language x variant scores as summary.json has them."""
    cells = evaluated.summary(model)["config_variants"]
    return sum(cells[language][variant] for language in languages for variant in variants) / (
        len(languages) * len(variants))


def test_ranking_on_chosen_variants_averages_each_language_s_score_in_them(
    table: pd.DataFrame, evaluated: EvaluatedData
) -> None:
    indic = [name for name in INDIC_CONFIGS if f"config.{name}" in table]
    ranked = ranked_rows(query_rows(table, BoardQuery(variants=("romanized",))))
    expected = {model: cell_mean(evaluated, model, indic, ["romanized"]) for model in evaluated.ranked_models()}
    assert dict(zip(ranked["model"], ranked["subset_average"])) == pytest.approx(expected)
    assert list(ranked["subset_average"]) == sorted(expected.values(), reverse=True)
    assert list(ranked["rank"]) == [1, 2, 3] and "rank_best" not in ranked  # no rank range for a subset
    subset = ranked_rows(query_rows(table, BoardQuery(languages=("Hindi", "Tamil"), variants=("native", "code_mixed"))))
    assert dict(zip(subset["model"], subset["subset_average"])) == pytest.approx(
        {model: cell_mean(evaluated, model, ["Hindi", "Tamil"], ["native", "code_mixed"])
         for model in evaluated.ranked_models()})


def test_every_variant_chosen_is_the_same_as_none_chosen(table: pd.DataFrame) -> None:
    assert chosen_variants(VARIANTS) == () and chosen_variants(["romanized", "Klingon"]) == ("romanized",)
    pd.testing.assert_frame_equal(query_rows(table, BoardQuery(variants=VARIANTS)), query_rows(table, BoardQuery()))
    languages = query_rows(table, BoardQuery(languages=("Hindi",), variants=VARIANTS))
    hindi = query_rows(table, BoardQuery(languages=("Hindi",)))
    assert list(languages["subset_average"]) == list(hindi["subset_average"])


def test_cell_columns_are_hidden_from_every_column_group(table: pd.DataFrame) -> None:
    assert cell_column("Hindi", "native") in table
    shown = {column for columns in column_groups(table).values() for column in columns}
    assert not any(column.startswith("cell.") for column in shown)
