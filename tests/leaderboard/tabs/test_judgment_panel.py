"""One answer's criteria as blocks: score, what it asks, the judge's reason, the rubric folded."""

from __future__ import annotations

import html
import json
import re

from eval_backend.benchmarks.writing_bench.items import BANDS
from leaderboard.judgments import judgment_view
from leaderboard.results import ResultsStore
from leaderboard.tabs.judgment_panel import criteria_html

SECTION = re.compile(r'<section class="criterion">(.*?)</section>', re.S)


def test_each_criterion_reads_as_one_block_with_its_rubric_folded(store: ResultsStore) -> None:
    details = store.details("acme__reasoner-3b/main")
    view = judgment_view(details, "Hindi", 1)
    assert view is not None
    row = details[(details["config"] == "Hindi") & (details["index"] == 1)].iloc[0]
    checklist = json.loads(row["checklist"])
    blocks = SECTION.findall(criteria_html(view.criteria))
    assert len(blocks) == 5
    first = blocks[0]
    assert first.startswith(f'<h4 dir="auto">1. {html.escape(checklist[0]["name"])}: {int(row["score_1"])}/10</h4>')
    assert f"<strong>Judge's reason:</strong> {html.escape(row['reason_1'])}</p>" in first
    rubric = first.split("<details><summary>Rubric</summary>", 1)[1]
    assert re.findall(r"<strong>(.*?):</strong>", rubric) == list(BANDS)
    assert "Judge error" not in first  # only a failed criterion has one


def test_a_failed_criterion_says_no_score_and_why(store: ResultsStore) -> None:
    details = store.details("flaky__judge-fails-2b/main")
    config, index = details.loc[details["status"] == "failed", ["config", "index"]].iloc[0]
    view = judgment_view(details, config, int(index))
    assert view is not None
    failed = [block for block in SECTION.findall(criteria_html(view.criteria)) if ": no score</h4>" in block]
    assert len(failed) == 1 and "Judge error:" in failed[0] and "gave up after 3 attempts" in failed[0]


def test_judge_text_is_escaped_never_markup(store: ResultsStore) -> None:
    view = judgment_view(store.details("acme__reasoner-3b/main"), "Hindi", 1)
    assert view is not None
    criteria = view.criteria.copy()
    criteria.loc[0, "reason"] = "<img src=x onerror=alert(1)>"
    assert "&lt;img src=x onerror=alert(1)&gt;" in criteria_html(criteria) and "<img" not in criteria_html(criteria)
