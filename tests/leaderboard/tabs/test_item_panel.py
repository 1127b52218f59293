"""One answer's scored parts as blocks (WritingBench's criteria: score, what it asks, the judge's reason, the rubric
folded), read from the details the engine wrote through WritingBench's declared item view."""

from __future__ import annotations

import dataclasses
import html
import json
import re

import pandas as pd

from eval_backend.benchmarks.writing_bench.item_board import ITEM_FILTERS, item_view
from eval_backend.benchmarks.writing_bench.items import BANDS
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import ALL, groups, item_groupings, items_frame
from leaderboard.tabs.item_panel import parts_html

SECTION = re.compile(r'<section class="criterion">(.*?)</section>', re.S)


def _row(details: pd.DataFrame, config: str, index: int) -> dict:
    return details[(details["config"] == config) & (details["index"] == index)].iloc[0].to_dict()


def test_each_criterion_reads_as_one_block_with_its_rubric_folded(store: ResultsStore) -> None:
    row = _row(store.details("acme__reasoner-3b/main"), "Hindi", 1)
    checklist = json.loads(row["checklist"])
    view = item_view(row)
    assert view.reasoning.startswith("<think>") and "</think>" not in view.response
    assert view.verdict == f"scored, item score {row['item_score']:.2f}"
    blocks = SECTION.findall(parts_html(view.parts))
    assert len(blocks) == 5
    first = blocks[0]
    assert first.startswith(f'<h4 dir="auto">1. {html.escape(checklist[0]["name"])}: {int(row["score_1"])}/10</h4>')
    assert f"<strong>Asks:</strong> {html.escape(checklist[0]['criteria_description'])}</p>" in first
    assert f"<strong>Judge&#x27;s reason:</strong> {html.escape(row['reason_1'])}</p>" in first
    rubric = first.split("<details><summary>Rubric</summary>", 1)[1]
    assert re.findall(r"<strong>(.*?):</strong>", rubric) == list(BANDS)
    assert "Judge error" not in first  # only a failed criterion has one


def test_a_failed_criterion_says_no_score_and_why(store: ResultsStore) -> None:
    details = store.details("flaky__judge-fails-2b/main")
    config, index = details.loc[details["status"] == "failed", ["config", "index"]].iloc[0]
    view = item_view(_row(details, config, int(index)))
    assert view.verdict == "failed, item score none"
    failed = [block for block in SECTION.findall(parts_html(view.parts)) if ": no score</h4>" in block]
    assert len(failed) == 1 and "Judge error:" in failed[0] and "gave up after 3 attempts" in failed[0]


def test_judge_text_is_escaped_never_markup(store: ResultsStore) -> None:
    view = item_view(_row(store.details("acme__reasoner-3b/main"), "Hindi", 1))
    reason = dataclasses.replace(view.parts[0], lines=(("Judge's reason", "<img src=x onerror=alert(1)>"),))
    shown = parts_html((reason,))
    assert "&lt;img src=x onerror=alert(1)&gt;" in shown and "<img" not in shown


def test_items_list_every_item_of_the_run_with_its_filters(store: ResultsStore) -> None:
    details = store.details("bharat__partial-1b/main")
    items = items_frame(details, INDIC_WRITING_BENCH)
    assert len(items) == 12 and (items["status"] == "no_response").sum() == 3
    assert [field.name for field in item_groupings(INDIC_WRITING_BENCH)] == ["config", "variant", "domain", "subdomain"]
    assert groups(details, INDIC_WRITING_BENCH) == [ALL, "Hindi", "Tamil"]


def test_filters_combine_fields_and_the_score_bands(store: ResultsStore) -> None:
    details = store.details("acme__reasoner-3b/main")
    romanized = items_frame(details, INDIC_WRITING_BENCH, where={"variant": "romanized", "config": "Hindi"})
    assert not romanized.empty and set(romanized["variant"]) == {"romanized"} and set(romanized["config"]) == {"Hindi"}
    high = items_frame(details, INDIC_WRITING_BENCH, show=ITEM_FILTERS[2].label)
    assert not high.empty and (high["item_score"] >= 7.0).all()


def test_failed_items_have_no_score_and_are_listed_on_their_own(store: ResultsStore) -> None:
    details = store.details("flaky__judge-fails-2b/main")
    unscored = items_frame(details, INDIC_WRITING_BENCH, show=ITEM_FILTERS[-1].label)
    assert len(unscored) == 3 and set(unscored["status"]) == {"failed"} and unscored["item_score"].isna().all()
    banded = sum(len(items_frame(details, INDIC_WRITING_BENCH, show=band.label)) for band in ITEM_FILTERS[:-1])
    assert banded == len(details) - 3  # every scored item is in exactly one band
