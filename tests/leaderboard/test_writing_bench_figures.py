"""Figures from the real leaderboard table: data in each trace, escaped labels, readable sizes."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from leaderboard.display import format_interval, format_rank_range
from leaderboard.figure_kinds import MAX_RADAR_ROWS, draw, error_figure, radar
from leaderboard.writing_bench_figures import SCALE, SPECS, figure_values, group_values
from leaderboard.results import ResultsStore
from leaderboard.writing_bench_tables import (
    BoardQuery,
    TableCache,
    group_members,
    language_variant_frame,
    query_rows,
    subdomain_frame,
    top_n,
)
from tests.support.run_folders import SCRIPT_MODEL_ID, EvaluatedData

ESCAPED_SCRIPT = "evil-org/&lt;script&gt;alert(1)&lt;/script&gt;"


def declared(name: str, table: pd.DataFrame, scores: pd.DataFrame | None = None):
    """WritingBench's declared figure `name` of the runs of `table`, as its Plots tab draws it."""
    return draw(SPECS[name], figure_values(SPECS[name], table, scores), SCALE)


def overall_figure(table: pd.DataFrame):
    return declared("overall", table)


def language_heatmap(table: pd.DataFrame):
    return declared("heatmap", table)


def variant_bars(table: pd.DataFrame):
    return declared("variants", table)


def domain_radar(table: pd.DataFrame, labels):
    return declared("radar", table[table["label"].isin(labels)])


def test_headline_bars_are_the_indic_average_with_its_interval_best_on_top(table: pd.DataFrame) -> None:
    ranked = top_n(table, 50)
    bar = overall_figure(ranked).data[0]
    assert list(bar.y)[-1] == ranked["label"][0]  # plotly draws the last category at the top
    best = ranked.iloc[0]
    assert bar.x[-1] == best["indic_average"]
    assert bar.error_x.array[-1] == pytest.approx(best["indic_ci_high"] - best["indic_average"])
    assert bar.error_x.arrayminus[-1] == pytest.approx(best["indic_average"] - best["indic_ci_low"])
    assert f"rank range {format_rank_range(best['rank_best'], best['rank_worst'])}<br>" in bar.customdata[-1]
    assert bar.customdata[-1].endswith("answers cut off in thinking: 0")  # no answer of the best model was cut off in thinking


def test_ranked_on_a_subset_the_headline_bars_carry_the_subset_s_interval_and_rank_range(
    store: ResultsStore, table: pd.DataFrame
) -> None:
    snapshot, tables = store.snapshot(), TableCache()
    query = BoardQuery(languages=("Hindi", "Tamil"))
    ranked = top_n(query_rows(tables.table(snapshot), query, tables.subset(snapshot, query)), 50)
    assert ranked["subset_ci_low"].notna().all()
    bar = overall_figure(ranked).data[0]
    best = ranked.iloc[0]
    assert bar.x[-1] == best["subset_average"]
    assert bar.error_x.array[-1] == pytest.approx(best["subset_ci_high"] - best["subset_average"])
    assert bar.error_x.arrayminus[-1] == pytest.approx(best["subset_average"] - best["subset_ci_low"])
    assert f"rank range {format_rank_range(best['rank_best'], best['rank_worst'])}<br>" in bar.customdata[-1]


def test_the_heatmap_hover_gives_each_language_s_interval(table: pd.DataFrame, evaluated: EvaluatedData) -> None:
    heatmap = language_heatmap(table).data[0]
    configs = group_members(table, "config")
    row = list(table["model"]).index("acme/strong-7b")
    low, high = evaluated.summary("acme/strong-7b")["config_ci"]["Hindi"]
    assert heatmap.customdata[row][configs.index("Hindi")] == format_interval(low, high)
    assert "customdata" in heatmap.hovertemplate


def test_language_by_rendering_view_of_one_model(
    store: ResultsStore, table: pd.DataFrame, evaluated: EvaluatedData
) -> None:
    run_id = table.set_index("model").loc["acme/reasoner-3b", "run_id"]
    scores = language_variant_frame([store.run(run_id)])
    heatmap = declared("language-variants", table, scores).data[0]
    assert list(heatmap.x) == ["native", "code_mixed", "romanized"]
    assert list(heatmap.y)[:3] == ["Bengali", "Hindi", "Tamil"]  # the Indic languages first, in order
    expected = evaluated.summary("acme/reasoner-3b")["config_variants"]["Hindi"]
    assert heatmap.z[1][0] == expected["native"] and heatmap.z[1][2] == expected["romanized"]


def test_subdomains_are_named_with_their_domain(store: ResultsStore, table: pd.DataFrame) -> None:
    ranked = top_n(table, 50)
    heatmap = declared("subdomains", ranked, subdomain_frame(store.snapshot().runs)).data[0]
    assert all(" / " in name for name in heatmap.x)
    assert len(heatmap.y) == len(ranked)


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


def test_variant_bars_have_one_trace_per_rendering_as_horizontal_bars(table: pd.DataFrame) -> None:
    figure = variant_bars(table)
    assert [trace.name for trace in figure.data] == ["native", "code_mixed", "romanized"]
    assert {trace.orientation for trace in figure.data} == {"h"}  # names on the y axis: no rotated labels
    assert list(figure.data[2].x) == list(table["variant.romanized"][::-1])  # best run at the top
    many = variant_bars(pd.concat([table] * 4, ignore_index=True))
    assert many.layout.height > figure.layout.height  # the plot area grows with the runs


def test_the_radar_leaves_room_for_its_longest_domain_label(table: pd.DataFrame) -> None:
    figure = domain_radar(table, list(table["label"][:1]))
    assert figure.layout.margin.l >= 120 and figure.layout.margin.r >= 120


def test_radar_shows_the_chosen_models_and_refuses_more_than_five(table: pd.DataFrame) -> None:
    chosen = list(table["label"][:2])
    figure = domain_radar(table, chosen)
    assert [trace.name for trace in figure.data] == chosen
    assert len(figure.data[0].r) == len(group_members(table, "domain")) + 1  # closed polygon
    many = pd.concat([table] * 2, ignore_index=True).assign(model=[f"m{n}" for n in range(2 * len(table))])
    assert len(many) > MAX_RADAR_ROWS
    with pytest.raises(ValueError, match="at most 5"):
        radar(group_values(many, "domain"), "Score by domain", SCALE)


def test_figures_grow_with_the_number_of_models(table: pd.DataFrame) -> None:
    many = pd.concat([table] * 12, ignore_index=True)  # 60 rows
    assert overall_figure(many).layout.height > overall_figure(top_n(table, 2)).layout.height
    assert overall_figure(many).layout.height >= 28 * 60


def test_empty_inputs_give_a_message_instead_of_an_error(table: pd.DataFrame) -> None:
    empty = table.iloc[0:0]
    figures = (
        overall_figure(empty), language_heatmap(empty), variant_bars(empty), domain_radar(table, []),
        declared("language-variants", empty, language_variant_frame([])), declared("subdomains", empty, subdomain_frame([])),
    )
    for figure in figures:
        assert len(figure.data) == 0 and figure.layout.annotations
    assert error_figure("<b>x</b>").layout.annotations[0].text == "&lt;b&gt;x&lt;/b&gt;"
