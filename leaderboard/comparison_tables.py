"""The Compare view's table, forest plot and downloads of one benchmark: pure functions of a `BenchmarkComparison`.

The figures are the CLI's (`compare --json`: `comparison_dict`), formatted as its table prints
them; "significant" means the paired 95 % interval excludes 0, and says which model is better
in the figure's direction. The downloads hold the same figures unrounded: the JSON is what
`compare --json` prints for the pair, plus the subset rows (each what `--where COLUMN=VALUE`
prints for all languages), the CSV the table's rows with numbers at full precision. Labels reach plotly escaped (`figure_kinds.plot_text`): an id like `<b>` is
drawn as those characters.
"""

from __future__ import annotations

import html
from typing import Any, Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from eval_backend.cli.compare_cmd import comparison_dict, comparison_document
from eval_backend.run_comparison import ALL_CONFIGS, FigureComparison
from leaderboard.figure_kinds import bounded_layout, error_figure, plot_text
from leaderboard.run_pair import BenchmarkComparison

ALL_ITEMS, ALL_LANGUAGES = "all items", "all languages"
COLUMNS = ["Figure", "Items", "Language", "A − B", "95 % interval", "p-value", "Significant", "Won / tied / lost",
           "Items (clusters)"]
CSV_COLUMNS = ["Figure", "Items", "Language", "A − B", "95 % low", "95 % high", "p-value", "Significant", "Won",
               "Tied", "Lost", "Items compared", "Clusters"]
NOT_SIGNIFICANT = "no"


def comparison_records(comparison: BenchmarkComparison) -> list[dict[str, Any]]:
    """Every comparison of the benchmark as `compare --json` writes it, with the subset it is on (`where`)."""
    records = [{**comparison_dict(result), "where": None} for result in comparison.by_language]
    records += [{**comparison_dict(subset.comparison), "where": {subset.column: subset.value}}
                for subset in comparison.by_subset]
    return records


def comparison_table(comparison: BenchmarkComparison) -> pd.DataFrame:
    """One row per figure and language, then per figure and subset value: the difference A − B and its test."""
    return pd.DataFrame([_row(record) for record in comparison_records(comparison)], columns=COLUMNS)


def download_document(comparison: BenchmarkComparison) -> dict[str, Any]:
    """The JSON download: `compare --json` of the pair, and `subsets`, each row what `--where` gives on all languages."""
    document = comparison_document(comparison.a_label, comparison.b_label, comparison.benchmark,
                                   comparison.dataset_revision, comparison.by_language)
    document["subsets"] = [record for record in comparison_records(comparison) if record["where"] is not None]
    return document


def download_table(comparison: BenchmarkComparison) -> pd.DataFrame:
    """The CSV download: the table's rows, the numbers unrounded and the counts apart."""
    rows = [[*_row_labels(record), *(record[key] for key in ("difference", "ci_low", "ci_high", "p_value")),
             significance(record), *(record[key] for key in ("wins", "ties", "losses", "n_items", "n_clusters"))]
            for record in comparison_records(comparison)]
    return pd.DataFrame(rows, columns=CSV_COLUMNS)


def significance(record: Mapping[str, Any]) -> str:
    """"A better" / "B better" when the interval excludes 0 (in the figure's direction), else "no"."""
    low, high = record["ci_low"], record["ci_high"]
    if not low > 0 and not high < 0:  # NaN bounds (one cluster) are no evidence either
        return NOT_SIGNIFICANT
    a_higher = low > 0
    return "A better" if a_higher == record["higher_is_better"] else "B better"


def forest_figure(comparison: BenchmarkComparison) -> go.Figure:
    """Each figure overall and per language: A − B with its paired 95 % interval, 0 marked."""
    results = list(comparison.by_language)
    if not results:
        return error_figure("No item both runs scored.")
    rows = results[::-1]  # plotly draws the first category at the bottom
    differences = [result.comparison.difference for result in rows]
    figure = go.Figure(go.Scatter(
        x=[difference.estimate for difference in differences],
        y=[plot_text(_row_label(result)) for result in rows],
        mode="markers",
        marker={"size": 9, "color": "#2f6db5"},
        error_x={"type": "data", "array": [max(d.high - d.estimate, 0) for d in differences],
                 "arrayminus": [max(d.estimate - d.low, 0) for d in differences]},
        hovertemplate="%{y}<br>A − B %{x:+.3f}<extra></extra>",
    ))
    figure.add_vline(x=0, line_dash="dash", line_color="#888")
    unit = rows[0].figure.unit  # the section's heading names the benchmark; a phone has no room for it twice
    return bounded_layout(figure, "A − B, paired 95 % interval", len(rows), xaxis_title=f"A − B ({plot_text(unit)})")


def _row(record: Mapping[str, Any]) -> list[str]:
    return [
        *_row_labels(record),
        format_difference(record["difference"]),
        f"[{format_difference(record['ci_low'])}, {format_difference(record['ci_high'])}]",
        f"{record['p_value']:.4f}",
        significance(record),
        f"{record['wins']} / {record['ties']} / {record['losses']}",
        f"{record['n_items']} ({record['n_clusters']})",
    ]


def _row_labels(record: Mapping[str, Any]) -> list[str]:
    """A row's figure, items and language, as the table and the CSV name them."""
    where = record["where"]
    return [
        record["label"] + ("" if record["higher_is_better"] else " (lower is better)"),
        ALL_ITEMS if not where else ", ".join(f"{column} = {value}" for column, value in where.items()),
        ALL_LANGUAGES if record["scope"] == ALL_CONFIGS else record["scope"],
    ]


def format_difference(value: float) -> str:
    """A difference as the CLI prints it: signed, three decimals."""
    return f"{value:+.3f}"


def _row_label(result: FigureComparison) -> str:
    scope = ALL_LANGUAGES if result.scope == ALL_CONFIGS else result.scope
    return f"{result.figure.label} · {scope}"



def filtered_summary(results: Sequence[FigureComparison], a_label: str, b_label: str) -> str:
    """The paired comparison on the items a viewer filtered, one line per figure, as escaped HTML."""
    lines = [f"<strong>A</strong> = {html.escape(a_label)}, <strong>B</strong> = {html.escape(b_label)}, "
             "on the items listed (every language pooled, as the benchmark weighs them):"]
    for result in results:
        record = comparison_dict(result)
        lines.append(
            f"{html.escape(record['label'])}: A − B = {format_difference(record['difference'])} "
            f"[{format_difference(record['ci_low'])}, {format_difference(record['ci_high'])}] "
            f"(paired 95 % interval), p = {record['p_value']:.4f}, significant: {significance(record)}; "
            f"A won {record['wins']}, tied {record['ties']}, lost {record['losses']} "
            f"of {record['n_items']} items ({record['n_clusters']} clusters)")
    return wrapping_html("<br>".join(lines))


def wrapping_html(body: str) -> str:
    """`body` (already escaped) in a block whose long ids wrap at any character rather than widen the page."""
    return f'<div dir="auto" style="overflow-wrap:anywhere">{body}</div>'
