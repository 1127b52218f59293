"""Every scored benchmark's ranking carries WritingBench's row flags, the decoding mode and score links, from its
runs' own records: the frame functions on a toy board the real engine wrote (`flagged_toy_runs`), and QA's and
Saraiki's declarations."""

from __future__ import annotations

from typing import Iterator
from urllib.parse import parse_qs, urlparse

import pandas as pd
import pytest

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.generation.decoding_mode import mode_text
from leaderboard.results import ResultsStore, RunResult
from leaderboard.row_flags import FEW_ITEMS_INTERVAL, too_few_items
from leaderboard.scored_tables import (
    breakdown_frame,
    item_groupings,
    items_frame,
    ranking_frame,
    shown_ranking,
)
from leaderboard.tabs.benchmark_tab import breakdown_links, ranking_links
from tests.support.flagged_toy_runs import (
    CLEAN_ID,
    CUT_OFF_ID,
    FEW_ITEMS_ID,
    OLD_DATASET_ID,
    OTHER_JUDGE_ID,
    PRE_MODE_ID,
    FlaggedToy,
    build_flagged_toy,
)
from tests.support.toy_translation import registered

EXPECTED_FLAGS = {CLEAN_ID: "", CUT_OFF_ID: "cut_off", OTHER_JUDGE_ID: "other_judge", OLD_DATASET_ID: "old_dataset",
                  FEW_ITEMS_ID: "few_items", PRE_MODE_ID: ""}


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> FlaggedToy:
    return build_flagged_toy(tmp_path_factory.mktemp("flagged-toy"))


@pytest.fixture(scope="module")
def toy() -> Iterator[Benchmark]:
    with registered() as benchmark:
        yield benchmark


@pytest.fixture(scope="module")
def runs(board: FlaggedToy, toy: Benchmark) -> tuple[RunResult, ...]:
    return ResultsStore(board.runs_dir).snapshot().runs


@pytest.fixture(scope="module")
def ranking(runs: tuple[RunResult, ...], toy: Benchmark) -> pd.DataFrame:
    return ranking_frame(runs, toy)


def test_each_run_gets_the_flag_its_own_records_call_for_and_only_that(ranking: pd.DataFrame) -> None:
    assert dict(zip(ranking["model"], ranking["flags"])) == EXPECTED_FLAGS
    assert set(ranking["standing"]) == {"ranked"}  # a flagged run is still ranked


def test_the_cut_off_run_s_summary_counts_its_answers_cut_off_in_thinking(runs: tuple[RunResult, ...]) -> None:
    cut = next(run for run in runs if run.model == CUT_OFF_ID)
    assert cut.summary["counts"]["unclosed_thinking"] == 5  # every Saraiki answer, half of its ten


def test_a_run_with_too_few_items_reads_so_in_place_of_its_interval(ranking: pd.DataFrame, toy: Benchmark,
                                                                  runs: tuple[RunResult, ...]) -> None:
    shown = shown_ranking(ranking, toy)
    assert list(shown.columns[:6]) == ["rank", "model", "adequacy", "rank_range", "interval", "flags"]
    intervals = dict(zip(shown["model"], shown["interval"]))
    assert intervals[FEW_ITEMS_ID] == FEW_ITEMS_INTERVAL
    assert intervals[CLEAN_ID] == "100.0 – 100.0"  # ten answers, all adequate
    few = {run_id for run_id, codes in zip(ranking["run_id"], ranking["flags"]) if too_few_items(codes)}
    languages = breakdown_frame(runs, toy, toy.board.breakdowns[0], few)
    intervals = languages.groupby("model")["interval"].agg(set)
    assert intervals[FEW_ITEMS_ID] == {FEW_ITEMS_INTERVAL} and FEW_ITEMS_INTERVAL not in intervals[CLEAN_ID]


def test_the_mode_is_what_the_replies_record_and_blank_for_a_run_from_before(ranking: pd.DataFrame) -> None:
    modes = dict(zip(ranking["model"], ranking["decoding_mode"]))
    assert modes.pop(PRE_MODE_ID) == "" and set(modes.values()) == {"server"}  # an endpoint batches as it likes
    assert mode_text(["fixed-batches", "reference"]) == "mixed: fixed-batches, reference"
    assert mode_text(None) == "" and mode_text(3) == ""


def test_a_ranking_cell_opens_the_run_s_items_and_a_breakdown_cell_its_language_s(
    ranking: pd.DataFrame, toy: Benchmark, runs: tuple[RunResult, ...]
) -> None:
    clean = ranking.set_index("model").loc[CLEAN_ID]
    asked = parse_qs(urlparse(ranking_links(toy)({"run_id": clean["run_id"]}, "chrf")).query)
    assert asked == {"tab": ["toy_translation"], "model": [clean["run_id"]]}
    assert ranking_links(toy)({"run_id": clean["run_id"]}, "items") is None  # a count is no score
    row = {"run_id": clean["run_id"], "language": "saraiki"}
    asked = parse_qs(urlparse(breakdown_links(toy, toy.board.breakdowns[0])(row, "adequacy")).query)
    assert asked == {"tab": ["toy_translation"], "model": [clean["run_id"]], "config": ["saraiki"]}


def test_the_items_a_link_names_are_exactly_those_of_its_language(board: FlaggedToy, toy: Benchmark) -> None:
    details = ResultsStore(board.runs_dir).details(board.run_id(CLEAN_ID))
    saraiki = items_frame(details, toy, where={"config": "saraiki"})
    assert list(saraiki["item"]) == [f"saraiki:{index}" for index in range(5)]
    assert saraiki["response"].iloc[1] == "میں ہر سویل چاہ پیندا ہاں۔"  # the second of the filtered list
    assert len(items_frame(details, toy, where={"config": "all"})) == 10


def test_saraiki_s_per_task_figures_open_that_task_s_items_and_qa_filters_by_domain_too() -> None:
    link = ranking_links(SARAIKI)
    assert parse_qs(urlparse(link({"run_id": "acme__x/main"}, "math")).query)["task"] == ["math"]
    assert parse_qs(urlparse(link({"run_id": "acme__x/main"}, "over_refusal_rate")).query)["task"] == ["safety"]
    assert parse_qs(urlparse(link({"run_id": "acme__x/main"}, "knowledge")).query)["task"] == ["knowledge"]  # headline
    assert [field.name for field in item_groupings(INDIC_QA)] == ["config", "domain"]
    assert [field.name for field in item_groupings(SARAIKI)] == ["task"]
