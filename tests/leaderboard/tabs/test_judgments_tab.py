"""The judgments tab's item list: filtered, and capped with a label that says so."""

from __future__ import annotations

import re

import pytest

from leaderboard.judgments import ItemFilter
from leaderboard.results import ResultsStore
from leaderboard.tabs import judgments_tab
from leaderboard.tabs.judgments_tab import ITEMS_LABEL, items_table
from tests.support.run_folders import EvaluatedData

RUN_ID = "acme__strong-7b/main"


def test_every_matching_item_is_listed_under_the_cap(store: ResultsStore, evaluated: EvaluatedData) -> None:
    update = items_table(store, RUN_ID, ItemFilter(language="Hindi"))
    assert update["label"] == ITEMS_LABEL
    hindi = [item for item in evaluated.folders["acme/strong-7b"].read_items() if item.language == "Hindi"]
    assert len(update["value"]["data"]) == len(hindi)
    score = update["value"]["headers"].index("Item score")
    shown = [row[score] for row in update["value"]["metadata"]["display_value"]]
    assert all(re.fullmatch(r"\d+\.\d\d", text) for text in shown)  # "8.60", never "8.6"
    assert all(isinstance(row[score], float) for row in update["value"]["data"])  # the grid sorts numbers


def test_past_the_cap_the_label_says_how_many_match(
    store: ResultsStore, evaluated: EvaluatedData, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(judgments_tab, "MAX_LISTED", 5)
    update = items_table(store, RUN_ID, ItemFilter())
    total = len(evaluated.folders["acme/strong-7b"].read_items())
    assert len(update["value"]["data"]) == 5
    assert f"the first 5 of the {total} that match" in update["label"]
