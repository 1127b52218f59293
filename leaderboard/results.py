"""The board's one boundary with run folders: results on disk read through the engine's own readers.

Nothing here re-scores. Reads are cached on file modification stamps, so a new or re-scored run appears on the
next call without a restart. Each file read (request.json and summary.json by `run_shape`, details.parquet's
per-item values by `eval_backend.item_values`) is checked when the folder is read; a folder that fails is a
problem of the snapshot, named with its file and field, and in no ranking, matrix or comparison.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generic, Hashable, Mapping, Sequence, TypeVar

import pandas as pd

from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.consistency import CONSISTENCY_FILE
from eval_backend.dataset_loader import DatasetLoadError, DatasetSpec, load_items
from eval_backend.details import read_details
from eval_backend.generation.decoding_mode import mode_text
from eval_backend.item_values import item_values
from eval_backend.run_folder import RunFolder, RunFolderError, iter_run_folders, run_folder_of_id
from leaderboard.run_shape import check_run_files

logger = logging.getLogger(__name__)

UNKNOWN_LICENSE = "unknown"
"""The license of a run whose request recorded none (judged from the CLI, or queued before licenses were recorded)."""

V = TypeVar("V")


class UnknownRunError(KeyError):
    """No run folder with this id (it was removed, or the id is wrong)."""


class QueryUnavailableError(RuntimeError):
    """An item's full query could not be read from the run's dataset; the message says why."""


@dataclass(frozen=True)
class RunResult:
    """One evaluated model revision: its folder, what was asked and the engine's summary."""

    run_id: str
    folder: RunFolder
    request: Mapping[str, Any]
    summary: Mapping[str, Any]

    @property
    def provenance(self) -> Mapping[str, Any]:
        return self.summary.get("provenance") or {}

    @property
    def model(self) -> str:
        """The model id as submitted; a run written without one is named after its folder."""
        return str(self.request.get("model") or self.provenance.get("model") or self.run_id.split("/")[0])

    @property
    def revision(self) -> str:
        return str(self.request.get("revision") or self.provenance.get("revision") or self.run_id.split("/")[-1])

    @property
    def benchmark(self) -> Benchmark:
        """The benchmark the summary names (`run_shape` refuses a summary that names none it knows)."""
        return BENCHMARKS[self.summary["benchmark"]]

    @property
    def dataset(self) -> DatasetSpec | None:
        path = self.request.get("dataset") or self.provenance.get("dataset")
        if not path:
            return None
        return DatasetSpec(str(path), self.request.get("dataset_revision") or self.provenance.get("dataset_revision"))


@dataclass(frozen=True)
class Snapshot:
    """Every readable run at one moment, the folders that could not be read, and a change stamp."""

    runs: tuple[RunResult, ...]
    problems: tuple[str, ...]
    signature: tuple[Hashable, ...]


class LruCache(Generic[V]):
    """A thread-safe least-recently-used cache (Gradio calls back from many threads): entries weigh 1 unless `put`
    says otherwise, their total `weight` stays under `size`, and one heavier than `max_entry` is not kept.

    The page cache weighs its answers in bytes: a count says nothing about memory when answers range from a 2 KB
    style to a 5 MB script (512 pages of 0.84 MB each took a server from 389 MB to 824 MB).
    """

    def __init__(self, size: int, max_entry: int | None = None) -> None:
        self.size = size
        self.max_entry = size if max_entry is None else max_entry
        self.weight = 0
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get_or_load(self, key: Hashable, load: Callable[[], V]) -> V:
        """The value kept for `key`, else `load()`'s, kept."""
        value = self.get(key)
        if value is None:
            value = load()  # outside the lock: a slow read must not block every other caller
            self.put(key, value)
        return value

    def get(self, key: Hashable) -> V | None:
        """The value kept for `key`, or None."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key][0]
        return None

    def put(self, key: Hashable, value: V, weight: int = 1) -> bool:
        """Keep `value` for `key`, dropping the least recently used entries past `size`; False, keeping nothing,
        when it alone weighs more than `max_entry`."""
        if weight > self.max_entry:
            return False
        with self._lock:
            self._drop(key)
            self._entries[key] = (value, weight)
            self.weight += weight
            while self.weight > self.size:
                self._drop(next(iter(self._entries)))
        return True

    def _drop(self, key: Hashable) -> None:
        if key in self._entries:
            self.weight -= self._entries.pop(key)[1]


class ResultsStore:
    """Reads the run folders under `runs_dir`, caching each file on its modification stamp."""

    def __init__(self, runs_dir: Path, *, cache_size: int = 8, reuse_s: float = 1.0) -> None:
        self.runs_dir = Path(runs_dir)
        self.reuse_s = reuse_s
        self._last: tuple[float, Snapshot] | None = None
        self._snapshot_lock = threading.Lock()
        self._runs: dict[str, tuple[Hashable, RunResult]] = {}
        self._lock = threading.Lock()
        self._details: LruCache[pd.DataFrame] = LruCache(cache_size)
        self._queries: LruCache[dict[int, str]] = LruCache(cache_size)

    def snapshot(self) -> Snapshot:
        """Every run folder with a summary, re-reading only those whose files changed.

        A snapshot younger than `reuse_s` is reused: stat-ing hundreds of folders costs tens of ms, which a burst
        of viewers would each pay. One caller takes a new snapshot while the others wait for it.
        """
        with self._snapshot_lock:
            if self._last is None or time.monotonic() - self._last[0] >= self.reuse_s:
                self._last = (time.monotonic(), self._take_snapshot())
            return self._last[1]

    def _take_snapshot(self) -> Snapshot:
        problems, seen = [], {}
        for folder in iter_run_folders(self.runs_dir):
            run_id = folder.path.relative_to(self.runs_dir).as_posix()
            try:
                stamp = _board_stamp(folder)
                seen[run_id] = (stamp, self._cached_run(run_id, folder, stamp))
            except UNREADABLE as exc:
                logger.warning("skipping run folder %s: %s", folder.path, exc)
                problems.append(f"{run_id}: {exc}")
        with self._lock:
            self._runs = seen  # folders that disappeared leave the cache here
        signature = tuple(sorted((run_id, stamp) for run_id, (stamp, _) in seen.items()))
        return Snapshot(tuple(run for _, run in seen.values()), tuple(problems), signature)

    def run(self, run_id: str) -> RunResult:
        """The run with this id (`<org>__<name>/<revision>`), read through the cache, not a snapshot (which stats
        every folder). The id may come from a client: anything but a readable run folder under `runs_dir` is unknown.
        """
        folder = run_folder_of_id(self.runs_dir, run_id)
        if folder is None or not folder.summary_path.is_file():
            raise UnknownRunError(run_id)
        try:
            return self._cached_run(run_id, folder, _board_stamp(folder))
        except UNREADABLE as exc:
            raise UnknownRunError(f"{run_id}: {exc}") from exc

    def details(self, run_id: str) -> pd.DataFrame:
        """The run's per-item table (details.parquet), as the engine wrote it."""
        folder = self.run(run_id).folder
        key = (run_id, _stamp(folder.details_path))
        # pandas 3 copies on write: a shallow copy keeps the cached frame safe from callers'
        # edits without duplicating tens of MB of responses on every view.
        return self._details.get_or_load(key, lambda: read_details(folder.details_path)).copy(deep=False)

    def details_version(self, run_id: str) -> str:
        """A name for the current state of the run's details.parquet (changes when it is rewritten)."""
        stamp = _stamp(self.run(run_id).folder.details_path)[0]
        return "missing" if stamp is None else f"{stamp[0]}-{stamp[1]}"

    def queries(self, run_id: str, config: str) -> Mapping[int, str]:
        """Index -> full query of one config of the run's dataset, loaded once and cached."""
        run = self.run(run_id)
        spec = run.dataset
        if spec is None:
            raise QueryUnavailableError(f"run {run_id} does not record its dataset in request.json")
        key = (spec.path, spec.revision, config)
        return self._queries.get_or_load(key, lambda: _load_queries(run.benchmark, spec, config))

    def _cached_run(self, run_id: str, folder: RunFolder, stamp: Hashable) -> RunResult:
        with self._lock:
            cached = self._runs.get(run_id)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        request = folder.read_request() if folder.request_path.exists() else {}
        summary = folder.read_summary()
        check_run_files(folder, request, summary)
        summary = {**BENCHMARKS[summary["benchmark"]].current_keys(summary), **summary}  # an older run's figures
        run = RunResult(run_id, folder, request, summary)
        # Refuses a details.parquet without the per-item values the benchmark declares, and keeps them in the
        # compact file the statistics read. A run not scored item by item has none.
        statistics = run.benchmark.item_statistics
        if statistics is not None and folder.details_path.exists():
            item_values(folder, statistics())
        return run


UNREADABLE = (RunFolderError, OSError, ValueError, RecursionError)
"""What reading one run folder may raise: the folder is listed as a problem, never the board's error.
ValueError covers undecodable bytes; RecursionError, JSON nested too deep for the parser."""


def runs_frame(runs: Sequence[RunResult]) -> pd.DataFrame:
    """One row per run: identity, provenance, the model's card, decoding mode and the counts (its figures are its
    benchmark's, read by `scored_tables`)."""
    return pd.DataFrame([_run_row(run) for run in runs], columns=RUN_COLUMNS)


COUNTS = ("items", "scored_items", "failed_items", "pending_items", "missing_responses", "failed_judgments")
RUN_COLUMNS = ["run_id", "model", "revision", "benchmark", "judge_model", "created_at", "params_b", "precision",
               "license", "open_weights", *COUNTS, "decoding_mode"]


def _run_row(run: RunResult) -> dict[str, Any]:
    counts = run.summary.get("counts") or {}
    return {
        "run_id": run.run_id,
        "model": run.model,
        "revision": run.revision,
        "benchmark": run.summary.get("benchmark"),
        "judge_model": run.provenance.get("judge_model"),
        "created_at": run.provenance.get("created_at"),
        "params_b": _params_b(run.request),
        "precision": run.request.get("precision"),
        "license": _license(run.request),
        "open_weights": run.request.get("open_weights") if isinstance(run.request.get("open_weights"), bool) else None,
        "decoding_mode": mode_text(run.summary.get("decoding_mode")),
        **{name: counts.get(name, 0) for name in COUNTS},
    }


def _params_b(request: Mapping[str, Any]) -> float | None:
    """Model size in billions: `params_b` as given, or a raw `parameters` count."""
    for key, scale in (("params_b", 1.0), ("parameters", 1e-9)):
        try:
            if request.get(key) is not None:
                size = float(request[key]) * scale
                return size if math.isfinite(size) and size > 0 else None
        except (TypeError, ValueError):
            continue  # a malformed size is shown as unknown, not as an error
    return None


def _license(request: Mapping[str, Any]) -> str:
    """The license the request recorded; "unknown" when none is (a malformed one too: it is shown, never an error)."""
    declared = request.get("license")
    return declared if isinstance(declared, str) and declared.strip() else UNKNOWN_LICENSE


def _board_stamp(folder: RunFolder) -> tuple[tuple[int, int] | None, ...]:
    """The stamp of every file of a run that the board shows or checks: a new stamp is new results to render.

    The consistency report changes the About tab, details.parquet the rank ranges (the compact file kept from it
    is current exactly when details.parquet is unchanged).
    """
    return _stamp(folder.summary_path, folder.request_path, folder.path / CONSISTENCY_FILE, folder.details_path)


def _stamp(*paths: Path) -> tuple[tuple[int, int] | None, ...]:
    """Modification time and size of each file (None if absent): what "changed" means here."""
    stamps = []
    for path in paths:
        try:
            stat = path.stat()
            stamps.append((stat.st_mtime_ns, stat.st_size))
        except FileNotFoundError:
            stamps.append(None)
    return tuple(stamps)


def _load_queries(benchmark: Benchmark, spec: DatasetSpec, config: str) -> dict[int, str]:
    try:
        items = load_items(benchmark, spec, [config])
    except (DatasetLoadError, ItemValidationError) as exc:
        raise QueryUnavailableError(str(exc)) from exc
    return {item.index: item.query for item in items}
