"""A run's judged parts as a consistency check samples and re-judges them, one class per benchmark record."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence

from eval_backend.benchmarks import Benchmark, ScoredBenchmark
from eval_backend.dataset_loader import DatasetSpec, load_items
from eval_backend.judge_calls import JudgeCall, VerdictBook, by_config
from eval_backend.judging import JudgeTask, RubricVerdicts, plan_judge_tasks
from eval_backend.records import Item, ItemKey, Judgment, ResponseRecord
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.scorer_runs import ScorerVerdicts, plan_scorer_calls, read_scores, read_suite_items, scores_path
from eval_backend.scores import ScoreRecord, current_scores
from eval_backend.writing_bench_scoring import current_judgments

CallKey = tuple[str, int, int | str, str]
"""config, index, the part judged (a rubric criterion's index, a judge scorer's name), hash of the judged response."""


class JudgedSample(Protocol):
    """A run folder's judged parts as a consistency check reads and re-judges them, for one benchmark record."""

    path: Path
    """The run's verdict file (judgments.jsonl, scores.jsonl)."""

    def latest_judge(self) -> str | None:
        """The judge of the folder's latest verdict line."""

    def judged(self, judge_model: str) -> dict[CallKey, int]:
        """Each part of each current answer `judge_model` judged by a call, with its verdict as a whole number."""

    def book(self, path: Path) -> VerdictBook:
        """The run's judge calls, with `path` as their verdict file (what is owed is what it lacks)."""

    def rejudged(self, path: Path, judge_model: str) -> dict[CallKey, int]:
        """The verdicts in `path` of `judge_model`, as whole numbers (a failed one is left out)."""


class RubricSample:
    """A rubric benchmark's criteria (judgments.jsonl), scored 1–10 each; the queries are read from the dataset."""

    def __init__(self, benchmark: Benchmark, folder: RunFolder) -> None:
        self.benchmark, self.folder, self.path = benchmark, folder, folder.judgments_path

    @cached_property
    def judgments(self) -> list[Judgment]:
        return self.folder.read_judgments()

    @cached_property
    def items(self) -> list[Item]:
        return run_items(self.benchmark, self.folder)

    @cached_property
    def responses(self) -> Mapping[ItemKey, ResponseRecord]:
        return self.folder.read_responses()

    def latest_judge(self) -> str | None:
        return self.judgments[-1].judge_model if self.judgments else None

    def judged(self, judge_model: str) -> dict[CallKey, int]:
        latest = current_judgments(self.judgments, judge_model)
        every = plan_judge_tasks(self.benchmark, self.items, self.responses, [], judge_model)  # none done: every criterion
        return {_key(task): int(judgment.score) for task in every
                if (judgment := latest.get(_key(task))) is not None and judgment.score is not None}

    def book(self, path: Path) -> RubricVerdicts:
        groups = by_config(self.items)
        return RubricVerdicts(self.benchmark, self.folder, list(groups), groups.__getitem__, path)

    def rejudged(self, path: Path, judge_model: str) -> dict[CallKey, int]:
        return {key: int(judgment.score) for key, judgment in current_judgments(self.book(path).read(), judge_model).items()
                if judgment.score is not None}


class ScorerSample:
    """A scorer-kind benchmark's judge verdicts (scores.jsonl), each compared on its scorer's `agreement_value`.

    The items are read back from items.jsonl, which holds all a judge prompt needs.
    """

    def __init__(self, benchmark: ScoredBenchmark, folder: RunFolder) -> None:
        self.benchmark, self.folder, self.path = benchmark, folder, scores_path(folder)

    @cached_property
    def records(self) -> list[ScoreRecord]:
        return read_scores(self.folder) if self.path.exists() else []

    @cached_property
    def items(self) -> list[Any]:
        return read_suite_items(self.benchmark, self.folder)

    @cached_property
    def hashes(self) -> dict[ItemKey, str]:
        return {item.key: item.item_sha256 for item in self.items}

    @cached_property
    def responses(self) -> Mapping[ItemKey, ResponseRecord]:
        return self.folder.read_responses()

    def latest_judge(self) -> str | None:
        called = [record.judge_model for record in self.records]
        return called[-1] if called else None

    def _calls(self, judge_model: str) -> list[JudgeCall]:
        return plan_scorer_calls(self.benchmark, self.items, self.responses, [], judge_model)  # none done: every call

    def judged(self, judge_model: str) -> dict[CallKey, int]:
        return self._values(self.records, judge_model)

    def book(self, path: Path) -> ScorerVerdicts:
        groups = by_config(self.items)
        return ScorerVerdicts(self.benchmark, self.folder, list(groups), groups.__getitem__, path)

    def rejudged(self, path: Path, judge_model: str) -> dict[CallKey, int]:
        return self._values(self.book(path).read(), judge_model)

    def _values(self, records: Sequence[ScoreRecord], judge_model: str) -> dict[CallKey, int]:
        current = current_scores(records, judge_model, self.hashes)
        values = {}
        for call in self._calls(judge_model):
            key = (call.config, call.index, call.part, call.response_sha256)
            record = current.get(key)
            value = self.benchmark.judge(call.part).agreement_value(record.values) if record and record.values is not None else None
            if value is not None:
                values[key] = value
        return values


def run_items(benchmark: Benchmark, folder: RunFolder) -> list[Item]:
    """The run's items with their queries, read from the dataset (and revision) its request.json records."""
    request = folder.read_request() if folder.request_path.exists() else {}
    dataset = request.get("dataset") if isinstance(request, dict) else None
    if not isinstance(dataset, str) or not dataset:
        raise RunFolderError(f"{folder.request_path}: no 'dataset' recorded, so the queries cannot be read")
    keys = {meta.key for meta in folder.read_items()}
    configs = sorted({config for config, _ in keys})
    items = load_items(benchmark, DatasetSpec(dataset, request.get("dataset_revision")), configs)
    return [item for item in items if item.key in keys]


def _key(task: JudgeTask) -> CallKey:
    return (task.item.config, task.item.index, task.criterion_index, task.response_sha256)
