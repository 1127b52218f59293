"""One answer's criteria as text blocks: score, what it asks, the judge's reason, every rubric band."""

from __future__ import annotations

import json

from eval_backend.benchmarks.indic_writing_bench import BANDS
from leaderboard.judgments import judgment_view
from leaderboard.results import ResultsStore
from leaderboard.tabs.judgment_panel import criteria_text


def test_each_criterion_reads_as_one_block_with_its_rubric(store: ResultsStore) -> None:
    details = store.details("acme__reasoner-3b/main")
    view = judgment_view(details, "Hindi", 1)
    assert view is not None
    row = details[(details["config"] == "Hindi") & (details["index"] == 1)].iloc[0]
    checklist = json.loads(row["checklist"])
    blocks = criteria_text(view.criteria).split("\n\n")
    assert len(blocks) == 5
    first = blocks[0].splitlines()
    assert first[0] == f"1. {checklist[0]['name']}: {int(row['score_1'])}/10"
    assert f"   Judge's reason: {row['reason_1']}" in first
    assert [line for line in first if line.startswith("   Rubric ")] == [
        f"   Rubric {band}: {checklist[0][band]}" for band in BANDS]
    assert "Judge error" not in blocks[0]  # only a failed criterion has one


def test_a_failed_criterion_says_no_score_and_why(store: ResultsStore) -> None:
    details = store.details("flaky__judge-fails-2b/main")
    config, index = details.loc[details["status"] == "failed", ["config", "index"]].iloc[0]
    view = judgment_view(details, config, int(index))
    assert view is not None
    failed = [block for block in criteria_text(view.criteria).split("\n\n") if ": no score" in block.splitlines()[0]]
    assert len(failed) == 1 and "Judge error: " in failed[0] and "gave up after 3 attempts" in failed[0]
