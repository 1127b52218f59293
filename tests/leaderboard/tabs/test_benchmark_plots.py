"""A benchmark tab's plots section on real run folders: the top N bounds every figure of the ranked runs, the radar
and the one-model heatmap follow their choosers (any ranked run), a chosen run no longer ranked falls back to the
default, and a bad slider or chooser value is refused by the control's name."""

from __future__ import annotations

import html

import gradio as gr
import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH as WB
from eval_backend.run_items import model_label
from leaderboard.endpoint_inputs import InvalidInput
from leaderboard.results import ResultsStore
from leaderboard.scored_rankings import split_standing
from leaderboard.scored_tables import ranking_of
from leaderboard.short_labels import short_label
from leaderboard.tabs.benchmark_plots import MAX_TOP_N, build, render_plots, run_labels
from tests.support.plot_runs import PLOT_PROFILES, build_plot_runs
from tests.support.qa_runs import QA_PROFILES, QaProfile, build_qa_runs
from tests.support.readable_runs import LONG_IDS
from tests.support.saraiki_runs import SARAIKI_MODELS, build_saraiki_runs

FIGURES = [spec.name for spec in WB.board.figures]


@pytest.fixture(scope="module")
def writing(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    return ResultsStore(build_plot_runs(tmp_path_factory.mktemp("writing")).runs_dir)


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    profiles = (*QA_PROFILES, QaProfile(LONG_IDS[0], QA_PROFILES[0].answer))
    return ResultsStore(build_qa_runs(tmp_path_factory.mktemp("qa"), profiles).runs_dir)


@pytest.fixture(scope="module")
def saraiki(tmp_path_factory: pytest.TempPathFactory) -> ResultsStore:
    return ResultsStore(build_saraiki_runs(tmp_path_factory.mktemp("saraiki"), {**SARAIKI_MODELS,
                                                                                  LONG_IDS[1]: True}).runs_dir)


def ranked(store: ResultsStore, benchmark) -> tuple[pd.DataFrame, dict]:
    snapshot = store.snapshot()
    return split_standing(ranking_of(snapshot, benchmark))[0], {run.run_id: run for run in snapshot.runs}


def drawn(figure) -> list[str]:
    """The whole ids a headline figure draws, best first."""
    return [html.unescape(text) for text in figure.data[0].hovertext][::-1]


def test_writing_bench_s_plots_draw_the_top_n_and_offer_every_ranked_run(writing: ResultsStore) -> None:
    ranking, runs = ranked(writing, WB)
    labels = [model_label(profile.model_id, profile.revision) for profile in PLOT_PROFILES]
    assert list(ranking["model"]) == [profile.model_id for profile in PLOT_PROFILES] and len(LONG_IDS[0]) == 100
    values = render_plots(ranking, runs, WB, 2, [None, None])
    figures, (radar_models, one_model) = dict(zip(FIGURES, values)), values[len(FIGURES):]
    assert drawn(figures["overall"]) == list(ranking["model"][:2])
    assert len(figures["heatmap"].data[0].y) == len(figures["subdomains"].data[0].y) == 2
    assert {len(trace.y) for trace in figures["variants"].data} == {2}
    assert radar_models["choices"] == one_model["choices"] == labels  # every ranked run, not only the top 2
    assert radar_models["value"] == labels[:3] and one_model["value"] == labels[0]
    assert len(figures["radar"].data) == 3
    assert labels[2] == f"{LONG_IDS[1]} @ 0123456789abcdef0123456789abcdef01234567"  # the whole id, as runs are named
    assert len(drawn(render_plots(ranking, runs, WB, None, [None, None])[0])) == 4  # no value: the default 20


def test_the_radar_and_the_one_model_heatmap_follow_their_choosers(writing: ResultsStore) -> None:
    ranking, runs = ranked(writing, WB)
    labels = run_labels(ranking)
    last, third = labels[ranking["run_id"].iloc[-1]], labels[ranking["run_id"].iloc[2]]
    values = render_plots(ranking, runs, WB, 1, [[last, third], third])
    figures, (radar_models, one_model) = dict(zip(FIGURES, values)), values[len(FIGURES):]
    assert [html.unescape(trace.name) for trace in figures["radar"].data] == [
        short_label(model, revision) for model, revision in zip(ranking["model"][2:], ranking["revision"][2:])]
    assert radar_models["value"] == [third, last]  # in the ranking's order
    title = html.unescape(figures["language-variants"].layout.title.text)
    assert title.startswith(short_label(ranking["model"].iloc[2], ranking["revision"].iloc[2]) + ": ")
    assert one_model["value"] == third
    assert len(drawn(figures["overall"])) == 1  # the top N is the other figures'


def test_a_chosen_run_no_longer_ranked_falls_back_to_the_default(writing: ResultsStore) -> None:
    ranking, runs = ranked(writing, WB)
    labels = list(run_labels(ranking).values())
    gone = "acme/removed-since-13b"
    values = render_plots(ranking, runs, WB, 20, [[gone], gone])
    radar_models, one_model = values[len(FIGURES):]
    assert radar_models["value"] == labels[:3] and one_model["value"] == labels[0]
    assert len(values[FIGURES.index("radar")].data) == 3
    searched = ranking[ranking["model"] != PLOT_PROFILES[0].model_id]  # the search keeps the others
    kept = render_plots(searched, runs, WB, 20, [[labels[0], labels[3]], labels[0]])[len(FIGURES):]
    assert kept[0]["value"] == [labels[3]] and kept[1]["value"] == labels[1]
    assert kept[0]["choices"] == labels[1:]
    nothing = render_plots(ranking.iloc[0:0], runs, WB, 20, [[labels[0]], labels[0]])  # the search keeps no run
    assert [update["value"] for update in nothing[len(FIGURES):]] == [[], None]
    assert all(figure.layout.annotations and not figure.data for figure in nothing[:len(FIGURES)])  # messages


@pytest.mark.parametrize("top_n", [0, 101, "20", float("nan"), True, [5]])
def test_a_bad_top_n_is_refused_by_name(writing: ResultsStore, top_n: object) -> None:
    ranking, runs = ranked(writing, WB)
    with pytest.raises(InvalidInput, match="top N"):
        render_plots(ranking, runs, WB, top_n, [None, None])


def test_a_bad_chooser_value_is_refused_by_the_chooser_s_name(writing: ResultsStore) -> None:
    ranking, runs = ranked(writing, WB)
    labels = list(run_labels(ranking).values())
    with pytest.raises(InvalidInput, match="Models on “Score by domain” .*6 models chosen; at most 5"):
        render_plots(ranking, runs, WB, 20, [[*labels, "a", "b"], None])
    with pytest.raises(InvalidInput, match="Models on “Score by domain”.* must be a list of texts"):
        render_plots(ranking, runs, WB, 20, ["acme/steady-7b", None])
    with pytest.raises(InvalidInput, match="Model for “Score by language and rendering” must be a text"):
        render_plots(ranking, runs, WB, 20, [None, ["acme/steady-7b"]])
    with pytest.raises(InvalidInput, match="is 5,000 characters long"):
        render_plots(ranking, runs, WB, 20, [None, "x" * 5000])
    with pytest.raises(InvalidInput, match="2 chooser values, not 1"):
        render_plots(ranking, runs, WB, 20, [None])


def test_qa_s_and_saraiki_s_plots_keep_to_the_top_n(qa: ResultsStore, saraiki: ResultsStore) -> None:
    ranking, runs = ranked(qa, INDIC_QA)
    headline, languages, domains, scorers, lengths = render_plots(ranking, runs, INDIC_QA, 2, [])
    assert drawn(headline) == list(ranking["model"][:2])
    assert len(languages.data[0].y) == len(domains.data[0].y) == 2 and {len(t.y) for t in scorers.data} == {2}
    assert len(lengths.data[0].x) == 2
    assert len(drawn(render_plots(ranking, runs, INDIC_QA, MAX_TOP_N, [])[0])) == len(ranking) == len(QA_PROFILES) + 1
    ranking, runs = ranked(saraiki, SARAIKI)
    assert LONG_IDS[1] in set(ranking["model"])
    values = render_plots(ranking, runs, SARAIKI, 1, [])
    assert len(values) == len(SARAIKI.board.figures)  # no chooser: figures only
    assert drawn(values[0]) == [ranking["model"].iloc[0]] and len(values[1].data[0].y) == 1


def test_two_runs_of_one_model_and_revision_are_told_apart_by_their_run_ids(qa: ResultsStore) -> None:
    ranking, _ = ranked(qa, INDIC_QA)
    twice = pd.concat([ranking.head(1), ranking.head(1).assign(run_id="acme__strong-7b/main-again")])
    labels = run_labels(twice)
    again = "acme__strong-7b/main-again"
    assert len(set(labels.values())) == 2 and labels[again].endswith(f"· {again}")


def test_the_section_lays_out_a_chooser_per_chosen_figure_and_a_plot_per_figure() -> None:
    with gr.Blocks():
        section = build(WB, "leaderboard")
    assert section.top_n.elem_id == "leaderboard-top-n" and section.top_n.value == 20
    assert [chooser.elem_id for chooser in section.choosers] == ["leaderboard-chosen-radar",
                                                                 "leaderboard-chosen-language-variants"]
    assert section.choosers[0].multiselect and section.choosers[0].max_choices == 5
    assert not section.choosers[1].multiselect
    assert [plot.elem_id for plot in section.plots] == [f"leaderboard-plot-{name}" for name in FIGURES]
    assert section.inputs == [section.top_n, *section.choosers]
    assert section.outputs == [*section.plots, *section.choosers]
    with gr.Blocks():
        qa_section = build(INDIC_QA, "qa")
    assert qa_section.choosers == () and len(qa_section.plots) == len(INDIC_QA.board.figures)
