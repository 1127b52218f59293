"""A model's page: one model at one revision across every benchmark, as markdown we build.

Per benchmark its headline, rank, interval, breakdowns and flags, its provenance and links to its Hub page, items
and downloads, and the model's other revisions. Every text from a run is shown literally
(`display.literal_markdown`), never as markup or HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.display import (
    decimals_of,
    format_rank_range,
    hub_url,
    linked_markdown,
    literal_markdown,
    short_revision,
)
from leaderboard.model_links import model_address
from leaderboard.results import RunResult
from leaderboard.row_flags import FEW_ITEMS_INTERVAL, badges_markdown, too_few_items
from leaderboard.score_links import items_address
from leaderboard.scored_tables import group_figures, tab_id
from leaderboard.subset_ranks import CONFIG_FIELD

NOT_FOUND = ("### No such model on the board\nNo benchmark has a run of {model}{at}. Open a model from the "
             "**All benchmarks** tab (its name links here), or check the address.")
MAIN = "main"
DEFAULT_REVISION_RULE = ("A model's page without a revision (`?model=org/name`) shows its `main` revision, as the Hub "
                         "does for an id without one; a model with no run at `main` shows the revision of its newest "
                         "run. Its other revisions are listed and linked on the page (`&revision=`).")
"""Which revision a bare model link opens (the page's rule, also on About)."""
CHOOSE = ("### A model's page\nChoose a model above (type to search), or open one from the **All benchmarks** tab: "
          "its name links to its page here.")


@dataclass(frozen=True)
class BenchmarkStanding:
    """One benchmark's board as the page reads it: its runs and their rank frame (`benchmark_ranks`)."""

    benchmark: Benchmark
    runs: Sequence[RunResult]
    ranks: pd.DataFrame


def model_page(model: str, revision: str, boards: Sequence[BenchmarkStanding]) -> str:
    """The page of `model` at `revision`, or a note that the board has no run of it. A blank revision, or one the
    board has no run of (saying so), shows the default one (`DEFAULT_REVISION_RULE`)."""
    mine = [run for board in boards for run in board.runs if run.model.lower() == model.lower()]
    if not mine:
        return NOT_FOUND.format(model=literal_markdown(model), at=f" at {literal_markdown(revision)}" * bool(revision))
    revisions = _revisions(mine)
    chosen = revision if revision in revisions else MAIN if MAIN in revisions else revisions[0]
    name = mine[0].model
    parts = [f"## {literal_markdown(name)} @ {literal_markdown(short_revision(chosen))}", _links(name, chosen)]
    others = [other for other in revisions if other != chosen]
    if others:
        parts.append("**Other revisions:** " + ", ".join(
            linked_markdown(short_revision(other), model_address(name, other), other) for other in others))
    if revision and revision not in revisions:
        parts.append(f"(No run at revision {literal_markdown(revision)}: showing {literal_markdown(chosen)}.)")
    for board in boards:
        run = next((r for r in board.runs if r.model.lower() == model.lower() and r.revision == chosen), None)
        if run is not None:
            parts.append(_benchmark_section(board, run))
    return "\n\n".join(parts)


def _revisions(runs: Sequence[RunResult]) -> list[str]:
    """The model's revisions, the newest run's first."""
    newest_first = sorted(runs, key=lambda run: str(run.provenance.get("created_at") or ""), reverse=True)
    return list(dict.fromkeys(run.revision for run in newest_first))


def _links(model: str, revision: str) -> str:
    url = hub_url(model, revision)
    hub = f"[Hub page]({url})" if url else "no Hub page (not a Hub id)"
    return f"{hub} · full revision `{literal_markdown(revision)}`" if revision not in ("", "main") else hub


def _benchmark_section(board: BenchmarkStanding, run: RunResult) -> str:
    benchmark, metric = board.benchmark, board.benchmark.headline_metric()
    row = board.ranks[board.ranks["run_id"] == run.run_id]
    facts = row.iloc[0].to_dict() if not row.empty else {}
    ranked = len(board.ranks[board.ranks["rank"].notna()])
    items_tab = tab_id(benchmark)
    items = items_address(items_tab, run.run_id)
    lines = [
        f"### {literal_markdown(benchmark.title)}",
        f"- **{literal_markdown(metric.label)}:** {_value(facts.get('headline'), metric.unit)} "
        f"({literal_markdown(metric.unit)}), 95 % interval {_interval(facts, metric.unit)}",
        f"- **Rank:** {_rank(facts, ranked)}",
        f"- **Flags:** {badges_markdown(facts.get('flags')) or 'none'}",
        *([f"- **Answer length:** {_length(facts)}"] if "median_length" in facts else []),
        f"- **Items:** [its judgments and downloads]({items})",
        f"- **Provenance:** {_provenance(run)}",
    ]
    breakdown = _breakdown(benchmark, run, items_tab)
    return "\n".join(lines) + ("\n\n" + breakdown if breakdown else "")


def _rank(facts: Mapping[str, Any], ranked: int) -> str:
    rank = facts.get("rank")
    if rank is None or pd.isna(rank):
        note = facts.get("standing_note") or "not ranked"
        return f"not ranked ({literal_markdown(str(note))})"
    return f"{int(rank)} of {ranked} (range {format_rank_range(facts.get('rank_best'), facts.get('rank_worst'))})"


def _length(facts: Mapping[str, Any]) -> str:
    """The run's median answer length in the board's unit (`answer_lengths`), or why there is none."""
    median = facts.get("median_length")
    if median is None or pd.isna(median):
        return "none (its answers could not be read)"
    return f"{median:,.0f} {facts.get('length_unit')} (median over its answers)"


def _interval(facts: Mapping[str, Any], unit: str) -> str:
    low, high = facts.get("ci_low"), facts.get("ci_high")
    if too_few_items(facts.get("flags")):
        return FEW_ITEMS_INTERVAL
    if low is None or high is None or pd.isna(low) or pd.isna(high):
        return "none"
    return f"{_value(low, unit)} – {_value(high, unit)}"


def _provenance(run: RunResult) -> str:
    request, provenance = run.request, run.provenance
    facts = {
        "revision": run.revision,
        "dataset": request.get("dataset") or provenance.get("dataset"),
        "dataset revision": request.get("dataset_revision") or provenance.get("dataset_revision"),
        "judge": _judge(run),
        "evaluated": str(provenance.get("created_at") or "")[:19].replace("T", " "),
        "parameters (B)": request.get("params_b"),
        "precision": request.get("precision"),
        "generation": _generation(request.get("generation")),
    }
    return "; ".join(f"{name} {literal_markdown(str(value))}" for name, value in facts.items()
                     if value not in (None, "", {}))


def _judge(run: RunResult) -> str:
    """The judge the summary scored, or that no judge was called: a run whose verdicts all came from rules
    (Saraiki's keyword refusal classifier, a QA run of blank answers) names no judge it never asked."""
    usage = run.summary.get("usage")
    if isinstance(usage, Mapping) and usage.get("calls") == 0:
        return "none called (every verdict by the benchmark's rules)"
    return str(run.provenance.get("judge_model") or "")


def _generation(settings: object) -> str:
    shown = sorted(settings.items()) if isinstance(settings, Mapping) else []
    return ", ".join(f"{key}={value}" for key, value in shown if isinstance(value, (int, float, str)))


def _breakdown(benchmark: Benchmark, run: RunResult, items_tab: str) -> str:
    """A table of the run's breakdowns, each score linking to its items where a filter selects them."""
    rows = breakdown_rows(benchmark, run.summary)
    if not rows:
        return ""
    lines = ["| Breakdown | Score | 95 % interval |", "|---|---|---|"]
    for field, name, label, score, interval, unit in rows:
        text = _value(score, unit)
        cell = linked_markdown(text, items_address(items_tab, run.run_id, {field: name})) if field and text else text
        span = f"{_value(interval[0], unit)} – {_value(interval[1], unit)}" if interval else ""  # checked by run_shape
        lines.append(f"| {literal_markdown(str(label))} | {cell or '–'} | {span} |")
    return "\n".join(lines)


def breakdown_rows(benchmark: Benchmark, summary: Mapping[str, Any]) -> list[tuple[str, str, str, Any, Any, str]]:
    """A run's figures beside its headline, as (items filter field or "", group, label, value, interval, unit): every
    figure of its summary's metrics (an undeclared one, such as a count, under its own name), then the headline in
    each group of each breakdown that scores its groups by it."""
    metrics, intervals = summary.get("metrics") or {}, summary.get("intervals") or {}
    declared = {metric.name: metric for metric in benchmark.metrics}
    rows = [("", name, declared[name].label if name in declared else name, value, intervals.get(name),
             declared[name].unit if name in declared else "") for name, value in metrics.items()]
    unit, per_group = benchmark.headline_metric().unit, summary.get("config_intervals") or {}
    for breakdown in benchmark.board.breakdowns:
        for name, entry in (summary.get(breakdown.summary_key) or {}).items():
            value = group_figures(entry, benchmark).get(benchmark.headline)
            if value is not None:
                on_config = breakdown.item_field == CONFIG_FIELD  # only a config's interval is in the summary
                interval = (per_group.get(name) or {}).get(benchmark.headline) if on_config else None
                rows.append((breakdown.item_field, str(name), f"{breakdown.label}: {name}", value, interval, unit))
    return rows


def _value(value: object, unit: str) -> str:
    """A figure as the page shows it: a count (an int, or a figure in the unit `count`) as a whole number."""
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) or pd.isna(value):
        return "–"
    return f"{value:,.0f}" if isinstance(value, int) or unit == "count" else f"{value:.{decimals_of(unit)}f}"


def board_models(runs: Mapping[str, Sequence[RunResult]]) -> list[str]:
    """Every model with a run on any benchmark's board, once (ids match case-insensitively, as the page's do),
    in alphabetical order."""
    spelled: dict[str, str] = {}
    for board in runs.values():
        for run in board:
            spelled.setdefault(run.model.lower(), run.model)
    return sorted(spelled.values(), key=str.lower)


def standings(runs: Mapping[str, Sequence[RunResult]], ranks: Mapping[str, pd.DataFrame]) -> list[BenchmarkStanding]:
    """Every benchmark's standing, in the registry's order."""
    return [BenchmarkStanding(BENCHMARKS[name], runs[name], ranks[name]) for name in runs]
