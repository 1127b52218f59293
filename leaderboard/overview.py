"""The landing view: each model revision's headline on every benchmark, side by side.

Scores of different kinds (a 1–10 rubric mean, an accuracy in %) are never averaged into one number: each benchmark
keeps its own column, labelled with its metric and unit, blank for a model not evaluated on it.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import pandas as pd

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS
from leaderboard.results import RunResult
from leaderboard.scored_rankings import RANKED, coverage_standing


def headline_column(benchmark: Benchmark) -> str:
    """The column of a benchmark on the landing view: its title, metric and unit."""
    metric = benchmark.headline_metric()
    return f"{benchmark.title}: {metric.label} ({metric.unit})"


def overview_frame(runs_by_benchmark: Mapping[str, Sequence[RunResult]]) -> pd.DataFrame:
    """One row per (model, revision) with one headline column per benchmark, in the order of the first benchmark's
    headline, best first, then the next's for models only it has. Only ranked runs show a headline: a partial or
    incomplete run's rests on part of the evidence (its tab lists it apart)."""
    columns = [headline_column(BENCHMARKS[name]) for name in runs_by_benchmark]
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for name, runs in runs_by_benchmark.items():
        benchmark = BENCHMARKS[name]
        for run in (run for run in runs if coverage_standing(run.summary)["standing"] == RANKED):
            row = rows.setdefault((run.model.lower(), run.revision), {"model": run.model, "revision": run.revision})
            row[headline_column(benchmark)] = benchmark.headline_value(run.summary)
    frame = pd.DataFrame(list(rows.values()), columns=["model", "revision", *columns])
    ordered = frame.sort_values(columns, ascending=False, na_position="last", kind="stable")
    return grouped_by_model(ordered.reset_index(drop=True))


def grouped_by_model(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with each model's other revisions right under its first (best-placed) row, the order kept otherwise."""
    first = {model: position for position, model in reversed(list(enumerate(frame["model"].str.lower())))}
    keys = [first[model] for model in frame["model"].str.lower()]
    return frame.assign(_group=keys).sort_values("_group", kind="stable").drop(columns="_group").reset_index(drop=True)


def rank_column(benchmark: Benchmark) -> str:
    """The column of a benchmark's rank on the landing view."""
    return f"{benchmark.title} rank"
