"""QA's and Saraiki's declared figures from real run folders: every group labelled, values from the summaries,
Saraiki's safety rates never in the accuracies' group, and the benchmark tab's plots following its search."""

from __future__ import annotations

import html

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.board import ACCURACY_METRICS
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.settings import Settings
from leaderboard.context import AppContext
from leaderboard.declared_figures import benchmark_figures
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import ranking_frame
from leaderboard.short_labels import MAX_LABEL_CHARS
from leaderboard.tabs.benchmark_tab import render_figures
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


def test_qa_draws_its_headline_languages_domains_and_scorers(qa: ResultsStore) -> None:
    runs = in_rank_order(qa, INDIC_QA)
    assert len(LONG_ID) == 100
    headline, languages, domains, scorers, _ = benchmark_figures(runs, INDIC_QA)
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
    headline, tasks, refusals, over_refusals, _ = benchmark_figures(runs, SARAIKI)
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
    context = AppContext(Settings(), qa, tmp_path, None, None, {INDIC_QA.name: qa})
    everyone = render_figures(context, INDIC_QA)
    assert len(everyone[0].data[0].y) == 5
    searched = render_figures(context, INDIC_QA, "WEAK; bharat-collective")
    assert sorted(searched[0].data[0].hovertext) == sorted(["acme/weak-1b", LONG_ID])
    assert len(searched[1].data[0].y) == 2  # the heatmap too
    assert ranking_frame(qa.snapshot().runs, INDIC_QA)["flags"].str.contains("few_items").all()  # 3 items a language
    assert render_figures(context, INDIC_QA, "", ["few_items"])[0].layout.annotations  # every run hidden: a message
    assert len(render_figures(context, INDIC_QA, "", ["old_dataset"])[0].data[0].y) == 5
    assert render_figures(context, INDIC_QA, "no-such-model")[0].layout.annotations  # a message, not an error


def test_the_length_figure_puts_each_model_at_its_median_answer_length_and_headline(qa: ResultsStore) -> None:
    """One point per model: x its median answer length in tokens (the stand-in reports usage for every answer), y
    its headline with the summary's interval; a long id drawn on hover whole, escaped."""
    runs = in_rank_order(qa, INDIC_QA)
    figure = benchmark_figures(runs, INDIC_QA)[-1]
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
