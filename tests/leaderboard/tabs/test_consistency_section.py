"""The About tab's judge consistency: every checked run's re-judged pairs, pooled per judge model."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.consistency import CONSISTENCY_FILE, check_consistency, pair_agreement, read_reports
from eval_backend.run_folder import RunFolder
from eval_backend.settings import JudgeSettings
from leaderboard.consistency_view import consistency_frame
from leaderboard.results import ResultsStore
from leaderboard.tabs.consistency_section import LABELS, consistency_table
from tests.support.chat_server import StandInChatServer, noisy_judge_reply
from tests.support.run_folders import JUDGE_MODEL, quality_score

CHECKED = ("acme__strong-7b/main", "bharat__partial-1b/main")


@pytest.fixture
def checked_runs(evaluated_copy: Path) -> Path:
    """Two runs re-judged by the run's noisy judge, and by a second, clean judge; one run with a broken report."""
    reply = noisy_judge_reply(quality_score, noise=0.5, seed=1, noisy_models={JUDGE_MODEL})
    with StandInChatServer(reply) as server:
        for model in (JUDGE_MODEL, "second-judge"):
            settings = JudgeSettings(model=model, base_url=server.base_url, api_key="stand-in", max_backoff_s=0.05)
            for run_id in CHECKED:
                check_consistency(BENCHMARKS[DEFAULT_BENCHMARK], RunFolder(evaluated_copy / run_id), settings, 12)
    (evaluated_copy / "flaky__judge-fails-2b" / "main" / CONSISTENCY_FILE).write_text('{"judge_models": [1]}')
    return evaluated_copy


def test_pairs_are_pooled_over_runs_per_judge_model(checked_runs: Path) -> None:
    frame = consistency_frame(ResultsStore(checked_runs).snapshot().runs).set_index("judge_model")
    assert sorted(frame.index) == sorted([JUDGE_MODEL, "second-judge"])
    for model in frame.index:
        pairs = [pair for run_id in CHECKED for pair in read_reports(RunFolder(checked_runs / run_id))[model].pairs]
        expected = pair_agreement(pairs)
        row = frame.loc[model]
        assert (row["runs"], row["pairs"], row["reference_judge_model"]) == (2, 24, JUDGE_MODEL)
        assert row["exact_agreement"] == pytest.approx(expected.exact)
        assert row["mean_abs_diff"] == pytest.approx(expected.mean_abs_diff)
        assert row["spearman"] == pytest.approx(expected.spearman)
    # acme/strong-7b writes better than bharat/partial-1b: a clean judge keeps that order.
    assert frame.loc["second-judge", "ranking_spearman"] == pytest.approx(1.0)


def test_the_table_is_labelled_and_an_unreadable_report_is_left_out(checked_runs: Path, tmp_path: Path) -> None:
    update = consistency_table({DEFAULT_BENCHMARK: ResultsStore(checked_runs), "indic_qa": ResultsStore(tmp_path)})
    assert list(update["value"].columns) == list(LABELS.values())
    assert len(update["value"]) == 2 and update["label"] == "Judge consistency"
    # Each row names its benchmark (a judge's scale is its benchmark's); a benchmark with no check has no row.
    assert set(update["value"]["Benchmark"]) == {BENCHMARKS[DEFAULT_BENCHMARK].title}


def test_without_checks_the_table_says_so(evaluated_copy: Path) -> None:
    update = consistency_table({DEFAULT_BENCHMARK: ResultsStore(evaluated_copy)})
    assert update["value"].empty and update["label"] == "No run has been checked yet"
    assert list(update["value"].columns) == list(LABELS.values())
