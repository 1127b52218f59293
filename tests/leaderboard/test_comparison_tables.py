"""The Compare view's table, forest plot and Judgments line: the engine's figures, formatted as the CLI prints them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from eval_backend.benchmarks.metric import Metric
from eval_backend.run_comparison import ALL_CONFIGS, FigureComparison
from eval_backend.statistics import Weighting, compare_paired, holm_adjusted, item_design
from leaderboard.comparison_tables import (
    ALL_ITEMS,
    ALL_LANGUAGES,
    COLUMNS,
    CSV_COLUMNS,
    comparison_table,
    download_document,
    download_table,
    filtered_summary,
    forest_figure,
    format_difference,
    headline_html,
)
from leaderboard.run_pair import BenchmarkComparison, SubsetComparison

SCORE = Metric("score", "Score <b>", "score 1–10", weighting=Weighting.POOLED)
REFUSALS = Metric("refusals", "Over-refusal rate", "%", higher_is_better=False, weighting=Weighting.POOLED)


def paired(shift: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    b = rng.normal(5, 1, 60)
    return compare_paired(b + shift + rng.normal(0, 0.1, 60), b, item_design(["Hindi"] * 30 + ["Tamil"] * 30))


@pytest.fixture
def comparison() -> BenchmarkComparison:
    return BenchmarkComparison(
        "toy", "Toy <i>benchmark</i>", "sha256:abc", "acme/a-7b", "acme/b-7b",
        by_language=(FigureComparison(SCORE, ALL_CONFIGS, paired(0.5)), FigureComparison(SCORE, "Hindi", paired(0.0)),
                     FigureComparison(REFUSALS, ALL_CONFIGS, paired(2.0, seed=1))),
        by_subset=(SubsetComparison("variant", "native", FigureComparison(SCORE, ALL_CONFIGS, paired(-1.0))),),
    )


def test_each_row_is_a_figure_on_its_items_and_language_with_the_cli_s_formatting(comparison) -> None:
    table = comparison_table(comparison)
    assert list(table.columns) == COLUMNS
    first = table.iloc[0]
    difference = comparison.by_language[0].comparison
    assert (first["Figure"], first["Items"], first["Language"]) == ("Score <b>", ALL_ITEMS, ALL_LANGUAGES)
    assert first["A − B"] == f"{difference.difference.estimate:+.3f}"
    assert first["95 % interval"] == f"[{difference.difference.low:+.3f}, {difference.difference.high:+.3f}]"
    assert first["p-value"] == f"{difference.p_value:.4f}"
    assert first["Won / tied / lost"] == f"{difference.wins} / {difference.ties} / {difference.losses}"
    assert first["Items (clusters)"] == "60 (60)"
    assert table.iloc[1]["Language"] == "Hindi"
    assert table.iloc[3]["Items"] == "variant = native"


def test_one_verdict_per_row_from_the_holm_adjusted_p_value_and_the_interval(comparison) -> None:
    table = comparison_table(comparison)
    assert table["Verdict"].tolist() == ["A better", "no significant difference", "B better", "B better"]
    # A's over-refusal rate is 2 points higher: in that figure's direction, B is the better model
    assert table.iloc[2]["Figure"] == "Over-refusal rate (lower is better)"
    rows = [*comparison.by_language, comparison.by_subset[0].comparison]
    adjusted = holm_adjusted(np.array([row.comparison.p_value for row in rows]))  # one family: the table's rows
    assert table["Holm p-value"].tolist() == [f"{p:.4f}" for p in adjusted]
    for (_, shown), row, p in zip(table.iterrows(), rows, adjusted):
        if shown["Verdict"].endswith("better"):
            assert p <= 0.05 and (row.comparison.difference.low > 0 or row.comparison.difference.high < 0)


def test_a_row_on_one_cluster_has_no_interval_p_value_or_verdict_and_says_why() -> None:
    lone = compare_paired(np.array([9.0]), np.array([6.0]), item_design(["Hindi"]))
    comparison = BenchmarkComparison("toy", "Toy", None, "a", "b", (FigureComparison(SCORE, ALL_CONFIGS, lone),), ())
    row = comparison_table(comparison).iloc[0]
    shown = (row["A − B"], row["95 % interval"], row["p-value"], row["Holm p-value"])
    assert shown == ("+3.000", "—", "—", "—")
    assert row["Verdict"].startswith("no verdict: rests on 1 cluster")
    csv = download_table(comparison).iloc[0]
    assert csv["Verdict"] == "no verdict" and "1 cluster" in csv["No verdict because"]
    assert "no verdict (rests on 1 cluster" in headline_html(comparison)
    document = json.dumps(download_document(comparison), allow_nan=False)  # strict JSON: null, not NaN
    assert json.loads(document)["comparisons"][0]["ci_low"] is None
    (points,) = forest_figure(comparison).data
    assert list(points.error_x.array) == [0.0]


def test_the_headline_answers_in_one_line_with_the_rule_beside_it(comparison) -> None:
    text = headline_html(comparison)
    first = comparison.by_language[0].comparison
    assert f"Score &lt;b&gt;: A − B = {first.difference.estimate:+.3f}".replace("-", "−") in text
    assert ": A better (p = " in text and "Holm-adjusted over 4 rows" in text
    assert "interval excludes 0" in text


def test_the_forest_plot_has_each_figure_and_language_with_its_interval_and_escaped_labels(comparison) -> None:
    figure = forest_figure(comparison)
    (points,) = figure.data
    assert list(points.y) == ["Over-refusal rate · all languages", "Score &lt;b&gt; · Hindi",
                              "Score &lt;b&gt; · all languages"]
    estimates = [result.comparison.difference for result in comparison.by_language][::-1]
    assert list(points.x) == [interval.estimate for interval in estimates]
    assert list(points.error_x.array) == pytest.approx([interval.high - interval.estimate for interval in estimates])
    assert figure.layout.title.text == "A − B, paired 95 % interval"


def test_the_judgments_line_gives_each_figure_and_escapes_the_model_ids(comparison) -> None:
    text = filtered_summary(comparison.by_language[:1], "evil/<script>", "acme/b")
    assert "<script>" not in text and "evil/&lt;script&gt;" in text
    difference = comparison.by_language[0].comparison
    assert f"A − B = {difference.difference.estimate:+.3f}" in text
    assert f"A won {difference.wins}, tied {difference.ties}, lost {difference.losses} of 60 items" in text


def test_the_csv_download_holds_the_table_s_rows_unrounded(comparison) -> None:
    table, csv = comparison_table(comparison), download_table(comparison)
    assert list(csv.columns) == CSV_COLUMNS
    assert csv[["Figure", "Items", "Language"]].equals(table[["Figure", "Items", "Language"]])
    assert csv["Verdict"].tolist() == table["Verdict"].tolist()
    shown = [format_difference(value) for value in csv["A − B"]]
    assert shown == table["A − B"].tolist()
    intervals = [f"[{format_difference(low)}, {format_difference(high)}]"
                 for low, high in zip(csv["95 % low"], csv["95 % high"])]
    assert intervals == table["95 % interval"].tolist()
    assert [f"{p:.4f}" for p in csv["p-value"]] == table["p-value"].tolist()
    assert [f"{w} / {t} / {l}" for w, t, l in zip(csv["Won"], csv["Tied"], csv["Lost"])] == \
        table["Won / tied / lost"].tolist()
    assert csv["A − B"].iloc[0] == comparison.by_language[0].comparison.difference.estimate  # not rounded


def test_the_json_download_is_the_cli_s_document_with_the_subset_rows(comparison) -> None:
    document = download_document(comparison)
    assert (document["a"], document["b"], document["benchmark"], document["dataset_revision"]) == (
        "acme/a-7b", "acme/b-7b", "toy", "sha256:abc")
    assert [row["difference"] for row in document["comparisons"]] == [
        result.comparison.difference.estimate for result in comparison.by_language]
    assert "where" not in document["comparisons"][0]
    (subset,) = document["subsets"]
    assert subset["where"] == {"variant": "native"}
    assert subset["p_value"] == comparison.by_subset[0].comparison.comparison.p_value
