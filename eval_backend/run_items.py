"""A run folder's items as the statistics take them: per-item figure values, config, cluster, subsets.

Read from the folder's own files: the items from items.jsonl (the benchmark's cluster rule
needs the item: its rubric, its passage), the per-item values from details.parquet (the
download, so a comparison's figures are those anyone can recompute from it), checked and kept
in a compact file beside it (`eval_backend.item_values`). Each benchmark
declares its `ItemStatistics` in its own package and names it in its record (`item_statistics`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.item_values import KEY, item_values
from eval_backend.run_folder import RunFolder, RunFolderError, recorded_items


@dataclass(frozen=True, eq=False)
class RunItems:
    """One run's items, indexed by (config, index): `cluster`, the subset columns, one column per figure."""

    benchmark: str
    label: str
    dataset_revision: str | None
    statistics: ItemStatistics
    items: pd.DataFrame

    @property
    def clusters(self) -> pd.DataFrame:
        """Each item's cluster (columns config, index, cluster): what `read_run_items` takes to skip items.jsonl."""
        return self.items[[*KEY, "cluster"]].reset_index(drop=True)


def folder_benchmark(folder: RunFolder) -> Benchmark:
    """The benchmark a scored run folder belongs to, as its summary.json names it."""
    if not folder.summary_path.is_file():
        raise RunFolderError(f"{folder.path}: not a scored run folder (no summary.json)")
    name = folder.read_summary().get("benchmark")
    if name not in BENCHMARKS:
        raise RunFolderError(f"{folder.summary_path}: unknown benchmark {name!r}")
    return BENCHMARKS[name]


def read_run_items(folder: RunFolder, clusters: pd.DataFrame | None = None) -> RunItems:
    """The run's items with their per-item figure values; RunFolderError names what is missing.

    `clusters` (`item_clusters` of another run on the same dataset revision) saves reading this
    run's items.jsonl: runs on one revision have the same items.
    """
    benchmark = folder_benchmark(folder)
    statistics = _statistics(benchmark)
    frame = item_values(folder, statistics)
    clusters = item_clusters(folder) if clusters is None else clusters
    frame = frame.merge(clusters, how="left", on=KEY).set_index(KEY, drop=False)
    request = folder.read_request() if folder.request_path.exists() else {}
    return RunItems(benchmark.name, _label(request, folder), request.get("dataset_revision"), statistics, frame)


def item_clusters(folder: RunFolder) -> pd.DataFrame:
    """Each recorded item's cluster label by its benchmark's rule: columns config, index, cluster."""
    benchmark = folder_benchmark(folder)
    rule = _statistics(benchmark).cluster
    return pd.DataFrame(
        [(item.config, item.index, rule(item)) for item in recorded_items(benchmark, folder)],
        columns=[*KEY, "cluster"],
    )


def _statistics(benchmark: Benchmark) -> ItemStatistics:
    if benchmark.item_statistics is None:
        raise RunFolderError(f"benchmark {benchmark.name!r} declares no item statistics")
    return benchmark.item_statistics()


def model_label(model: str, revision: str | None) -> str:
    """How a run is named to a reader: the model id, with the revision when it is not the default branch."""
    return model if revision in (None, "", "main") else f"{model} @ {revision}"


def _label(request: dict, folder: RunFolder) -> str:
    model = request.get("model")
    return model_label(model, request.get("revision")) if model else str(folder.path)


def run_label(folder: RunFolder) -> str:
    """How a run is named to a reader: its model id, with its revision unless main; the folder without a request."""
    return _label(folder.read_request() if folder.request_path.exists() else {}, folder)
