"""A model's page: one model at one revision on every benchmark, its ranks, flags, provenance and links."""

from __future__ import annotations

import dataclasses

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from leaderboard.benchmark_ranks import benchmark_ranks
from leaderboard.model_page import BenchmarkStanding, board_models, model_page
from leaderboard.overview import grouped_by_model
from leaderboard.results import ResultsStore, RunResult
from leaderboard.scored_tables import ranking_frame
from tests.support.run_folders import SCRIPT_MODEL_ID, EvaluatedData

import pandas as pd


def boards(evaluated: EvaluatedData) -> list[BenchmarkStanding]:
    runs = ResultsStore(evaluated.runs_dir).snapshot().runs
    benchmark = BENCHMARKS[DEFAULT_BENCHMARK]
    return [BenchmarkStanding(benchmark, runs, benchmark_ranks(benchmark, ranking_frame(runs, benchmark)))]


def test_the_page_gives_rank_interval_breakdowns_provenance_and_links(evaluated: EvaluatedData) -> None:
    page = model_page("acme/strong-7b", "", boards(evaluated))
    summary = evaluated.summary("acme/strong-7b")
    assert page.startswith("## acme\\/strong\\-7b @ main") and "[Hub page](https://huggingface.co/acme/strong-7b)" in page
    assert f"{summary['config_groups']['indic']:.2f}" in page and "**Rank:** 1 of 3" in page
    assert "?tab=leaderboard&model=acme__strong-7b%2Fmain&config=Hindi" in page  # a language's score: its items
    assert "judge stand\\-in\\-judge" in page and "precision bfloat16" in page and "**Flags:** none" in page


def test_an_unranked_run_says_why_and_a_script_id_stays_text(evaluated: EvaluatedData) -> None:
    assert "not ranked (partial\\: 2 of 4 configs)" in model_page("bharat/partial-1b", "", boards(evaluated))
    page = model_page(SCRIPT_MODEL_ID, "", boards(evaluated))
    assert "<script>" not in page and "\\<script\\>" in page and "no Hub page" in page


def at_revision(run: RunResult, revision: str, created_at: str) -> RunResult:
    """`run` as if evaluated again at `revision`, at `created_at`."""
    provenance = {**run.provenance, "created_at": created_at}
    return dataclasses.replace(run, run_id=f"{run.run_id.split('/')[0]}/{revision}",
                               request={**run.request, "revision": revision}, summary={**run.summary, "provenance": provenance})


def test_a_bare_model_link_shows_main_else_the_newest_revision(evaluated: EvaluatedData) -> None:
    [board] = boards(evaluated)
    main = next(run for run in board.runs if run.model == "acme/strong-7b")
    newer = at_revision(main, "0123456789abcdef0123456789abcdef01234567", "2999-01-01T00:00:00Z")
    with_main = dataclasses.replace(board, runs=[*board.runs, newer])
    assert model_page("acme/strong-7b", "", [with_main]).startswith("## acme\\/strong\\-7b @ main")
    assert "@ 0123456" in model_page("acme/strong-7b", newer.revision, [with_main])  # `&revision=` still opens it
    tags = [at_revision(main, "v1", "2998-01-01T00:00:00Z"), at_revision(main, "v2", "2999-01-01T00:00:00Z")]
    without_main = dataclasses.replace(board, runs=tags)
    assert model_page("acme/strong-7b", "", [without_main]).startswith("## acme\\/strong\\-7b @ v2")


def test_a_model_the_board_does_not_have_is_said_so() -> None:
    assert "No such model" in model_page("nobody/<b>x</b>", "v1", [])
    assert "<b>" not in model_page("nobody/<b>x</b>", "v1", [])


def test_the_overview_lists_a_model_s_revisions_together() -> None:
    frame = pd.DataFrame({"model": ["a/x", "b/y", "A/x"], "revision": ["main", "main", "v2"]})
    assert list(zip(grouped_by_model(frame)["model"], grouped_by_model(frame)["revision"])) == [
        ("a/x", "main"), ("A/x", "v2"), ("b/y", "main")]


def test_counts_read_as_whole_numbers_and_a_rules_only_run_names_no_judge(evaluated: EvaluatedData) -> None:
    [board] = boards(evaluated)
    run = next(run for run in board.runs if run.model == "acme/strong-7b")
    qa = BENCHMARKS["indic_qa"]
    counted = dataclasses.replace(run, summary={**run.summary, "metrics": {"judge": 61.25, "blank_responses": 3, "n": 33},
                                                "usage": {"calls": 0}})
    ranks = benchmark_ranks(qa, ranking_frame([counted], qa))
    page = model_page("acme/strong-7b", "", [BenchmarkStanding(qa, [counted], ranks)])
    assert "| 33 |" in page and "33.00" not in page, "an item count is a whole number"
    assert "| 3 |" in page and "| 61.2 |" in page, "a count metric is whole, a percentage keeps its decimals"
    assert "judge none called" in page and "stand\\-in\\-judge" not in page, "no judge named where none was asked"
    assert "judge stand\\-in\\-judge" in model_page("acme/strong-7b", "", [board]), "a judged run names its judge"


def test_the_picker_lists_every_model_once_whatever_its_case_or_benchmarks(evaluated: EvaluatedData) -> None:
    [board] = boards(evaluated)
    run = board.runs[0]
    shouted = dataclasses.replace(run, request={**run.request, "model": run.model.upper()}, run_id="other")
    models = board_models({"a": board.runs, "b": [shouted]})
    assert sorted(models, key=str.lower) == models and len(models) == len({r.model.lower() for r in board.runs})
    assert SCRIPT_MODEL_ID in models, "an id is listed as it is (the dropdown shows it as text)"
