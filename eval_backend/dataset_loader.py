"""Loading benchmark items with `datasets`, from a Hub id or a local folder in Hub layout.

This is the only module that imports `datasets`.
"""

from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from eval_backend.benchmarks import Benchmark
from eval_backend.records import Item, ItemKey

logger = logging.getLogger(__name__)


class DatasetLoadError(RuntimeError):
    """The dataset or one of its configs could not be read; the message says which."""


@dataclass(frozen=True)
class DatasetSpec:
    """Where a benchmark's data comes from: a Hub id or a local folder, pinned by revision."""

    path: str
    revision: str | None = None


def discover_configs(spec: DatasetSpec) -> list[str]:
    """The dataset's config names, as its README `configs:` (or the Hub) declares them."""
    import datasets

    try:
        return list(datasets.get_dataset_config_names(spec.path, revision=spec.revision))
    except Exception as exc:  # datasets raises many types for "cannot read"; name the dataset
        raise DatasetLoadError(f"cannot list the configs of dataset {spec.path!r}: {exc}") from exc


def resolve_configs(spec: DatasetSpec, requested: Sequence[str] | None) -> list[str]:
    """The configs to evaluate: all discovered ones, or the requested ones checked against them."""
    available = discover_configs(spec)
    if not requested:
        return available
    unknown = [name for name in requested if name not in available]
    if unknown:
        raise DatasetLoadError(
            f"dataset {spec.path!r} has no config {', '.join(map(repr, unknown))}; "
            f"available: {', '.join(available)}"
        )
    return list(requested)


def load_items(
    benchmark: Benchmark, spec: DatasetSpec, configs: Sequence[str], limit: int | None = None
) -> list[Item]:
    """Every item of the given configs, validated; `limit` keeps the first N of each config.

    Raises ItemValidationError for a bad row and DatasetLoadError for an unreadable config.
    """
    items: list[Item] = []
    for config in configs:
        rows = _load_rows(benchmark, spec, config)
        _release_arrow_memory()
        config_items = [benchmark.record_to_item(config, row) for row in rows]
        _check_unique_indices(config, config_items)
        config_items.sort(key=lambda item: item.index)
        items.extend(config_items[:limit] if limit else config_items)
        logger.info("loaded %d items of %s/%s", len(config_items), spec.path, config)
    return items


def index_items(items: Sequence[Item]) -> dict[ItemKey, Item]:
    """Items keyed by (config, index)."""
    return {item.key: item for item in items}


def _load_rows(benchmark: Benchmark, spec: DatasetSpec, config: str) -> list[dict]:
    import datasets

    try:
        if not Path(spec.path).is_dir():
            dataset = datasets.load_dataset(spec.path, config, split=benchmark.split, revision=spec.revision)
            return _rows(benchmark, dataset)
        # `datasets` keys its cache of a local folder on the folder's name, the config and the
        # README alone: a folder rewritten in place, or another folder of the same name, would
        # be served the old rows. A throwaway cache reads the files as they are now.
        with tempfile.TemporaryDirectory(prefix="wb-dataset-cache-") as cache_dir:
            dataset = datasets.load_dataset(spec.path, config, split=benchmark.split, cache_dir=cache_dir)
            return _rows(benchmark, dataset)
    except Exception as exc:  # as above: many exception types mean one thing here
        raise DatasetLoadError(f"cannot load config {config!r} of dataset {spec.path!r}: {exc}") from exc


def _rows(benchmark: Benchmark, dataset: Any) -> list[dict]:
    # Only the columns the benchmark reads: the reference texts alone would double the memory.
    # A missing column is left to record_to_item, whose error names the field.
    present = [name for name in benchmark.row_fields if name in dataset.column_names]
    return dataset.select_columns(present).to_list()


def _release_arrow_memory() -> None:
    # pyarrow's allocator keeps freed buffers for reuse; a config's table is done with once its
    # rows are Python objects, and keeping its memory would stack up over 13 configs.
    import pyarrow

    pyarrow.default_memory_pool().release_unused()


def _check_unique_indices(config: str, items: Sequence[Item]) -> None:
    seen: set[int] = set()
    for item in items:
        if item.index in seen:
            raise DatasetLoadError(f"config {config!r}: index {item.index} appears more than once")
        seen.add(item.index)
