"""A run's judged parts as a consistency check samples and re-judges them, for every benchmark alike."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any, Mapping, Sequence

from eval_backend.benchmarks.plugin import Benchmark, judge_of_part
from eval_backend.dataset_loader import DatasetSpec, load_items
from eval_backend.judge_calls import VerdictBook, by_config, never_settled, plan_calls
from eval_backend.records import ItemKey, ResponseRecord
from eval_backend.run_folder import RunFolder, RunFolderError, recorded_items
from eval_backend.verdict_lines import CallKey, current_verdicts


class JudgedSample:
    """A run folder's judge verdicts, each compared on its judge scorer's `agreement_value` (a criterion's
    1–10 score, a judge's class on its ordinal scale). The items are read back from items.jsonl where it
    holds all a judge prompt needs, else (WritingBench's queries) from the dataset the run recorded."""

    def __init__(self, benchmark: Benchmark, folder: RunFolder) -> None:
        self.benchmark, self.folder = benchmark, folder
        self.path = folder.path / benchmark.verdict_lines.file

    @cached_property
    def records(self) -> list[Any]:
        return self.book(self.path).read() if self.path.exists() else []

    @cached_property
    def items(self) -> list[Any]:
        if self.benchmark.judged_from_folder:
            return recorded_items(self.benchmark, self.folder)
        return run_items(self.benchmark, self.folder)

    @cached_property
    def responses(self) -> Mapping[ItemKey, ResponseRecord]:
        return self.folder.read_responses()

    def latest_judge(self) -> str | None:
        """The judge of the folder's latest verdict line."""
        return self.records[-1].judge_model if self.records else None

    def judged(self, judge_model: str) -> dict[CallKey, int]:
        """Each part of each current answer `judge_model` judged by a call, with its verdict as a whole number."""
        return self._values(self.records, judge_model)

    def book(self, path: Path) -> VerdictBook:
        """The run's judge calls, with `path` as their verdict file (what is owed is what it lacks)."""
        groups = by_config(self.items)
        return VerdictBook(self.benchmark, self.folder, list(groups), groups.__getitem__, path)

    def rejudged(self, path: Path, judge_model: str) -> dict[CallKey, int]:
        """The verdicts in `path` of `judge_model`, as whole numbers (a failed one is left out)."""
        return self._values(self.book(path).read(), judge_model)

    def _values(self, records: Sequence[Any], judge_model: str) -> dict[CallKey, int]:
        lines = self.benchmark.verdict_lines
        current = current_verdicts(lines, records, judge_model, {item.key: item.item_sha256 for item in self.items})
        values = {}
        for call in plan_calls(self.benchmark, self.items, self.responses, never_settled):
            record = current.get(call.key)
            verdict = record.values if record is not None else None
            value = judge_of_part(self.benchmark.judges, call.part).agreement_value(verdict) if verdict is not None else None
            if value is not None:
                values[call.key] = value
        return values


def run_items(benchmark: Benchmark, folder: RunFolder) -> list[Any]:
    """The run's items with their queries, read from the dataset (and revision) its request.json records."""
    request = folder.read_request() if folder.request_path.exists() else {}
    dataset = request.get("dataset") if isinstance(request, dict) else None
    if not isinstance(dataset, str) or not dataset:
        raise RunFolderError(f"{folder.request_path}: no 'dataset' recorded, so the queries cannot be read")
    keys = {meta.key for meta in recorded_items(benchmark, folder)}
    configs = sorted({config for config, _ in keys})
    items = load_items(benchmark, DatasetSpec(dataset, request.get("dataset_revision")), configs)
    return [item for item in items if item.key in keys]
