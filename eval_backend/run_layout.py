"""Where run folders live: one tree per benchmark, and the move from the one-benchmark layout.

    DATA_DIR/runs/<benchmark>/<org>__<name>/<revision>/     one folder per model revision and benchmark

Inside a benchmark's tree everything is as it was (run ids are `<org>__<name>/<revision>`),
so every reader that takes a runs folder takes `runs/<benchmark>` unchanged. Before several
benchmarks, Indic WritingBench's folders sat directly in `runs/`; `migrate_legacy_runs` moves
them into `runs/indic_writing_bench/` (run at the app's and the worker's start, and by
`python -m eval_backend migrate-runs`). A benchmark's name never holds `__` and a model's
folder name always does (`org/name` -> `org__name`), so the two are never confused.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.run_folder import RunFolder, iter_run_folders

logger = logging.getLogger(__name__)

_RUN_FILES = ("request.json", "items.jsonl", "responses.jsonl", "summary.json")


def benchmark_of_folder(runs_dir: Path, folder: RunFolder) -> str | None:
    """The benchmark whose tree under `runs_dir` holds `folder` (None when it is outside every tree)."""
    try:
        parts = folder.path.resolve().relative_to(Path(runs_dir).resolve()).parts
    except ValueError:
        return None
    return parts[0] if len(parts) == 3 and parts[0] in BENCHMARKS else None


def iter_all_run_folders(runs_dir: Path) -> Iterator[tuple[str, RunFolder]]:
    """Every finished run folder of every benchmark, with its benchmark's name."""
    for name in BENCHMARKS:
        for folder in iter_run_folders(Path(runs_dir) / name):
            yield name, folder


@dataclass(frozen=True)
class MigrationReport:
    """What a migration moved (`org__name/revision` each) and what it left because the target existed."""

    moved: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)


def migrate_legacy_runs(runs_dir: Path) -> MigrationReport:
    """Move one-benchmark-layout folders `runs/<org>__<name>/<rev>/` into `runs/indic_writing_bench/`.

    Each revision folder moves with one rename (atomic on one file system); a revision that
    already exists in the new tree is left where it is and reported, never overwritten. Running
    it again moves nothing.
    """
    runs_dir = Path(runs_dir)
    report = MigrationReport()
    if not runs_dir.is_dir():
        return report
    target_root = runs_dir / DEFAULT_BENCHMARK
    for model_dir in sorted(runs_dir.iterdir()):
        if model_dir.name in BENCHMARKS or not model_dir.is_dir() or model_dir.name.startswith("."):
            continue
        for revision_dir in sorted(path for path in model_dir.iterdir() if path.is_dir()):
            if not any((revision_dir / name).is_file() for name in _RUN_FILES):
                continue
            run = f"{model_dir.name}/{revision_dir.name}"
            target = target_root / model_dir.name / revision_dir.name
            if target.exists():
                report.conflicts.append(run)
                logger.warning("not migrating %s: %s already exists", revision_dir, target)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(revision_dir, target)
            report.moved.append(run)
        _remove_if_empty(model_dir)
    if report.moved:
        logger.info("moved %d run folders into %s (one tree per benchmark)", len(report.moved), target_root)
    return report


def _remove_if_empty(path: Path) -> None:
    try:
        path.rmdir()
    except OSError:
        pass  # something else is in it: leave it
