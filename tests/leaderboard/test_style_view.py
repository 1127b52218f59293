"""Answer length on the declared board and its style-controlled view, over QA runs the real engine scored.

The verbose model (a 100-character id) is right exactly when it answers at length, so the fit finds a
length effect; the controlled table must carry the engine's controlled scores, intervals and rank ranges
(`style_board` called directly) in the seed table's shape, and the lengths must be the answers' medians
read from the run folders themselves.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from eval_backend.answer_style import CHARACTERS, TOKENS
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.settings import Settings
from eval_backend.statistics.style_control import Coefficient
from eval_backend.style_ranking import style_board
from leaderboard.answer_lengths import board_lengths, length_columns
from leaderboard.benchmark_ranks import benchmark_ranks
from leaderboard.context import AppContext
from leaderboard.model_page import BenchmarkStanding, model_page
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import breakdown_frame, ranking_frame, shown_ranking, tab_id
from leaderboard.style_view import (
    CONTROLLED, CONTROLLED_RULE, OUTSIDE_FIT, SEED, StyleView, coefficient_text, controlled_ranking, footnote,
    style_view,
)
from leaderboard.tabs.benchmark_tab import rankings_of, render_breakdown
from leaderboard.tabs.style_about import coefficients_frame
from leaderboard.tabs.style_choice import STYLE_URL_SCRIPT, linked_style
from leaderboard.tab_links import first_tab
from tests.support.qa_style_runs import HEDGING_ID, TERSE_ID, VERBOSE_ID, build_qa_style_runs


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_qa_style_runs(tmp_path_factory.mktemp("qa-style")).runs_dir


@pytest.fixture
def store(runs_dir: Path, tmp_path: Path) -> ResultsStore:
    """A copy of the board each test may change."""
    shutil.copytree(runs_dir, tmp_path / "runs")
    return ResultsStore(tmp_path / "runs")


def _answers(run) -> pd.DataFrame:
    """The run's answered items with their judged text and reported token count, read from its files."""
    details = pd.read_parquet(run.folder.details_path, columns=["config", "index", "response"]).dropna()
    tokens = pd.read_json(run.folder.responses_path, lines=True)[["config", "index", "output_tokens"]]
    return details.merge(tokens, on=["config", "index"])


def test_each_run_s_median_length_is_in_tokens_overall_and_per_language(store: ResultsStore) -> None:
    runs = store.snapshot().runs
    ranking = ranking_frame(runs, INDIC_QA).set_index("model")
    for run in runs:
        answers = _answers(run)
        assert ranking.loc[run.model, "median_length"] == answers["output_tokens"].median()
        assert ranking.loc[run.model, "length_unit"] == TOKENS
    breakdown = breakdown_frame(runs, INDIC_QA, INDIC_QA.board.breakdowns[0]).set_index(["model", "language"])
    verbose = next(run for run in runs if run.model == VERBOSE_ID)
    hindi = _answers(verbose).query("config == 'hindi'")["output_tokens"].median()
    assert breakdown.loc[(VERBOSE_ID, "hindi"), "median_length"] == hindi
    shown = shown_ranking(ranking_frame(runs, INDIC_QA), INDIC_QA)
    assert list(shown.columns).index("median_length") < list(shown.columns).index("revision")  # a group of its own


def test_a_board_with_one_run_lacking_token_counts_reads_every_length_in_characters(store: ResultsStore) -> None:
    terse = next(run for run in store.snapshot().runs if run.model == TERSE_ID)
    lines = [json.loads(line) for line in terse.folder.responses_path.read_text(encoding="utf-8").splitlines()]
    terse.folder.responses_path.write_text(
        "".join(json.dumps({**line, "output_tokens": None}) + "\n" for line in lines), encoding="utf-8")
    runs = store.snapshot().runs
    lengths = board_lengths(runs, INDIC_QA)
    assert lengths.unit == CHARACTERS  # never tokens for some rows and characters for others
    for run in runs:
        assert lengths.median(run.run_id) == _answers(run)["response"].str.len().median()


def test_a_run_whose_answers_cannot_be_read_has_no_length_and_stays_on_the_board(store: ResultsStore) -> None:
    hedging = next(run for run in store.snapshot().runs if run.model == HEDGING_ID)
    hedging.folder.details_path.unlink()
    columns = length_columns(store.snapshot().runs, INDIC_QA).set_index("run_id")
    assert columns.loc[hedging.run_id, ["median_length", "length_unit"]].isna().all()
    assert columns.drop(hedging.run_id)["median_length"].notna().all()


def test_the_controlled_table_is_the_engine_s_fit_in_the_seed_table_s_shape(store: ResultsStore) -> None:
    snapshot = store.snapshot()
    ranking = ranking_frame(snapshot.runs, INDIC_QA)
    view = style_view(snapshot, INDIC_QA, ranking)
    assert view.controlled and set(view.run_ids) == set(ranking["run_id"])
    folders = {run.run_id: run.folder for run in snapshot.runs}
    engine = style_board([folders[run_id] for run_id in view.run_ids]).control.controlled
    table = controlled_ranking(ranking, view, INDIC_QA)
    assert list(table.columns) == list(ranking.columns)
    by_run = table.set_index("run_id")
    for position, run_id in enumerate(view.run_ids):
        row = by_run.loc[run_id]
        assert row["judge"] == pytest.approx(engine.headlines[position])
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((engine.low[position], engine.high[position]))
        assert (row["rank"], row["rank_best"], row["rank_worst"]) == (
            engine.rank[position], engine.rank_best[position], engine.rank_worst[position])
        assert row["rank_rule"] == CONTROLLED_RULE
    assert table["rank"].is_monotonic_increasing
    seed = ranking.set_index("run_id")
    for column in ("exact", "median_length", "model", "flags"):  # the seed's own columns stay the seed's
        assert by_run[column].equals(seed.loc[by_run.index, column])
    verbose = seed.index[seed["model"] == VERBOSE_ID][0]
    assert by_run.loc[verbose, "judge"] != pytest.approx(seed.loc[verbose, "judge"])  # length was rewarded


def test_a_ranked_run_outside_the_fit_is_listed_apart_saying_why(store: ResultsStore) -> None:
    terse = next(run for run in store.snapshot().runs if run.model == TERSE_ID)
    other = store.runs_dir / "other-lab__exact-7b" / "main"
    shutil.copytree(terse.folder.path, other)
    request = json.loads((other / "request.json").read_text(encoding="utf-8"))
    (other / "request.json").write_text(json.dumps({**request, "model": "other-lab/exact-7b",
                                                    "dataset_revision": "sha256:another"}), encoding="utf-8")
    snapshot = ResultsStore(store.runs_dir).snapshot()  # this store reuses its last snapshot for a second
    assert not snapshot.problems, snapshot.problems
    ranking = ranking_frame(snapshot.runs, INDIC_QA)
    table = controlled_ranking(ranking, style_view(snapshot, INDIC_QA, ranking), INDIC_QA).set_index("model")
    assert table.loc["other-lab/exact-7b", "standing"] == "not controlled"
    assert table.loc["other-lab/exact-7b", "standing_note"] == OUTSIDE_FIT
    assert pd.isna(table.loc["other-lab/exact-7b", "rank"])
    assert (table.drop("other-lab/exact-7b")["rank_rule"] == CONTROLLED_RULE).all()


def test_a_benchmark_without_style_features_keeps_the_seed_s_ranking_and_says_why() -> None:
    ranking = ranking_frame([], SARAIKI)
    view = StyleView(None, (), "this benchmark declares no style feature: answer length only")
    assert controlled_ranking(ranking, view, SARAIKI) is ranking
    assert footnote(view, SARAIKI).startswith("**No style-controlled ranking on this board:** this benchmark declares")


def test_a_coefficient_reads_as_a_change_per_unit_with_its_interval() -> None:
    coefficient = Coefficient("log_length", 0.4237, 0.351, 0.4889)
    assert coefficient_text(coefficient, "log-length unit", "points") == \
        "+1 log-length unit: +0.42 [+0.35, +0.49] points"


def test_about_lists_the_fit_over_all_configs_and_per_config(store: ResultsStore) -> None:
    frame = coefficients_frame({INDIC_QA.name: store})
    assert list(frame["scope"]) == ["all configs", "english", "hindi", "tamil"]
    assert (frame["benchmark"] == INDIC_QA.title).all() and (frame["runs"] == 3).all()
    snapshot = store.snapshot()
    view = style_view(snapshot, INDIC_QA, ranking_frame(snapshot.runs, INDIC_QA))
    overall = view.board.control.coefficients[0]
    assert overall.low > 0  # the verbose model is right only when long: the judge "rewards" length
    assert frame["effect"].iloc[0] == coefficient_text(overall, "log-length unit", "percentage points")


def test_the_tab_renders_the_controlled_view_with_its_footnote(store: ResultsStore, tmp_path: Path) -> None:
    context = AppContext(Settings(), tmp_path, None, None, {INDIC_QA.name: store})
    seed, controlled = rankings_of(context, INDIC_QA, style=SEED), rankings_of(context, INDIC_QA, style=CONTROLLED)
    breakdown = INDIC_QA.board.breakdowns[0]
    assert render_breakdown(context, INDIC_QA, breakdown, SEED)[1]["visible"] is False
    note = render_breakdown(context, INDIC_QA, breakdown, CONTROLLED)[1]
    assert note["visible"] and "Controlled for log answer length" in note["value"]
    headers = controlled.table["value"]["headers"]
    judge = headers.index("Judge accuracy %")
    rows = {row[headers.index("Model")]: row for row in controlled.table["value"]["data"]}
    seed_rows = {row[headers.index("Model")]: row for row in seed.table["value"]["data"]}
    assert rows[VERBOSE_ID][judge] != seed_rows[VERBOSE_ID][judge]
    assert controlled.download["value"] != seed.download["value"]  # each reading its own CSV
    csv = pd.read_csv(controlled.download["value"], encoding="utf-8-sig")
    assert set(csv["rank_rule"]) == {CONTROLLED_RULE} and csv["median_length"].notna().all()


def test_a_link_names_the_reading_only_for_its_own_tab() -> None:
    assert linked_style("tab=qa&style=controlled", "qa") == CONTROLLED
    assert linked_style("tab=qa&style=anything", "qa") == SEED
    assert linked_style("tab=saraiki&style=controlled", "qa") != CONTROLLED  # another tab's link: left as it is
    assert linked_style("style=controlled", "qa") != CONTROLLED  # no tab named: the first tab's


def test_a_link_naming_no_tab_sets_the_first_tab_s_reading_and_the_first_tab_writes_it_there() -> None:
    first = first_tab()
    assert first == tab_id(BENCHMARKS[DEFAULT_BENCHMARK])
    assert linked_style("style=controlled", first) == CONTROLLED
    assert linked_style("q=x", first) != CONTROLLED  # names no reading: left as it is
    # The address script leaves an address without `tab=` alone unless the tab is the first one.
    assert f'(params.get("tab") || "{first}") !== "{first}"' in STYLE_URL_SCRIPT.format(
        tab=first, first=first, controlled=CONTROLLED, param="style")


def test_the_model_page_states_the_run_s_median_answer_length(store: ResultsStore) -> None:
    runs = store.snapshot().runs
    ranks = benchmark_ranks(INDIC_QA, ranking_frame(runs, INDIC_QA))
    page = model_page(VERBOSE_ID, "", [BenchmarkStanding(INDIC_QA, runs, ranks)])
    verbose = next(run for run in runs if run.model == VERBOSE_ID)
    median = _answers(verbose)["output_tokens"].median()
    assert f"- **Answer length:** {median:,.0f} tokens (median over its answers)" in page
