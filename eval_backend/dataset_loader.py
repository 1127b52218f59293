"""Loading benchmark items with `datasets`, from a Hub id or a local folder in Hub layout.

This is the only module that imports `datasets`.
"""

from __future__ import annotations

import hashlib
import logging
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from eval_backend.benchmarks.plugin import Benchmark, SuiteItem
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.memory import trim_heap
from eval_backend.records import ItemKey
from eval_backend.settings import DataSettings
from eval_backend.text_csv import read_text_csv_stream

logger = logging.getLogger(__name__)


class DatasetLoadError(RuntimeError):
    """The dataset or one of its configs could not be read; the message says which."""


@dataclass(frozen=True)
class DatasetSpec:
    """Where a benchmark's data comes from: a Hub id or a local folder, pinned by revision."""

    path: str
    revision: str | None = None


LOCAL_REVISION_PREFIX = "sha256:"
"""A local folder's revision is the hash of its files' content, so an edit in place shows."""
_COMMIT = re.compile(r"^[0-9a-f]{40}$")


def resolve_revision(spec: DatasetSpec) -> str:
    """The commit the dataset's revision (a branch, tag or none) points at now.

    A Hub dataset's is its commit sha, asked of the Hub unless `spec.revision` already is
    one; a local folder's is `sha256:` and the hash of its files, names and bytes.
    """
    if Path(spec.path).is_dir():
        return LOCAL_REVISION_PREFIX + _folder_hash(Path(spec.path))
    if spec.revision and _COMMIT.match(spec.revision):
        return spec.revision
    import huggingface_hub

    try:
        info = huggingface_hub.HfApi().dataset_info(spec.path, revision=spec.revision)
    except Exception as exc:  # the Hub client raises many types for "cannot resolve"; name the dataset
        raise DatasetLoadError(
            f"cannot resolve revision {spec.revision or 'main'!r} of dataset {spec.path!r}: {exc}"
            f"{_access_hint(spec, exc)}"
        ) from exc
    return str(info.sha)


def pinned(spec: DatasetSpec) -> DatasetSpec:
    """`spec` pinned to the commit its revision resolves to now (a local folder is read as it is)."""
    return spec if Path(spec.path).is_dir() else DatasetSpec(spec.path, resolve_revision(spec))


def _folder_hash(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root)
        if any(part.startswith(".") for part in relative.parts):
            continue  # caches and editors' files are not the dataset
        # Name and size first: no two different folders feed the digest the same bytes.
        digest.update(f"{relative.as_posix()}\0{path.stat().st_size}\0".encode("utf-8"))
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def benchmark_dataset(
    benchmark: Benchmark, data: DataSettings, path: str | None = None, revision: str | None = None
) -> DatasetSpec:
    """The benchmark's dataset: `path` if given, else its setting (WB_DATASET, QA_DATASET, …), else its default.

    Raises DatasetLoadError when none is known (the QA benchmark has no public copy).
    """
    configured, configured_revision = data.dataset_setting(benchmark.dataset_setting)
    chosen = path or configured or benchmark.default_dataset
    if not chosen:
        raise DatasetLoadError(
            f"benchmark {benchmark.name!r} has no default dataset: set {benchmark.dataset_setting} "
            "(a Hub id or a local folder in Hub layout) or pass --dataset"
        )
    return DatasetSpec(path=str(chosen), revision=revision or configured_revision)


def configured_benchmarks(data: DataSettings) -> list[str]:
    """The benchmarks whose dataset is known (a default, or set in the environment): those a submission can run."""
    return [name for name, benchmark in BENCHMARKS.items()
            if benchmark.default_dataset or data.dataset_setting(benchmark.dataset_setting)[0]]


def discover_configs(spec: DatasetSpec) -> list[str]:
    """The dataset's config names, as its README `configs:` (or the Hub) declares them."""
    import datasets

    _check_declared_configs(spec)
    try:
        return list(datasets.get_dataset_config_names(spec.path, revision=spec.revision))
    except Exception as exc:  # datasets raises many types for "cannot read"; name the dataset
        raise DatasetLoadError(f"cannot list the configs of dataset {spec.path!r}: {exc}{_access_hint(spec, exc)}") from exc


def _access_hint(spec: DatasetSpec, exc: BaseException) -> str:
    """What to do when the Hub refuses a gated dataset (the Saraiki benchmark is one)."""
    chain: BaseException | None = exc
    while chain is not None:
        if type(chain).__name__ == "GatedRepoError" or "gated dataset" in str(chain):
            return (
                f". The dataset is gated: accept its conditions on https://huggingface.co/datasets/{spec.path} "
                "with your Hugging Face account, then set HF_TOKEN to a token of that account"
            )
        chain = chain.__cause__ or chain.__context__
    return ""


def _check_declared_configs(spec: DatasetSpec) -> None:
    """A local folder must declare its configs: without a README `configs:` block, `datasets`
    merges every data file into one "default" config, and items of several languages collide."""
    folder = Path(spec.path)
    if not folder.is_dir():
        return
    from huggingface_hub import metadata_load

    readme = folder / "README.md"
    try:
        metadata = metadata_load(readme) if readme.is_file() else None
    except Exception as exc:  # a YAML error, a README that is not UTF-8
        raise DatasetLoadError(f"dataset folder {folder}: cannot read the YAML header of {readme} ({exc})") from exc
    configs = (metadata or {}).get("configs")
    if not isinstance(configs, list) or not configs:
        raise DatasetLoadError(
            f"dataset folder {folder}: {readme.name} declares no configs; its YAML header needs a `configs:` "
            "list with a config_name and data_files for each config (the Hub layout)"
        )


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
) -> list[SuiteItem]:
    """Every item of the given configs, validated; `limit` keeps the first N of each config.

    Raises ItemValidationError for a bad row and DatasetLoadError for an unreadable config.
    """
    items: list[SuiteItem] = []
    for config in configs:
        rows = _load_rows(benchmark, spec, config)
        _release_arrow_memory()
        if benchmark.index_from_position:  # rows without an index column: the row's place is its index
            rows = [{**row, "index": position} for position, row in enumerate(rows)]
        shots = _shots(benchmark, spec, config)
        if shots:  # few-shot examples travel with each row to record_to_item
            rows = [{**row, "shots": shots} for row in rows]
        config_items = [benchmark.record_to_item(config, row) for row in rows]
        _check_unique_indices(config, config_items)
        config_items.sort(key=lambda item: item.index)
        items.extend(config_items[:limit] if limit else config_items)
        logger.info("loaded %d items of %s/%s", len(config_items), spec.path, config)
    return items


def config_sizes(benchmark: Benchmark, spec: DatasetSpec, configs: Sequence[str]) -> dict[str, int]:
    """How many items each config holds in the dataset (what a complete run must score)."""
    sizes = {}
    for config in configs:
        sizes[config] = len(_load_rows(benchmark, spec, config))
        _release_arrow_memory()
    return sizes


def index_items(items: Sequence[SuiteItem]) -> dict[ItemKey, SuiteItem]:
    """Items keyed by (config, index)."""
    return {item.key: item for item in items}


def _shots(benchmark: Benchmark, spec: DatasetSpec, config: str) -> list[dict]:
    """The few-shot rows of `config` (the first N of the benchmark's shots split), or none."""
    count = benchmark.shot_counts.get(config, 0)
    if not count or benchmark.shots_split is None:
        return []
    rows = _load_rows(benchmark, spec, config, benchmark.shots_split)[:count]
    _release_arrow_memory()
    return rows


def _load_rows(benchmark: Benchmark, spec: DatasetSpec, config: str, split: str | None = None) -> list[dict]:
    import datasets

    split = split or benchmark.split
    try:
        if not Path(spec.path).is_dir():
            builder = datasets.load_dataset_builder(spec.path, config, revision=spec.revision)
            return _builder_rows(benchmark, builder, split, cache_dir=None)
        # `datasets` keys its cache of a local folder on the folder's name, the config and the
        # README alone: a folder rewritten in place, or another folder of the same name, would
        # be served the old rows. A throwaway cache reads the files as they are now.
        with tempfile.TemporaryDirectory(prefix="wb-dataset-cache-") as cache_dir:
            builder = datasets.load_dataset_builder(spec.path, config, cache_dir=cache_dir)
            return _builder_rows(benchmark, builder, split, cache_dir)
    except Exception as exc:  # as above: many exception types mean one thing here
        raise DatasetLoadError(
            f"cannot load config {config!r} of dataset {spec.path!r}: {exc}{_access_hint(spec, exc)}"
        ) from exc


def _builder_rows(benchmark: Benchmark, builder: Any, split: str | None, cache_dir: str | None) -> list[dict]:
    """The rows of one config, as `datasets.load_dataset` would build them, but CSV files as text.

    `datasets` would read a CSV config through pandas with NA conversion and type inference
    (golden answer `NA` becomes empty, `07` becomes 7), and reads a whole repository with
    the builder of its most common format, so a CSV config beside parquet ones fails. A CSV
    config is read by the engine's text reader instead, and any other config whose files
    are not of the repository's format by the builder of their own.
    """
    import datasets

    files = _split_files(builder.config.data_files, split)
    formats = {_file_format(name) for name in files}
    if formats == {"csv"}:
        return _csv_rows(benchmark, files)
    if len(formats) == 1 and type(builder).__module__.rsplit(".", 1)[-1] not in formats:
        dataset = datasets.load_dataset(formats.pop(), data_files=list(files), split="train", cache_dir=cache_dir)
        return _rows(benchmark, dataset)
    builder.download_and_prepare()
    return _rows(benchmark, _only_split(builder.as_dataset(split=split)))


def _split_files(data_files: Mapping[str, Sequence[str]] | None, split: str | None) -> Sequence[str]:
    """The data files of `split`, or of the config's one split when no split is named."""
    if not data_files:
        raise DatasetLoadError("the config declares no data files")
    if split is None:
        if len(data_files) != 1:
            raise DatasetLoadError(f"the config has splits {', '.join(data_files)}; the benchmark must name one")
        return next(iter(data_files.values()))
    if split not in data_files:
        raise DatasetLoadError(f"the config has no split {split!r} (it has {', '.join(data_files)})")
    return data_files[split]


def _file_format(name: str) -> str:
    """A data file's format as `datasets` names its builders: `csv`, `parquet`, `json`, …"""
    suffix = Path(name).suffix.lower().lstrip(".")
    return "json" if suffix == "jsonl" else suffix


def _csv_rows(benchmark: Benchmark, files: Sequence[str]) -> list[dict]:
    """The rows of CSV data files, every cell as text, with the columns the benchmark reads."""
    import fsspec

    rows: list[dict] = []
    for name in files:
        with fsspec.open(name, "rb") as handle:  # a local path, or an hf:// file of a Hub repo
            table = read_text_csv_stream(handle, _shown_file(name))
        if table.short_rows:
            numbers = ", ".join(map(str, table.short_rows[:20]))
            raise DatasetLoadError(f"{table.source}: data rows {numbers} have fewer cells than the header "
                                   f"({', '.join(table.header)})")
        present = [(field, table.header.index(field)) for field in benchmark.row_fields if field in table.header]
        rows.extend({field: cells[position] for field, position in present} for cells in table.rows)
    return rows


def _shown_file(name: str) -> str:
    """A data file as messages show it: its path in the repository or on disk, no URL scheme."""
    return name.removeprefix("hf://datasets/")


def _only_split(dataset: Any) -> Any:
    """A benchmark with no split named (split=None) reads the config's one split; several are an error."""
    if not isinstance(dataset, dict):
        return dataset
    if len(dataset) != 1:
        raise DatasetLoadError(f"the config has splits {', '.join(dataset)}; the benchmark must name one")
    return next(iter(dataset.values()))


def _rows(benchmark: Benchmark, dataset: Any) -> list[dict]:
    # Only the columns the benchmark reads: the reference texts alone would double the memory.
    # A missing column is left to record_to_item, whose error names the field.
    present = [name for name in benchmark.row_fields if name in dataset.column_names]
    return dataset.select_columns(present).to_list()


def _release_arrow_memory() -> None:
    # pyarrow's allocator keeps freed buffers for reuse; a config's table is done with once its
    # rows are Python objects, and keeping its memory would stack up over 13 configs. So would
    # the C heap pages of the Python rows `datasets` built on the way.
    import pyarrow

    pyarrow.default_memory_pool().release_unused()
    trim_heap()


def _check_unique_indices(config: str, items: Sequence[SuiteItem]) -> None:
    seen: set[int] = set()
    for item in items:
        if item.index in seen:
            raise DatasetLoadError(f"config {config!r}: index {item.index} appears more than once")
        seen.add(item.index)
