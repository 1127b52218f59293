"""The plots tab's failsafe: a failing figure becomes a message, never a broken callback."""

from __future__ import annotations

import html
from types import SimpleNamespace

import pandas as pd

from leaderboard.results import ResultsStore
from leaderboard.writing_bench_tables import TableCache
from leaderboard.figure_kinds import failsafe
from leaderboard.tabs.plots_tab import render_plots
from tests.support.run_folders import EvaluatedData


def test_failsafe_turns_an_exception_into_a_message_figure() -> None:
    def broken(table: pd.DataFrame):
        raise KeyError("overall")

    figure = failsafe(broken)(pd.DataFrame())
    assert len(figure.data) == 0
    assert "could not be drawn" in figure.layout.annotations[0].text and "overall" in figure.layout.annotations[0].text


def test_plots_show_the_ranked_runs_and_one_model_s_languages_by_rendering(evaluated: EvaluatedData) -> None:
    context = SimpleNamespace(store=ResultsStore(evaluated.runs_dir), tables=TableCache())
    plots = render_plots(context, 10, None, "acme/reasoner-3b")  # type: ignore[arg-type]
    escaped = [html.escape(model, quote=False) for model in evaluated.ranked_models()]
    assert list(plots.overall.data[0].y)[::-1] == escaped
    assert plots.variant_model["value"] == "acme/reasoner-3b"
    assert plots.variant_model["choices"] == evaluated.ranked_models()  # unranked runs are not plotted
    assert "acme/reasoner-3b" in plots.language_variants.layout.title.text
    assert len(plots.subdomains.data[0].y) == 3


def test_the_radar_offers_every_ranked_model_not_only_the_top_n(evaluated: EvaluatedData) -> None:
    context = SimpleNamespace(store=ResultsStore(evaluated.runs_dir), tables=TableCache())
    last = evaluated.ranked_models()[-1]
    plots = render_plots(context, 1, [last])  # type: ignore[arg-type]
    assert plots.radar_models["choices"] == evaluated.ranked_models()
    assert plots.radar_models["value"] == [last]
    assert [trace.name for trace in plots.radar.data] == [html.escape(last, quote=False)]
    assert len(plots.overall.data[0].y) == 1  # the other plots keep to the top N
