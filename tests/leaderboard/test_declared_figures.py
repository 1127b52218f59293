"""Declared figures from real run folders: every group labelled, values from the summaries, Saraiki's safety rates
never in the accuracies' group, the benchmark tab's plots following its search; the headline read from the ranking
shown (on chosen groups: the subset's), WritingBench's radar of chosen runs and one run's language x rendering."""

from __future__ import annotations

import html

import pandas as pd
import pytest

from eval_backend.benchmarks.board_view import FigureKind, FigureSpec
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.board import ACCURACY_METRICS
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH as WB
from eval_backend.settings import Settings
from leaderboard.context import AppContext
from leaderboard.declared_figures import figure_metrics, ranked_figure, ranked_figures
from leaderboard.ranking_query import RankingQuery
from leaderboard.results import ResultsStore
from leaderboard.scored_rankings import SUBSET_COLUMN, split_standing
from leaderboard.scored_tables import chosen_subset, ranking_frame, ranking_of
from leaderboard.short_labels import MAX_LABEL_CHARS, short_label
from leaderboard.tabs.benchmark_tab import render_figures
from tests.support.plot_runs import PLOT_PROFILES, build_plot_runs
from tests.support.qa_runs import QA_PROFILES, QaProfile, build_qa_runs
from tests.support.saraiki_runs import SARAIKI_MODELS, build_saraiki_runs

LONG_ID = ("bharat-collective-for-indic-language-technology/indic-instruct-sft-dpo-merged-long-context-v2-"
           "000007")
STRONG = "acme/strong-7b"


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    profiles = (*QA_PROFILES, QaProfile(LONG_ID, QA_PROFILES[0].answer))
    return ResultsStore(build_qa_runs(tmp_path_factory.mktemp("qa"), profiles).runs_dir)


@pytest.fixture(scope="module")
def saraiki(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    models = {**SARAIKI_MODELS, LONG_ID: True}
    return ResultsStore(build_saraiki_runs(tmp_path_factory.mktemp("saraiki"), models).runs_dir)


def in_rank_order(store: ResultsStore, benchmark):
    runs = {run.run_id: run for run in store.snapshot().runs}
    return [runs[run_id] for run_id in ranking_frame(list(runs.values()), benchmark)["run_id"]]


def figures_of(store: ResultsStore, benchmark):
    """Every declared figure of the runs the tab ranks, as its plots draw them."""
    return ranked_figures(*ranked(store, benchmark), benchmark)


def test_qa_draws_its_headline_languages_domains_and_scorers(qa: ResultsStore) -> None:
    runs = in_rank_order(qa, INDIC_QA)
    assert len(LONG_ID) == 100
    headline, languages, domains, scorers, _ = figures_of(qa, INDIC_QA)
    bars = headline.data[0]
    assert list(bars.hovertext)[::-1] == [html.escape(run.model, quote=False) for run in runs]  # best at the top
    assert all(len(html.unescape(label)) <= MAX_LABEL_CHARS for label in bars.y) and LONG_ID in bars.hovertext
    assert headline.layout.title.text.startswith("Judge accuracy, with its 95 % interval<br><sup>%, higher is better")
    cells = languages.data[0]
    assert list(cells.x) == ["english", "hindi", "tamil"] == list(languages.layout.xaxis.tickvals)
    strong = runs.index(next(run for run in runs if run.model == STRONG))
    assert cells.z[strong][list(cells.x).index("tamil")] == 100.0
    assert cells.customdata[strong][0] == "100.00 – 100.00"  # each language's interval, from the summary
    assert set(domains.data[0].x) == {"Art", "History", "Geography", "Language", "Literature"}
    assert [trace.name for trace in scorers.data] == ["Judge accuracy", "Exact substring", "Word overlap"]
    assert not any("<script>" in label for figure in (headline, languages) for label in figure.data[0].y)


def test_saraiki_draws_accuracies_per_task_and_each_safety_rate_apart(saraiki: ResultsStore) -> None:
    runs = in_rank_order(saraiki, SARAIKI)
    headline, tasks, refusals, over_refusals, _ = figures_of(saraiki, SARAIKI)
    labels = {metric.name: metric.label for metric in SARAIKI.metrics}
    assert list(tasks.data[0].x) == [labels[name] for name in ACCURACY_METRICS]  # every task named
    assert len(tasks.data[0].y) == len(runs)
    assert "higher is better" in refusals.layout.title.text and "lower is better" in over_refusals.layout.title.text
    assert not {labels["refusal_rate"], labels["over_refusal_rate"]} & set(tasks.data[0].x)
    assert len(refusals.data) == len(over_refusals.data) == 1  # one rate each, never grouped
    assert not tasks.layout.annotations  # drawn, not "No figures per task yet"
    raw = runs.index(next(run for run in runs if run.model == "acme/base-<b>1b</b>"))
    assert tasks.data[0].z[raw][ACCURACY_METRICS.index("math")] == 50.0
    assert headline.data[0].error_x.array is not None


def test_the_tab_s_plots_follow_its_search_and_flag_filter(qa: ResultsStore, tmp_path) -> None:
    context = AppContext(Settings(), tmp_path, None, None, {INDIC_QA.name: qa})
    everyone = render_figures(context, INDIC_QA)
    assert len(everyone[0].data[0].y) == 5
    searched = render_figures(context, INDIC_QA, RankingQuery(search="WEAK; bharat-collective"))
    assert sorted(searched[0].data[0].hovertext) == sorted(["acme/weak-1b", LONG_ID])
    assert len(searched[1].data[0].y) == 2  # the heatmap too
    assert ranking_frame(qa.snapshot().runs, INDIC_QA)["flags"].str.contains("few_items").all()  # 3 items a language
    assert render_figures(context, INDIC_QA, RankingQuery(hide_flags=("few_items",)))[0].layout.annotations  # every run hidden: a message
    assert len(render_figures(context, INDIC_QA, RankingQuery(hide_flags=("old_dataset",)))[0].data[0].y) == 5
    assert render_figures(context, INDIC_QA, RankingQuery(search="no-such-model"))[0].layout.annotations  # a message, not an error


def test_the_length_figure_puts_each_model_at_its_median_answer_length_and_headline(qa: ResultsStore) -> None:
    """One point per model: x its median answer length in tokens (the stand-in reports usage for every answer), y
    its headline with the summary's interval; a long id drawn on hover whole, escaped."""
    runs = in_rank_order(qa, INDIC_QA)
    figure = figures_of(qa, INDIC_QA)[-1]
    points = figure.data[0]
    assert figure.layout.xaxis.type == "log" and figure.layout.xaxis.title.text == "median answer length (tokens)"
    for run, x, y, hover in zip(runs, points.x, points.y, points.hovertext):
        counts = pd.read_json(run.folder.responses_path, lines=True).set_index(["config", "index"])["output_tokens"]
        answered = pd.read_parquet(run.folder.details_path, columns=["config", "index", "response"]).dropna()
        assert x == counts.loc[list(zip(answered["config"], answered["index"]))].median()
        assert y == run.summary["metrics"]["judge"] and hover == html.escape(run.model, quote=False)
    low, high = runs[0].summary["intervals"]["judge"]
    assert points.error_y.arrayminus[0] == pytest.approx(points.y[0] - low)
    assert "<script>" not in "".join(points.hovertext) and LONG_ID in points.hovertext


@pytest.fixture(scope="module")
def writing(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    return ResultsStore(build_plot_runs(tmp_path_factory.mktemp("writing")).runs_dir)


def ranked(store: ResultsStore, benchmark, subset=None):
    """The ranked rows a tab shows, and every run by id."""
    snapshot = store.snapshot()
    return (split_standing(ranking_of(snapshot, benchmark, "", subset))[0],
            {run.run_id: run for run in snapshot.runs})


def test_the_headline_reads_the_ranking_shown_with_rank_ranges_and_flags(qa: ResultsStore) -> None:
    ranking, runs = ranked(qa, INDIC_QA)
    bars = ranked_figures(ranking, runs, INDIC_QA)[0].data[0]
    assert list(bars.x)[::-1] == list(ranking["judge"])  # best at the top
    assert list(bars.error_x.array)[::-1] == pytest.approx(list(ranking["ci_high"] - ranking["judge"]))
    best, worst = ranking["rank_best"].iloc[0], ranking["rank_worst"].iloc[0]
    assert f"rank range {best}" in bars.customdata[-1] and (best == worst or f"–{worst}" in bars.customdata[-1])
    assert all("⚠ few items" in note for note in bars.customdata)  # 3 items a language: every run flagged


def test_on_chosen_groups_the_headline_is_the_subset_s_figure(qa: ResultsStore) -> None:
    snapshot = qa.snapshot()
    domain = str(pd.read_parquet(snapshot.runs[0].folder.details_path)["domain"].value_counts().index[0])
    ranking, runs = ranked(qa, INDIC_QA, chosen_subset(INDIC_QA, [(), (domain,)]))
    assert SUBSET_COLUMN in ranking and not ranking[SUBSET_COLUMN].equals(ranking["judge"])
    figure = ranked_figures(ranking, runs, INDIC_QA)[0]
    bars = figure.data[0]
    assert list(bars.x)[::-1] == list(ranking[SUBSET_COLUMN])
    assert list(bars.error_x.arrayminus)[::-1] == pytest.approx(list(ranking[SUBSET_COLUMN] - ranking["ci_low"]))
    assert "on the chosen groups" in figure.layout.title.text
    assert [html.unescape(text) for text in bars.hovertext][::-1] == list(ranking["model"])


def test_a_figure_of_the_ranked_runs_draws_the_top_n_in_the_ranking_s_order(saraiki: ResultsStore) -> None:
    ranking, runs = ranked(saraiki, SARAIKI)
    assert len(ranking) == 3
    headline, tasks, *_ = ranked_figures(ranking, runs, SARAIKI, top_n=2)
    assert [html.unescape(text) for text in headline.data[0].hovertext][::-1] == list(ranking["model"][:2])
    assert len(tasks.data[0].y) == 2


def test_the_radar_draws_the_chosen_runs_else_the_best_three(writing: ResultsStore) -> None:
    ranking, runs = ranked(writing, WB)
    assert list(ranking["model"]) == [profile.model_id for profile in PLOT_PROFILES]
    radar = next(spec for spec in WB.board.figures if spec.kind is FigureKind.RADAR)
    names = [html.unescape(trace.name) for trace in ranked_figure(radar, ranking, runs, WB).data]
    assert names == [short_label(model, revision) for model, revision in zip(ranking["model"][:3],
                                                                               ranking["revision"][:3])]
    last, first = ranking["run_id"].iloc[-1], ranking["run_id"].iloc[0]
    chosen = ranked_figure(radar, ranking, runs, WB, chosen=[last, first, "gone/run"]).data
    assert [html.unescape(trace.name) for trace in chosen] == [short_label(*ranking[["model", "revision"]].iloc[0]),
                                                               "acme/small-1b"]  # in the ranking's order
    assert len(ranked_figure(radar, ranking, runs, WB, chosen=["gone/run"]).data) == 3  # not ranked: the default
    assert len(ranked_figure(radar, ranking, runs, WB, top_n=1).data) == 3  # the top N is not the radar's


def test_one_chosen_run_s_language_by_rendering_is_a_two_way_heatmap(writing: ResultsStore) -> None:
    ranking, runs = ranked(writing, WB)
    spec = next(spec for spec in WB.board.figures if spec.breakdown == "config_variant")
    best = runs[ranking["run_id"].iloc[0]]
    figure = ranked_figure(spec, ranking, runs, WB)
    cells = figure.data[0]
    scores = best.summary["config_variants"]
    assert list(cells.y) == list(scores) and list(cells.x) == list(next(iter(scores.values())))
    assert list(figure.layout.yaxis.ticktext) == list(scores)  # every language named
    for row, language in enumerate(cells.y):
        assert list(cells.z[row]) == pytest.approx([scores[language][variant] for variant in cells.x])
    hindi, tamil, native = list(cells.y).index("Hindi"), list(cells.y).index("Tamil"), list(cells.x).index("native")
    assert cells.z[hindi][list(cells.x).index("romanized")] < cells.z[hindi][native]
    assert cells.z[tamil][native] < cells.z[hindi][native]
    label = short_label(best.model, best.revision)
    assert html.unescape(figure.layout.title.text).startswith(f"{label}: Score by language and rendering")
    assert len(best.model) == 100 and best.model not in html.unescape(figure.layout.title.text)
    assert best.model in html.unescape(cells.hovertext[0][0])  # the whole id on hover
    third = ranking["run_id"].iloc[2]
    other = ranked_figure(spec, ranking, runs, WB, chosen=[third])
    assert html.unescape(other.layout.title.text).startswith(short_label(runs[third].model, runs[third].revision))
    assert "@0123456" in html.unescape(other.layout.title.text)


def test_one_chosen_run_of_a_breakdown_of_single_figures_draws_that_run_s_groups(writing: ResultsStore) -> None:
    ranking, runs = ranked(writing, WB)
    spec = FigureSpec("one", FigureKind.HEATMAP, "One run's languages", "language", chosen=1)
    cells = ranked_figure(spec, ranking, runs, WB, chosen=[ranking["run_id"].iloc[1]]).data[0]
    assert list(cells.y) == ["acme/steady-7b"]
    assert list(cells.x) == list(runs[ranking["run_id"].iloc[1]].summary["configs"])


def test_a_figure_mixing_units_or_directions_is_still_refused_by_name() -> None:
    spec = FigureSpec("mixed", FigureKind.BARS, "Mixed", metrics=("refusal_rate", "over_refusal_rate"))
    with pytest.raises(ValueError, match="'mixed' mixes units or directions.*over_refusal_rate"):
        figure_metrics(SARAIKI, spec)
