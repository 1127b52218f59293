"""The one place the engine parts its two benchmark records: how it reads, judges and scores a run of each.

WritingBench fills in the rubric `Benchmark`, QA, Saraiki and any declared benchmark a
`ScoredBenchmark`; the pipeline, the CLI, consistency and the queue work on `run_kind(benchmark)`,
so moving WritingBench onto the declared record changes this table alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, TypeVar

from eval_backend.benchmarks import AnyBenchmark
from eval_backend.cost import CostEstimate, estimate_for_items, estimate_for_scored_items
from eval_backend.judge_calls import VerdictBook
from eval_backend.judged_samples import JudgedSample, RubricSample, ScorerSample
from eval_backend.judging import RubricVerdicts
from eval_backend.run_folder import RunFolder
from eval_backend.scorer_runs import ScorerVerdicts, read_suite_items, score_scored_run
from eval_backend.settings import CostSettings
from eval_backend.writing_bench_reporting import score_run_folder

T = TypeVar("T")
BookFactory = Callable[[Any, RunFolder, Sequence[str], Callable[[str], Sequence[Any]], Path | None], VerdictBook]


@dataclass(frozen=True)
class RunKind:
    """How the engine reads, judges and scores a run of one benchmark record."""

    read_items: Callable[[Any, RunFolder], list[Any]]
    """The items a run folder recorded (items.jsonl), as the record reads them back."""
    judged_from_folder: bool
    """items.jsonl holds all a judge prompt needs: judging reads it, never the dataset again."""
    book: BookFactory
    """The run's verdict file as a `VerdictBook`: (benchmark, folder, configs, load_config, path)."""
    score: Callable[[Any, RunFolder, str | None], Any]
    """Recompute summary.json and details.parquet from the folder alone; returns the summary."""
    sample: Callable[[Any, RunFolder], JudgedSample]
    """The folder's judged parts, as a consistency check reads and re-judges them."""
    estimate_items: Callable[[Any, Sequence[Any], CostSettings], CostEstimate]
    """The cost of judging every part of `items`, before any answer (answers of `response_chars`)."""


RUBRIC = RunKind(
    read_items=lambda benchmark, folder: folder.read_items(),
    judged_from_folder=False,
    book=RubricVerdicts,
    score=score_run_folder,
    sample=RubricSample,
    estimate_items=estimate_for_items,
)
SCORED = RunKind(
    read_items=read_suite_items,
    judged_from_folder=True,
    book=ScorerVerdicts,
    score=score_scored_run,
    sample=ScorerSample,
    estimate_items=estimate_for_scored_items,
)
RUN_KINDS = {"rubric": RUBRIC, "scored": SCORED}


def run_kind(benchmark: AnyBenchmark) -> RunKind:
    """The engine's path for `benchmark`, by the record it fills in (its `kind`)."""
    return of_kind(RUN_KINDS, benchmark, "eval_backend/run_kinds.py", "the engine cannot run")


def of_kind(kinds: Mapping[str, T], benchmark: AnyBenchmark, table: str, unknown: str) -> T:
    """`kinds`' entry for `benchmark`'s kind; a kind it lacks is a clear error naming the benchmark and `table`."""
    if benchmark.kind not in kinds:
        raise ValueError(f"benchmark {benchmark.name!r} is of kind {benchmark.kind!r}, which {unknown}: add an entry "
                         f"for it to {table} (known: {', '.join(kinds)})")
    return kinds[benchmark.kind]
