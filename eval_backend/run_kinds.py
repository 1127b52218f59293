"""The one place the engine parts its two benchmark records: how it scores a run of each.

WritingBench fills in the rubric `Benchmark`, QA, Saraiki and any declared benchmark a
`ScoredBenchmark`. Both declare their judge scorers and verdict lines, so reading, judging
(live and batch), consistency and cost estimates are one path (`eval_backend.judge_calls`);
only the summary is still WritingBench's own, so moving it onto the declared aggregate
changes this table alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, TypeVar

from eval_backend.benchmarks import AnyBenchmark
from eval_backend.run_folder import RunFolder
from eval_backend.scorer_runs import score_scored_run
from eval_backend.writing_bench_reporting import score_run_folder

T = TypeVar("T")


@dataclass(frozen=True)
class RunKind:
    """How the engine scores a run of one benchmark record (reading, judging, consistency and cost are one path)."""

    score: Callable[[Any, RunFolder, str | None], Any]
    """Recompute summary.json and details.parquet from the folder alone; returns the summary."""


RUN_KINDS = {"rubric": RunKind(score=score_run_folder), "scored": RunKind(score=score_scored_run)}


def run_kind(benchmark: AnyBenchmark) -> RunKind:
    """The engine's path for `benchmark`, by the record it fills in (its `kind`)."""
    return of_kind(RUN_KINDS, benchmark, "eval_backend/run_kinds.py", "the engine cannot run")


def of_kind(kinds: Mapping[str, T], benchmark: AnyBenchmark, table: str, unknown: str) -> T:
    """`kinds`' entry for `benchmark`'s kind; a kind it lacks is a clear error naming the benchmark and `table`."""
    if benchmark.kind not in kinds:
        raise ValueError(f"benchmark {benchmark.name!r} is of kind {benchmark.kind!r}, which {unknown}: add an entry "
                         f"for it to {table} (known: {', '.join(kinds)})")
    return kinds[benchmark.kind]
