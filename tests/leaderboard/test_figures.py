"""Figures from the real leaderboard table: data in each trace, escaped labels, readable sizes."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from leaderboard.figures import MAX_RADAR_MODELS, domain_radar, error_figure, language_heatmap, overall_figure, variant_bars
from leaderboard.tables import group_members, top_n
from tests.support.run_folders import SCRIPT_MODEL_ID

ESCAPED_SCRIPT = "evil-org/&lt;script&gt;alert(1)&lt;/script&gt;"


def test_overall_bars_carry_the_interval_and_put_the_best_on_top(table: pd.DataFrame) -> None:
    bar = overall_figure(table).data[0]
    assert list(bar.y)[-1] == table["label"][0]  # plotly draws the last category at the top
    best = table.iloc[0]
    assert bar.x[-1] == best["overall"]
    assert bar.error_x.array[-1] == pytest.approx(best["overall_ci_high"] - best["overall"])
    assert bar.error_x.arrayminus[-1] == pytest.approx(best["overall"] - best["overall_ci_low"])


def test_model_labels_are_escaped_for_plotly(table: pd.DataFrame) -> None:
    labels = list(overall_figure(table).data[0].y)
    assert ESCAPED_SCRIPT in labels and SCRIPT_MODEL_ID not in labels
    assert ESCAPED_SCRIPT in list(language_heatmap(table).data[0].y)


def test_heatmap_holds_each_language_score_and_gaps_for_uncovered_ones(table: pd.DataFrame) -> None:
    heatmap = language_heatmap(table).data[0]
    configs = group_members(table, "config")
    assert list(heatmap.x) == configs
    partial = list(table["model"]).index("bharat/partial-1b")
    row = heatmap.z[partial]
    assert row[configs.index("Hindi")] == table.loc[partial, "config.Hindi"]
    assert math.isnan(row[configs.index("Bengali")])


def test_variant_bars_have_one_trace_per_rendering(table: pd.DataFrame) -> None:
    figure = variant_bars(table)
    assert [trace.name for trace in figure.data] == ["native", "code_mixed", "romanized"]
    assert list(figure.data[2].y) == list(table["variant.romanized"])


def test_radar_shows_the_chosen_models_and_refuses_more_than_five(table: pd.DataFrame) -> None:
    chosen = list(table["label"][:2])
    figure = domain_radar(table, chosen)
    assert [trace.name for trace in figure.data] == chosen
    assert len(figure.data[0].r) == len(group_members(table, "domain")) + 1  # closed polygon
    with pytest.raises(ValueError, match="at most 5"):
        domain_radar(table, ["m"] * (MAX_RADAR_MODELS + 1))


def test_figures_grow_with_the_number_of_models(table: pd.DataFrame) -> None:
    many = pd.concat([table] * 12, ignore_index=True)  # 60 rows
    assert overall_figure(many).layout.height > overall_figure(top_n(table, 2)).layout.height
    assert overall_figure(many).layout.height >= 28 * 60


def test_empty_inputs_give_a_message_instead_of_an_error(table: pd.DataFrame) -> None:
    empty = table.iloc[0:0]
    for figure in (overall_figure(empty), language_heatmap(empty), variant_bars(empty), domain_radar(table, [])):
        assert len(figure.data) == 0 and figure.layout.annotations
    assert error_figure("<b>x</b>").layout.annotations[0].text == "&lt;b&gt;x&lt;/b&gt;"
