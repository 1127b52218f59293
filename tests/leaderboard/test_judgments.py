"""Per-item judgment views over the details table the engine wrote."""

from __future__ import annotations

import json

import pandas as pd

from leaderboard.judgments import ItemFilter, filter_choices, filter_items, judgment_items, judgment_view
from leaderboard.results import ResultsStore


def test_items_list_every_item_of_the_run(store: ResultsStore) -> None:
    items = judgment_items(store.details("bharat__partial-1b/main"))
    assert len(items) == 12
    assert filter_choices(items)["language"] == ["Hindi", "Tamil"]
    assert (items["status"] == "no_response").sum() == 3


def test_filters_combine_fields_and_the_score_range(store: ResultsStore) -> None:
    items = judgment_items(store.details("acme__reasoner-3b/main"))
    romanized = filter_items(items, ItemFilter(variant="romanized", language="Hindi"))
    assert set(romanized["variant"]) == {"romanized"} and set(romanized["language"]) == {"Hindi"}
    high = filter_items(items, ItemFilter(score_min=7.0))
    assert not high.empty and (high["item_score"] >= 7.0).all()
    assert len(filter_items(items, ItemFilter(score_min=11.0))) == 0


def test_failed_items_have_no_score_and_are_listed_on_request(store: ResultsStore) -> None:
    items = judgment_items(store.details("flaky__judge-fails-2b/main"))
    failed = items[items["status"] == "failed"]
    assert len(failed) == 3 and failed["item_score"].isna().all()
    assert len(filter_items(items, ItemFilter(include_unscored=False))) == len(items) - 3
    assert len(filter_items(items, ItemFilter())) == len(items)


def test_a_judgment_shows_each_criterion_with_its_rubric(store: ResultsStore) -> None:
    details = store.details("acme__reasoner-3b/main")
    view = judgment_view(details, "Hindi", 1)
    row = details[(details["config"] == "Hindi") & (details["index"] == 1)].iloc[0]
    checklist = json.loads(row["checklist"])
    assert view is not None and view.status == "scored"
    assert view.reasoning.startswith("<think>") and "</think>" not in view.response
    assert len(view.criteria) == 5
    first = view.criteria.iloc[0]
    assert first["criterion"] == checklist[0]["name"]
    assert first["description"] == checklist[0]["criteria_description"]
    assert first["9-10"] == checklist[0]["9-10"]
    assert first["score"] == row["score_1"] and first["reason"] == row["reason_1"]
    assert view.item_score == row["item_score"]


def test_a_failed_criterion_shows_its_error(store: ResultsStore) -> None:
    details = store.details("flaky__judge-fails-2b/main")
    config, index = details.loc[details["status"] == "failed", ["config", "index"]].iloc[0]
    view = judgment_view(details, config, int(index))
    assert view is not None and view.item_score is None
    failed = view.criteria[view.criteria["score"].isna()]
    assert len(failed) == 1 and "gave up after 3 attempts" in failed["error"].item()


def test_an_item_the_run_lacks_has_no_view(store: ResultsStore) -> None:
    assert judgment_view(store.details("bharat__partial-1b/main"), "Bengali", 0) is None
    assert isinstance(store.details("bharat__partial-1b/main"), pd.DataFrame)
