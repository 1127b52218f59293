"""The files a run folder has, declared once: each one's name, format, largest size and required fields.

Whatever copies files into run folders from elsewhere (`hub pull`) takes only these names, and
checks each file against its declaration before it replaces anything (`file_problem`); the
board's readers may check what they read against the same declarations. Temporary and lock
files (`.lock`, `summary.json.tmp`) are a writer's, never part of a run, so none is declared.

    request.json, summary.json, consistency.json     a JSON object
    items, responses, judgments, scores .jsonl      one JSON object a line, each with its item key
    consistency_judgments.jsonl                     one JSON object a line
    details.parquet                                  a readable table whose per-item figure values have
                                                     their declared shape (`item_values.checked_values`)
    item_values.arrow                                the compact copy of those values (`item_values`)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.consistency import CONSISTENCY_FILE, REJUDGMENTS_FILE
from eval_backend.item_values import ITEM_VALUES_FILE, values_of_details
from eval_backend.jsonl import parse_json
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.scores import SCORE_LINES

MB = 1024 * 1024
ITEM_KEY = ("config", "index")
"""The fields that name an item in every per-item file."""


class FileFormat(StrEnum):
    JSON = "JSON object"
    JSONL = "JSON lines"
    PARQUET = "parquet table"
    ARROW = "Arrow file"


@dataclass(frozen=True)
class RunFile:
    """One file a run folder may hold."""

    name: str
    format: FileFormat
    max_bytes: int
    """Larger is refused: far above what a full run writes (WritingBench's ~1,000 items with long answers)."""
    required: tuple[str, ...] = ()
    """Keys every JSON line must have, or columns the table must have."""
    figure_columns: bool = False
    """The table must also have the columns the run's benchmark reads its per-item figures from."""


_FOLDER = RunFolder(Path())  # for the names its writers give its files
RUN_FILES: tuple[RunFile, ...] = (
    RunFile(_FOLDER.request_path.name, FileFormat.JSON, 1 * MB),
    RunFile(_FOLDER.items_path.name, FileFormat.JSONL, 64 * MB, ITEM_KEY),
    RunFile(_FOLDER.responses_path.name, FileFormat.JSONL, 512 * MB, ITEM_KEY),
    RunFile(_FOLDER.judgments_path.name, FileFormat.JSONL, 512 * MB, ITEM_KEY),
    RunFile(SCORE_LINES.file, FileFormat.JSONL, 512 * MB, ITEM_KEY),
    RunFile(_FOLDER.summary_path.name, FileFormat.JSON, 16 * MB),
    RunFile(_FOLDER.details_path.name, FileFormat.PARQUET, 512 * MB, ITEM_KEY, figure_columns=True),
    RunFile(CONSISTENCY_FILE, FileFormat.JSON, 16 * MB),
    RunFile(REJUDGMENTS_FILE, FileFormat.JSONL, 256 * MB),
    RunFile(ITEM_VALUES_FILE, FileFormat.ARROW, 64 * MB),
)
"""In the order they are pushed to the results repo (`hub_sync.results_push.run_files`)."""
_BY_NAME = {declared.name: declared for declared in RUN_FILES}


def run_file(name: str) -> RunFile | None:
    """The declaration of the run-folder file called `name`; None for a name no run folder has."""
    return _BY_NAME.get(name)


def name_problem(name: str, size: int | None) -> str | None:
    """Why a file called `name` of `size` bytes (None: not known yet) cannot be a run folder's, or None."""
    declared = run_file(name)
    if declared is None:
        return "not a run-folder file (a run folder has " + ", ".join(_BY_NAME) + ")"
    if size is not None and size > declared.max_bytes:
        return f"{size:,} bytes, over the {declared.max_bytes:,} a {declared.name} may have"
    return None


def file_problem(name: str, path: Path, benchmark: Benchmark | None = None) -> str | None:
    """Why the file at `path` cannot be the run folder's `name` (its name, size, format or fields), or None.

    With `benchmark` (the run's), a details table must also have the columns its figures are read from.
    """
    problem = name_problem(name, path.stat().st_size)
    if problem is not None:
        return problem
    declared = _BY_NAME[name]
    try:
        if declared.format is FileFormat.PARQUET:
            required = (*declared.required, *_figure_columns(declared, benchmark))
            return _table_problem(path, required) or _values_problem(declared, path, benchmark)
        if declared.format is FileFormat.ARROW:
            feather.read_table(path, memory_map=False)
            return None
        data = path.read_bytes()
        if declared.format is FileFormat.JSON:
            return _object_problem(parse_json(data, "the file"), declared.required, "the file")
        return _lines_problem(data, declared.required)
    except (ValueError, pa.ArrowException) as exc:
        return str(exc)


def _figure_columns(declared: RunFile, benchmark: Benchmark | None) -> tuple[str, ...]:
    if not declared.figure_columns or benchmark is None or benchmark.item_statistics is None:
        return ()
    return benchmark.item_statistics().columns


def _values_problem(declared: RunFile, path: Path, benchmark: Benchmark | None) -> str | None:
    """Why the table's per-item figure values are not what the board reads (the board's own check: item keys
    once each, finite values within their bounds), or None."""
    if not declared.figure_columns or benchmark is None or benchmark.item_statistics is None:
        return None
    try:
        values_of_details(RunFolder(path.parent), benchmark.item_statistics())
    except RunFolderError as exc:
        return str(exc).removeprefix(f"{path}: ")  # the staging path is the puller's, not the run's
    return None


def _object_problem(value: object, required: tuple[str, ...], where: str) -> str | None:
    if not isinstance(value, dict):
        return f"{where} is a JSON {type(value).__name__}, not an object"
    missing = [key for key in required if key not in value]
    return f"{where} lacks {', '.join(missing)}" if missing else None


def _lines_problem(data: bytes, required: tuple[str, ...]) -> str | None:
    if data and not data.endswith(b"\n"):
        return "the last line is cut off (no newline at the end)"
    for number, line in enumerate(data.splitlines(), start=1):
        if line.strip():
            problem = _object_problem(parse_json(line, f"line {number}"), required, f"line {number}")
            if problem:
                return problem
    return None


def _table_problem(path: Path, required: tuple[str, ...]) -> str | None:
    try:
        columns = pq.read_schema(path).names
        missing = [column for column in required if column not in columns]
        if missing:
            return f"the table lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
        pq.read_table(path)  # every page: a damaged one past the footer is found here
    except (pa.ArrowException, OSError) as exc:
        return f"not a readable parquet file ({type(exc).__name__}: {str(exc)[:200]})"
    return None
