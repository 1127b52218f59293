"""The figure kinds read right whatever the data: every label present, 100-character ids short with the whole id on
hover, heights bounded at 500 models, legends above the plot area, and no bar group mixing units or directions."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.board_view import FigureKind, FigureSpec
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from leaderboard.declared_figures import figure_metrics
from leaderboard.figure_kinds import (
    MAX_HEIGHT_PX,
    MAX_ROWS,
    VALUE_COLUMNS,
    draw,
    grouped_bars,
    headline_bars,
    heatmap,
    radar,
    scale_of,
    scatter,
)
from leaderboard.short_labels import MAX_LABEL_CHARS, short_labels

ORG = "bharat-collective-for-indic-language-technology"
SHAHMUKHI_GROUPS = ("سرائیکی علم", "ریاضی", "हिन्दी", "தமிழ்", "বাংলা")
PERCENT = scale_of("%")


def long_id(number: int) -> str:
    """A 100-character model id; ids differ only at their end, as a family's checkpoints do."""
    return f"{ORG}/indic-instruct-sft-dpo-merged-long-context-v2-step"[:95].ljust(95, "-") + f"{number:05d}"


def values(models: int, groups: tuple[str, ...] = SHAHMUKHI_GROUPS) -> pd.DataFrame:
    """The long frame of `models` runs with 100-character ids, one value per group, the best run first."""
    ids = [long_id(number) for number in range(models)]
    labels = short_labels(ids, ["main"] * models)
    rows = [{"row": label, "hover": model, "group": group, "value": 90.0 - (number % 80) - position,
             "low": 80.0 - (number % 80), "high": 95.0 - (number % 80), "note": None}
            for number, (model, label) in enumerate(zip(ids, labels)) for position, group in enumerate(groups)]
    return pd.DataFrame(rows, columns=list(VALUE_COLUMNS))


def test_a_100_character_id_is_drawn_short_with_the_whole_id_on_hover() -> None:
    frame = values(3)
    bars = headline_bars(frame.drop_duplicates("row"), "Headline", PERCENT).data[0]
    assert all(len(label) <= MAX_LABEL_CHARS for label in bars.y)
    assert len(set(bars.y)) == 3  # shortened, still told apart
    assert set(bars.hovertext) == {long_id(n) for n in range(3)}
    assert all("…" in label for label in bars.y)  # elided, never silently cut


def test_a_heatmap_names_every_row_and_column_in_any_script() -> None:
    figure = heatmap(values(40), "Per group", PERCENT)
    cells = figure.data[0]
    assert list(figure.layout.xaxis.tickvals) == list(SHAHMUKHI_GROUPS) == list(cells.x)
    assert list(figure.layout.yaxis.tickvals) == list(cells.y) and len(cells.y) == 40  # no label skipped
    assert cells.colorbar.title.text == "%"


def test_heights_are_bounded_at_500_models_and_the_title_says_what_is_left_out() -> None:
    many = values(500)
    for kind in (headline_bars, heatmap, grouped_bars):
        figure = kind(many if kind is not headline_bars else many.drop_duplicates("row"), "Title", PERCENT)
        assert figure.layout.height <= MAX_HEIGHT_PX, kind.__name__
        assert f"the first {MAX_ROWS} of 500 models" in figure.layout.title.text
    few = heatmap(values(5), "Title", PERCENT)
    assert few.layout.height < MAX_HEIGHT_PX and "of 5" not in few.layout.title.text


def test_legends_sit_above_the_plot_area_never_over_the_data() -> None:
    for figure in (grouped_bars(values(8), "Bars", PERCENT), radar(values(3), "Radar", PERCENT)):
        legend = figure.layout.legend
        assert legend.orientation == "h" and legend.y >= 1 and legend.yanchor == "bottom"
        assert figure.layout.margin.t >= 100  # room for the legend under the title


def test_grouped_bars_keep_each_run_s_groups_together_best_run_on_top() -> None:
    frame = values(4)
    figure = grouped_bars(frame, "Bars", PERCENT)
    assert [trace.name for trace in figure.data] == list(SHAHMUKHI_GROUPS)
    first = frame[frame["group"] == SHAHMUKHI_GROUPS[0]]
    assert list(figure.data[0].x) == list(first["value"][::-1])  # plotly draws the last category at the top


def test_the_radar_refuses_more_than_five_models() -> None:
    assert len(radar(values(5), "Radar", PERCENT).data) == 5
    with pytest.raises(ValueError, match="at most 5"):
        radar(values(6), "Radar", PERCENT)


def test_draw_states_the_unit_and_direction_and_turns_a_failure_into_a_message() -> None:
    spec = FigureSpec("over", FigureKind.HEADLINE, "Over-refusal")
    figure = draw(spec, values(2).drop_duplicates("row"), scale_of("%", higher_is_better=False))
    assert "%, lower is better" in figure.layout.title.text
    broken = draw(FigureSpec("radar", FigureKind.RADAR, "Radar"), values(9), PERCENT)
    assert not broken.data and "at most 5" in broken.layout.annotations[0].text
    lower = draw(FigureSpec("h", FigureKind.HEATMAP, "H"), values(2), scale_of("%", higher_is_better=False))
    assert lower.data[0].colorscale != draw(FigureSpec("h", FigureKind.HEATMAP, "H"), values(2), PERCENT).data[0].colorscale


def test_a_figure_mixing_directions_or_units_is_refused_with_both_named() -> None:
    mixed = FigureSpec("safety", FigureKind.BARS, "Safety", metrics=("refusal_rate", "over_refusal_rate"))
    with pytest.raises(ValueError, match="refusal_rate .*higher.*over_refusal_rate .*lower"):
        figure_metrics(SARAIKI, mixed)
    with pytest.raises(ValueError, match="does not declare.*'nope'"):
        figure_metrics(SARAIKI, FigureSpec("x", FigureKind.BARS, "X", metrics=("knowledge", "nope")))


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_every_declared_figure_is_of_one_unit_and_direction_and_names_declared_breakdowns(name: str) -> None:
    benchmark = BENCHMARKS[name]
    breakdowns = {breakdown.name for breakdown in benchmark.board.breakdowns}
    assert benchmark.board.figures
    assert len({spec.name for spec in benchmark.board.figures}) == len(benchmark.board.figures)  # one id each
    for spec in benchmark.board.figures:
        metrics = figure_metrics(benchmark, spec)
        assert len({(metric.unit, metric.higher_is_better) for metric in metrics}) == 1
        if spec.breakdown:
            assert spec.breakdown in breakdowns


def test_a_heatmap_leaves_a_gap_where_a_run_has_no_value_of_a_group() -> None:
    assert all(len(long_id(number)) == 100 for number in (0, 499))
    frame = values(3)
    frame.loc[(frame["row"] == frame["row"].iloc[0]) & (frame["group"] == SHAHMUKHI_GROUPS[2]), ["value", "low", "high"]] = math.nan
    cells = heatmap(frame, "Gaps", PERCENT).data[0]
    assert math.isnan(cells.z[0][2]) and not math.isnan(cells.z[1][2])
    assert cells.customdata[0][2] == "n/a"


def test_the_length_scatter_draws_each_model_whole_at_its_length_and_leaves_out_a_run_without_one() -> None:
    frame = values(3, ("median answer length (tokens)",)).assign(x=[40.0, 2000.0, float("nan")])
    frame["value"] = [100.0, 0.0, 50.0]
    figure = scatter(frame, "Length", PERCENT)
    points = figure.data[0]
    assert list(points.x) == [40.0, 2000.0] and list(points.y) == [100.0, 0.0]  # the run without a length left out
    assert list(points.hovertext) == [long_id(0), long_id(1)]
    low, high = figure.layout.xaxis.range  # log10 units: every point inside, none on the edge
    assert low < math.log10(40) and high > math.log10(2000) and figure.layout.xaxis.type == "log"
    assert figure.layout.yaxis.range[0] < 0 and figure.layout.yaxis.range[1] > 100
    assert figure.layout.xaxis.title.text == "median answer length (tokens)"
    assert scatter(frame.assign(x=float("nan")), "Length", PERCENT).layout.annotations  # a message, not a blank plot
