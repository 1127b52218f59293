"""The Compare view's table, forest plot and downloads of one benchmark: pure functions of a `BenchmarkComparison`.

The figures are the CLI's (`compare --json`), formatted as its table prints them, each row's verdict by the one
rule of `eval_backend.statistics.verdict` with every row of the benchmark's table (languages and subset values
together) its Holm family. The downloads hold the same figures unrounded: the JSON what `compare --json` prints
plus the subset rows, the CSV the table's rows. Labels reach plotly escaped (`figure_kinds.plot_text`).
"""

from __future__ import annotations

import html
from typing import Any, Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from eval_backend.cli.compare_cmd import comparison_document, comparison_records as figure_records, headline_sentence
from eval_backend.run_comparison import ALL_CONFIGS, FigureComparison
from eval_backend.statistics.verdict import RULE
from leaderboard.figure_kinds import bounded_layout, error_figure, plot_text
from leaderboard.run_pair import BenchmarkComparison

ALL_ITEMS, ALL_LANGUAGES = "all items", "all languages"
COLUMNS = ["Figure", "Items", "Language", "A − B", "95 % interval", "p-value", "Holm p-value", "Verdict",
           "Won / tied / lost", "Items (clusters)"]
CSV_COLUMNS = ["Figure", "Items", "Language", "A − B", "95 % low", "95 % high", "p-value", "Holm p-value", "Verdict",
               "No verdict because", "Won", "Tied", "Lost", "Items compared", "Clusters"]
NONE = "—"
"""A number a row does not have (no interval or p-value on too few clusters)."""


def comparison_records(comparison: BenchmarkComparison) -> list[dict[str, Any]]:
    """Every comparison of the benchmark as `compare --json` writes it, with the subset it is on (`where`),
    its verdict adjusted over all of them (the table's rows are one family)."""
    results = [*comparison.by_language, *(subset.comparison for subset in comparison.by_subset)]
    wheres = [None] * len(comparison.by_language) + [{subset.column: subset.value} for subset in comparison.by_subset]
    return [{**record, "where": where} for record, where in zip(figure_records(results), wheres)]


def comparison_table(comparison: BenchmarkComparison) -> pd.DataFrame:
    """One row per figure and language, then per figure and subset value: the difference A − B and its test."""
    return pd.DataFrame([_row(record) for record in comparison_records(comparison)], columns=COLUMNS)


def download_document(comparison: BenchmarkComparison) -> dict[str, Any]:
    """The JSON download: `compare --json` of the pair, and `subsets`, each what `--where` gives on all languages."""
    records = comparison_records(comparison)
    document = comparison_document(comparison.a_label, comparison.b_label, comparison.benchmark,
                                   comparison.dataset_revision,
                                   [{key: value for key, value in record.items() if key != "where"}
                                    for record in records if record["where"] is None])
    document["subsets"] = [record for record in records if record["where"] is not None]
    return document


def download_table(comparison: BenchmarkComparison) -> pd.DataFrame:
    """The CSV download: the table's rows, the numbers unrounded and the counts apart."""
    keys = ("difference", "ci_low", "ci_high", "p_value", "adjusted_p_value", "verdict", "no_verdict_reason", "wins",
            "ties", "losses", "n_items", "n_clusters")
    rows = [[*_row_labels(record), *(record[key] for key in keys)] for record in comparison_records(comparison)]
    return pd.DataFrame(rows, columns=CSV_COLUMNS)


def headline_html(comparison: BenchmarkComparison) -> str:
    """The benchmark's one-line answer, its headline row: `Indic average: A − B = −0.35 [−0.65, +0.01]: no
    significant difference (p = 0.09, Holm-adjusted over 33 rows)`, then the rule every row's verdict follows."""
    records = comparison_records(comparison)
    return wrapping_html(f"<strong>{html.escape(headline_sentence(records[0]))}</strong><br>"
                         f"Every row's verdict: {html.escape(RULE)} (this table's {records[0]['family_size']} rows "
                         "with a p-value). A row on too few clusters has no interval, p-value or verdict.")


def forest_figure(comparison: BenchmarkComparison) -> go.Figure:
    """Each figure overall and per language (each language once): A − B with its paired 95 % interval, 0 marked.

    A row with no interval (too few clusters) is drawn as its point alone, labelled "no interval"."""
    results = list(comparison.by_language)
    if not results:
        return error_figure("No item both runs scored.")
    rows = results[::-1]  # plotly draws the first category at the bottom
    differences = [result.comparison.difference for result in rows]
    figure = go.Figure(go.Scatter(
        x=[difference.estimate for difference in differences],
        y=[plot_text(f"{result.figure.label} · {_scope(result.scope)}") for result in rows],
        mode="markers", marker={"size": 9, "color": "#2f6db5"},
        error_x={"type": "data", "array": [_reach(d.high - d.estimate) for d in differences],
                 "arrayminus": [_reach(d.estimate - d.low) for d in differences]},
        hovertemplate="%{y}<br>A − B %{x:+.3f}<extra></extra>"))
    figure.add_vline(x=0, line_dash="dash", line_color="#888")
    unit = rows[0].figure.difference_unit  # the section's heading names the benchmark; a phone has no room for it twice
    return bounded_layout(figure, "A − B, paired 95 % interval", len(rows), xaxis_title=f"A − B ({plot_text(unit)})")


def _reach(extent: float) -> float:
    """An error bar's length: 0 where there is no interval."""
    return max(extent, 0.0) if extent == extent else 0.0


def _row(record: Mapping[str, Any]) -> list[str]:
    return [*_row_labels(record), format_difference(record["difference"]), format_interval(record),
            format_p(record["p_value"]), format_p(record["adjusted_p_value"]), verdict_text(record),
            f"{record['wins']} / {record['ties']} / {record['losses']}",
            f"{record['n_items']} ({record['n_clusters']})"]


def verdict_text(record: Mapping[str, Any]) -> str:
    """The row's verdict, with the reason when there is none."""
    reason = record["no_verdict_reason"]
    return record["verdict"] if reason is None else f"{record['verdict']}: {reason}"


def format_interval(record: Mapping[str, Any]) -> str:
    """`[low, high]` as the CLI prints it, or "—" without an interval."""
    low, high = record["ci_low"], record["ci_high"]
    return NONE if low is None else f"[{format_difference(low)}, {format_difference(high)}]"


def format_p(value: float | None) -> str:
    """A p-value to four decimals, or "—" without one."""
    return NONE if value is None else f"{value:.4f}"


def _row_labels(record: Mapping[str, Any]) -> list[str]:
    """A row's figure, items and language, as the table and the CSV name them."""
    where = record["where"]
    return [record["label"] + ("" if record["higher_is_better"] else " (lower is better)"),
            ", ".join(f"{column} = {value}" for column, value in where.items()) if where else ALL_ITEMS,
            _scope(record["scope"])]


def format_difference(value: float | None) -> str:
    """A difference as the CLI prints it: signed, three decimals ("—" for none)."""
    return NONE if value is None else f"{value:+.3f}"


def _scope(scope: str) -> str:
    return ALL_LANGUAGES if scope == ALL_CONFIGS else scope


def filtered_summary(results: Sequence[FigureComparison], a_label: str, b_label: str) -> str:
    """The paired comparison on the items a viewer filtered, one line per figure, as escaped HTML."""
    lines = [f"<strong>A</strong> = {html.escape(a_label)}, <strong>B</strong> = {html.escape(b_label)}, "
             "on the items listed (every language pooled, as the benchmark weighs them):"]
    lines += [f"{html.escape(record['label'])}: A − B = {format_difference(record['difference'])} "
              f"{format_interval(record)} (paired 95 % interval), p = {format_p(record['p_value'])}, "
              f"Holm-adjusted over these {record['family_size']} lines {format_p(record['adjusted_p_value'])}: "
              f"{html.escape(verdict_text(record))}; A won {record['wins']}, tied {record['ties']}, lost "
              f"{record['losses']} of {record['n_items']} items ({record['n_clusters']} clusters)"
              for record in figure_records(results)]
    return wrapping_html("<br>".join(lines))


def wrapping_html(body: str) -> str:
    """`body` (already escaped) in a block whose long ids wrap at any character rather than widen the page."""
    return f'<div dir="auto" style="overflow-wrap:anywhere">{body}</div>'
