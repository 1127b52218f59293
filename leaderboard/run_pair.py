"""Two runs compared on every benchmark both have run on one dataset revision: the engine's paired figures.

Each benchmark both have a run of is compared by `compare_runs`, the code and seed of the CLI's `compare`: overall
and per language (config), then on each value of each subset column the benchmark declares (variant, domain,
task). A benchmark where only one has a run, or whose runs are not comparable or not readable, is named with why.
Results are kept per state of the two runs' details; run B is read with A's clusters, so a first comparison parses
one items.jsonl, not two, and both are checked as read (`read_comparable_items`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.comparison_inputs import read_comparable_items
from eval_backend.run_comparison import FigureComparison, RunsNotComparable, compare_runs
from eval_backend.run_folder import RunFolderError
from eval_backend.run_items import RunItems
from eval_backend.statistics import DEFAULT_SEED
from leaderboard.results import LruCache, ResultsStore, UnknownRunError
from leaderboard.serial_cache import SerialCache

MAX_SUBSET_VALUES = 24
"""Values of one subset column compared, at most (WritingBench has 6 domains, Saraiki 7 tasks)."""
_PAIRS_KEPT = 32
_PAIRS: SerialCache[object] = SerialCache(_PAIRS_KEPT)
_ITEMS: LruCache[RunItems] = LruCache(2 * _PAIRS_KEPT)
"""The runs last compared, item by item (a full WritingBench run: ~4,000 rows)."""


@dataclass(frozen=True)
class SubsetComparison:
    """One figure on the items whose `column` (variant, domain, task) is `value`, every config pooled."""

    column: str
    value: str
    comparison: FigureComparison


@dataclass(frozen=True)
class BenchmarkComparison:
    """Run A against run B on one benchmark: per figure overall and per language, then per subset value."""

    benchmark: str
    title: str
    dataset_revision: str | None
    a_label: str
    b_label: str
    by_language: tuple[FigureComparison, ...]
    by_subset: tuple[SubsetComparison, ...]


@dataclass(frozen=True)
class PairComparison:
    """Every benchmark two runs were compared on, and each benchmark not compared with why."""

    compared: tuple[BenchmarkComparison, ...]
    skipped: tuple[str, ...]


def compare_pair(stores: Mapping[str, ResultsStore], run_a: str, run_b: str) -> PairComparison:
    """Run A against run B on every benchmark of `stores` that holds a run of each."""
    compared, skipped = [], []
    for name, store in stores.items():
        title = BENCHMARKS[name].title
        held = [_has_run(store, run_id) for run_id in (run_a, run_b)]
        if not any(held):
            continue
        if not all(held):
            skipped.append(f"{title}: only {'A' if held[0] else 'B'} has a run")
            continue
        try:
            compared.append(_cached(store, name, run_a, run_b))
        except RunsNotComparable as exc:
            skipped.append(f"{title}: {exc}")
        except (RunFolderError, OSError, ValueError) as exc:  # a run the board lists but cannot read item by item
            skipped.append(f"{title}: the runs could not be read item by item ({exc})")
    return PairComparison(tuple(compared), tuple(skipped))


def compare_filtered(store: ResultsStore, run_a: str, run_b: str,
                     keys: Sequence[tuple[str, int]]) -> list[FigureComparison]:
    """Run A against run B on the items `keys` (those the item browser lists), every config pooled."""
    listed = tuple(keys)
    key = ("filtered", store.runs_dir, run_a, store.details_version(run_a), run_b, store.details_version(run_b),
           listed)
    return _PAIRS.get_or_compute(key, lambda: compare_runs(*_pair_items(store, run_a, run_b), seed=DEFAULT_SEED,
                                                           per_config=False, items=list(listed)))


def _cached(store: ResultsStore, name: str, run_a: str, run_b: str) -> BenchmarkComparison:
    key = ("pair", store.runs_dir, run_a, store.details_version(run_a), run_b, store.details_version(run_b))
    return _PAIRS.get_or_compute(key, lambda: compare_items(name, *_pair_items(store, run_a, run_b)))


def compare_items(name: str, a: RunItems, b: RunItems) -> BenchmarkComparison:
    """Run A against run B on benchmark `name`: overall and per language, then on each subset value."""
    by_language = compare_runs(a, b, seed=DEFAULT_SEED)
    by_subset = [
        SubsetComparison(column, value, comparison)
        for column in a.statistics.subsets if column in a.items
        for value in _subset_values(a, b, column)
        for comparison in _on_subset(a, b, column, value)
    ]
    return BenchmarkComparison(name, BENCHMARKS[name].title, a.dataset_revision, a.label, b.label, tuple(by_language),
                               tuple(by_subset))


def _on_subset(a: RunItems, b: RunItems, column: str, value: str) -> Sequence[FigureComparison]:
    try:
        return compare_runs(a, b, where={column: [value]}, seed=DEFAULT_SEED, per_config=False)
    except RunsNotComparable:  # no item of this value is scored in both runs
        return ()


def _subset_values(a: RunItems, b: RunItems, column: str) -> list[str]:
    """The values of `column` both runs have items of, in A's order, at most MAX_SUBSET_VALUES."""
    shared = set(b.items[column].dropna().astype(str)) if column in b.items else set()
    values = [value for value in dict.fromkeys(a.items[column].dropna().astype(str)) if value in shared]
    return values[:MAX_SUBSET_VALUES]


def _pair_items(store: ResultsStore, run_a: str, run_b: str) -> tuple[RunItems, RunItems]:
    """A read in full (kept for its next comparison), B with A's clusters (kept for this pair)."""
    a_key = (store.runs_dir, run_a, store.details_version(run_a))
    a = _ITEMS.get_or_load(a_key, lambda: read_comparable_items(store.run(run_a).folder))
    b_key = (store.runs_dir, run_b, store.details_version(run_b), "clusters of", a_key)
    return a, _ITEMS.get_or_load(b_key, lambda: read_comparable_items(store.run(run_b).folder, clusters=a.clusters))


def _has_run(store: ResultsStore, run_id: str) -> bool:
    try:
        store.run(run_id)
    except UnknownRunError:
        return False
    return True
