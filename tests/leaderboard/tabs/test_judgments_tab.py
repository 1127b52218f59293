"""The judgments tab's item list (filtered, and capped with a label that says so) and its model choices."""

from __future__ import annotations

import re

import pytest

from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from eval_backend.run_folder import recorded_items
from eval_backend.settings import Settings
from leaderboard.context import AppContext
from leaderboard.judgments import ItemFilter
from leaderboard.results import ResultsStore
from leaderboard.writing_bench_tables import TableCache
from leaderboard.tabs import judgments_tab
from leaderboard.tabs.judgments_tab import ITEMS_LABEL, items_table, model_choices
from tests.support.run_folders import EvaluatedData

RUN_ID = "acme__strong-7b/main"


def test_every_matching_item_is_listed_under_the_cap(store: ResultsStore, evaluated: EvaluatedData) -> None:
    update = items_table(store, RUN_ID, ItemFilter(language="Hindi"))
    assert update["label"] == ITEMS_LABEL
    recorded = recorded_items(INDIC_WRITING_BENCH, evaluated.folders["acme/strong-7b"])
    hindi = [item for item in recorded if item.language == "Hindi"]
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
    total = len(recorded_items(INDIC_WRITING_BENCH, evaluated.folders["acme/strong-7b"]))
    assert len(update["value"]["data"]) == 5
    assert f"the first 5 of the {total} that match" in update["label"]


def test_a_link_s_models_are_chosen_when_the_board_has_them(store: ResultsStore, tmp_path) -> None:
    context = AppContext(Settings(), store, tmp_path, None, None, TableCache())  # the choices read only the store
    linked = model_choices(context, "acme__reasoner-3b/main", "acme__strong-7b/main")
    assert (linked.model["value"], linked.compare["value"]) == ("acme__reasoner-3b/main", "acme__strong-7b/main")
    unknown = model_choices(context, "../../etc", "nobody__nothing/main")
    assert (unknown.model["value"], unknown.compare["value"]) == (RUN_ID, "")  # the best-ranked run, no comparison
    assert ("(none)", "") in unknown.compare["choices"] and len(unknown.model["choices"]) == len(store.snapshot().runs)
