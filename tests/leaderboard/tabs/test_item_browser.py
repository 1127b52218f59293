"""The item browser: the models it offers whatever a link chose meanwhile, what a link asks of it (its own
address, a score link's, the Judgments tab's former one), an item in full beside another model's answer."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.settings import Settings
from leaderboard.context import AppContext
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import ALL
from eval_backend.run_folder import recorded_items
from leaderboard.tabs import item_browser
from leaderboard.tabs.item_browser import (
    ITEMS_LABEL,
    ItemLink,
    linked_line,
    model_updates,
    paired_comparison,
    read_item_link,
    render_item,
    render_items,
)
from tests.support.qa_runs import build_qa_runs
from tests.support.run_folders import EvaluatedData

WRITING_BENCH = BENCHMARKS[DEFAULT_BENCHMARK]
STRONG, REASONER = "acme__strong-7b/main", "acme__reasoner-3b/main"


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory, store: ResultsStore) -> AppContext:
    qa = ResultsStore(build_qa_runs(tmp_path_factory.mktemp("qa")).runs_dir)
    downloads = tmp_path_factory.mktemp("downloads")
    return AppContext(Settings(), downloads, None, None,
                      {INDIC_QA.name: qa, WRITING_BENCH.name: store})


def model_update(context: AppContext, current: str | None, query: str = "") -> dict:
    return model_updates(context, INDIC_QA, current, None, query)[0]


def runs_on_board(context: AppContext) -> list[str]:
    return [run_id for _, run_id in model_update(context, None)["choices"]]


def test_a_refresh_leaves_a_model_on_the_board_as_it_is_and_only_refreshes_the_choices(context: AppContext) -> None:
    # The refresh was asked for with the model shown then; a link may have chosen another since: sending a value
    # back would put the older one over it.
    runs = runs_on_board(context)
    update = model_update(context, runs[-1], urlencode({"tab": "qa", "model": runs[0]}))
    assert "value" not in update
    assert [run_id for _, run_id in update["choices"]] == runs


def test_with_no_model_on_the_board_a_refresh_shows_the_linked_run_else_the_first_ranked(context: AppContext) -> None:
    runs = runs_on_board(context)
    assert len(runs) > 2
    assert model_update(context, None)["value"] == runs[0]
    assert model_update(context, "org/gone", urlencode({"tab": "qa", "model": runs[2]}))["value"] == runs[2]
    assert model_update(context, None, urlencode({"tab": "saraiki", "model": runs[2]}))["value"] == runs[0]
    assert model_update(context, None, urlencode({"tab": "qa", "model": "org/not-a-run"}))["value"] == runs[0]


def test_a_compared_run_that_left_the_board_is_no_longer_compared(context: AppContext) -> None:
    runs = runs_on_board(context)
    assert "value" not in model_updates(context, INDIC_QA, runs[0], runs[1], "")[1]
    assert model_updates(context, INDIC_QA, runs[0], "org/gone", "")[1]["value"] == ""


def test_the_judgments_tab_s_links_open_writing_bench_s_items(context: AppContext) -> None:
    # Both forms the Judgments tab wrote: a score link's and the tab's own parameters.
    link = read_item_link(context, WRITING_BENCH, urlencode(
        {"tab": "judgments", "model": STRONG, "compare": REASONER, "item": "Hindi:3", "language": "Hindi",
         "variant": "native", "score_min": "2.5"}))
    assert link == ItemLink(STRONG, REASONER, "Hindi:3", ("Hindi", "native", ALL, ALL))
    own = read_item_link(context, WRITING_BENCH, urlencode(
        {"tab": "judgments", "judgments_model": REASONER, "judgments_item": "Tamil:2"}))
    assert (own.model, own.compare, own.item) == (REASONER, None, "Tamil:2")
    assert read_item_link(context, WRITING_BENCH, urlencode(
        {"tab": "leaderboard", "leaderboard_model": STRONG, "config": "Tamil"})).filters[0] == "Tamil"


@pytest.mark.parametrize("model", ["", "nobody__nothing/main", "../../etc", "/advescape-test",
                                   "acme__strong-7b/../../..", "acme__strong-7b"])
def test_a_link_to_no_run_of_the_board_names_no_model(context: AppContext, model: str) -> None:
    link = read_item_link(context, WRITING_BENCH, urlencode(
        {"tab": "judgments", "model": model, "compare": "../../etc"}))
    assert link.model is None and link.compare is None


def test_a_run_is_not_compared_with_itself_and_another_tab_s_link_asks_nothing(context: AppContext) -> None:
    assert read_item_link(context, WRITING_BENCH, urlencode(
        {"tab": "judgments", "model": STRONG, "compare": STRONG})).compare is None
    assert read_item_link(context, WRITING_BENCH, urlencode(
        {"tab": "qa", "model": STRONG})) == ItemLink(None, None, "", (ALL, ALL, ALL, ALL))


def test_an_item_reads_as_the_judgments_tab_did_beside_the_compared_model_s(context: AppContext) -> None:
    opened = render_item(context, WRITING_BENCH, STRONG, REASONER, "Hindi:1")
    assert opened is not None and opened.header.startswith("Hindi #1 · Hindi-0001 · ")
    assert opened.question  # the query, read from the run's dataset
    (first_label, first), (second_label, second) = opened.views
    assert first_label.startswith("acme/strong-7b") and second_label.startswith("acme/reasoner-3b")
    assert "acme/strong-7b writes about Hindi-0001" in first.response
    assert "acme/reasoner-3b writes about Hindi-0001" in second.response
    assert len(first.parts) == 5 and first.parts[0].heading.endswith("/10")
    assert render_item(context, WRITING_BENCH, STRONG, None, "Hindi:99999") is None  # a link's missing item


def test_the_paired_line_compares_the_items_listed_and_names_both_models(context: AppContext) -> None:
    everything = paired_comparison(context, WRITING_BENCH, STRONG, REASONER, ALL, (ALL, ALL, ALL, ALL))
    hindi = paired_comparison(context, WRITING_BENCH, STRONG, REASONER, ALL, ("Hindi", ALL, ALL, ALL))
    assert "acme/strong-7b" in everything and "A − B" in everything and everything != hindi
    assert paired_comparison(context, WRITING_BENCH, STRONG, None, ALL, (ALL,) * 4) == ""


def test_every_matching_item_is_listed_under_the_cap(context: AppContext, evaluated: EvaluatedData) -> None:
    update = render_items(context, WRITING_BENCH, STRONG, ALL, ("Hindi", ALL, ALL, ALL)).items
    assert update["label"] == ITEMS_LABEL
    recorded = recorded_items(WRITING_BENCH, evaluated.folders["acme/strong-7b"])
    hindi = [item for item in recorded if item.language == "Hindi"]
    assert len(update["value"]) == len(hindi)
    assert update["datatype"][list(update["value"].columns).index("Item score")] == "number"  # the grid sorts numbers


def test_past_the_cap_the_label_says_how_many_match(
    context: AppContext, evaluated: EvaluatedData, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(item_browser, "MAX_LISTED", 5)
    update = render_items(context, WRITING_BENCH, STRONG, ALL, (ALL, ALL, ALL, ALL)).items
    total = len(recorded_items(WRITING_BENCH, evaluated.folders["acme/strong-7b"]))
    assert len(update["value"]) == 5
    assert f"the first 5 of the {total} that match" in update["label"]


def test_a_score_band_lists_only_items_scored_in_it(context: AppContext) -> None:
    update = render_items(context, WRITING_BENCH, STRONG, "item score 7–10", (ALL, ALL, ALL, ALL)).items
    scores = update["value"]["Item score"].tolist()
    assert scores and all(7 <= value <= 10 for value in scores)


def test_the_line_above_linked_items_counts_them_and_gives_the_mean_of_the_cell_clicked(
    context: AppContext, store: ResultsStore
) -> None:
    details = store.details(STRONG)
    hindi = details[details["config"] == "Hindi"]
    line = linked_line(context, WRITING_BENCH, STRONG, ALL, ("Hindi", ALL, ALL, ALL))
    assert f"{len(hindi)} items · mean {hindi['item_score'].mean():.2f} (the cell you clicked)" in line
    assert '<a class="whole-board" href="?tab=leaderboard">the whole board</a>' in line
    assert linked_line(context, WRITING_BENCH, None, ALL, (ALL,) * 4) == ""
