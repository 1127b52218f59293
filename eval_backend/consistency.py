"""Judge consistency: re-judge a seeded sample of a run's judged criteria and compare the scores.

A judge that gives the same answer two different scores is noise on the board. This sends a
sample of criteria already judged in a run folder to the judge again, through the same client
and the same prompt as the run, and compares the new scores with the run's. With another
`judge_model` it shows how far a second judge agrees with the run's.

    consistency_judgments.jsonl   the re-judgments, append-only (never mixed into judgments.jsonl)
    consistency.json              one report per re-judging model: the four figures, per config too,
                                  and the scored pairs behind them

The sample is stratified by config (each config gets its share of the sample, in proportion to
its judged criteria) and fixed by the seed, so the same command resumes: re-judgments already
in the file are not sent again.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Hashable, Mapping, Sequence, TypeVar

from eval_backend.agreement import Agreement, agreement
from eval_backend.benchmarks import Benchmark
from eval_backend.dataset_loader import DatasetSpec, load_items
from eval_backend.judge_client import JudgeClient
from eval_backend.judging import JudgeTask, JudgingProgress, ProgressCallback, plan_judge_tasks, run_judge_tasks
from eval_backend.jsonl import JsonlAppender
from eval_backend.records import Item, ItemKey, Judgment, ResponseRecord, judgment_from_dict, utc_now
from eval_backend.run_folder import RunFolder, RunFolderError, read_records, write_json_atomic
from eval_backend.scoring import current_judgments
from eval_backend.settings import JudgeSettings

CONSISTENCY_FILE = "consistency.json"
REJUDGMENTS_FILE = "consistency_judgments.jsonl"

T = TypeVar("T")
CriterionKey = tuple[str, int, int, str]  # config, index, criterion, hash of the judged response


@dataclass(frozen=True)
class ScoredPair:
    """One criterion judged twice: the run's score and the re-judged score."""

    config: str
    index: int
    criterion_index: int
    reference: int
    rejudged: int


@dataclass(frozen=True)
class ConsistencyReport:
    """What a consistency check found for one re-judging model (one entry of consistency.json)."""

    judge_model: str
    reference_judge_model: str
    seed: int
    requested: int
    sampled: int
    failed: int
    pairs: tuple[ScoredPair, ...]
    created_at: str = field(default_factory=utc_now)

    @property
    def overall(self) -> Agreement:
        return pair_agreement(self.pairs)

    @property
    def per_config(self) -> dict[str, Agreement]:
        by_config: dict[str, list[ScoredPair]] = defaultdict(list)
        for pair in self.pairs:
            by_config[pair.config].append(pair)
        return {config: pair_agreement(pairs) for config, pairs in sorted(by_config.items())}


def pair_agreement(pairs: Sequence[ScoredPair]) -> Agreement:
    """The agreement figures of these pairs (run's score first, re-judged second)."""
    return agreement([pair.reference for pair in pairs], [pair.rejudged for pair in pairs])


def check_consistency(
    benchmark: Benchmark,
    folder: RunFolder,
    settings: JudgeSettings,
    sample: int,
    seed: int = 0,
    reference_judge_model: str | None = None,
    on_progress: ProgressCallback | None = None,
) -> ConsistencyReport:
    """Re-judge `sample` scored criteria of the run with `settings`' judge; record and return the report.

    `reference_judge_model` defaults to the judge of the folder's latest judgment line (as
    `score` does). Raises RunFolderError when the folder has nothing to compare.
    """
    if sample < 1:
        raise ValueError(f"sample must be at least 1, got {sample}")
    judgments = folder.read_judgments()
    reference_model = reference_judge_model or (judgments[-1].judge_model if judgments else None)
    if not reference_model:
        raise RunFolderError(f"{folder.judgments_path}: no judgments to check; judge the run first")
    items = run_items(benchmark, folder)
    responses = folder.read_responses()
    candidates = scored_criteria(benchmark, items, responses, judgments, reference_model)
    if not candidates:
        raise RunFolderError(f"{folder.judgments_path}: no scored judgments of {reference_model!r} for the current responses")
    chosen = stratified_sample(candidates, sample, seed, lambda candidate: candidate[0].item.config)
    path = folder.path / REJUDGMENTS_FILE
    wanted = {_key(task) for task, _ in chosen}
    owed = [task for task in plan_judge_tasks(benchmark, items, responses, read_rejudgments(path), settings.model)
            if _key(task) in wanted]
    if owed:
        asyncio.run(_rejudge(benchmark, owed, settings, path, on_progress))
    again = current_judgments(read_rejudgments(path), settings.model)
    pairs = tuple(
        ScoredPair(task.item.config, task.item.index, task.criterion_index, int(first.score), int(second.score))  # type: ignore[arg-type]
        for task, first in chosen
        if (second := again.get(_key(task))) is not None and second.score is not None
    )
    report = ConsistencyReport(settings.model, reference_model, seed, sample, len(chosen), len(chosen) - len(pairs), pairs)
    write_report(folder, report)
    return report


def scored_criteria(
    benchmark: Benchmark,
    items: Sequence[Item],
    responses: Mapping[ItemKey, ResponseRecord],
    judgments: Sequence[Judgment],
    judge_model: str,
) -> list[tuple[JudgeTask, Judgment]]:
    """Each criterion of each current answer that `judge_model` scored, as the call to send again and its judgment."""
    latest = current_judgments(judgments, judge_model)
    every = plan_judge_tasks(benchmark, items, responses, [], judge_model)  # nothing counts as done: every criterion
    return [(task, judgment) for task in every
            if (judgment := latest.get(_key(task))) is not None and judgment.score is not None]


def stratified_sample(population: Sequence[T], size: int, seed: int, stratum: Callable[[T], Hashable]) -> list[T]:
    """`size` members (all, if fewer), each stratum's share in proportion to its size, drawn with `seed`.

    Shares are rounded by largest remainder, so they add up to `size` exactly; the draw in a
    stratum depends only on the seed, the stratum's name and its members' order.
    """
    strata: dict[Hashable, list[T]] = defaultdict(list)
    for member in population:
        strata[stratum(member)].append(member)
    size = min(size, len(population))
    exact = {name: size * len(members) / len(population) for name, members in strata.items()}
    shares = {name: int(value) for name, value in exact.items()}
    by_remainder = sorted(strata, key=lambda name: (-(exact[name] - shares[name]), str(name)))
    for name in by_remainder[: size - sum(shares.values())]:
        shares[name] += 1
    chosen: list[T] = []
    for name in sorted(strata, key=str):
        chosen.extend(random.Random(f"{seed}:{name}").sample(strata[name], shares[name]))
    return chosen


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


def read_rejudgments(path: Path) -> list[Judgment]:
    """Every line of a re-judgments file, in the order written (none if there is no file)."""
    return list(read_records(path, judgment_from_dict)) if path.exists() else []


def write_report(folder: RunFolder, report: ConsistencyReport) -> None:
    """Put `report` into consistency.json under its judge model, keeping the other models' reports."""
    reports = read_reports(folder)
    reports[report.judge_model] = report
    write_json_atomic(folder.path / CONSISTENCY_FILE, {"judge_models": {m: report_to_dict(r) for m, r in reports.items()}})


def read_reports(folder: RunFolder) -> dict[str, ConsistencyReport]:
    """The reports of consistency.json by re-judging model (none if there is no file)."""
    path = folder.path / CONSISTENCY_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(model): report_from_dict(entry) for model, entry in data["judge_models"].items()}
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise RunFolderError(f"{path}: not a consistency report ({exc})") from exc


def report_to_dict(report: ConsistencyReport) -> dict[str, Any]:
    """A report as written to consistency.json: figures first (for people), then the pairs."""
    return {
        "judge_model": report.judge_model,
        "reference_judge_model": report.reference_judge_model,
        "seed": report.seed,
        "requested": report.requested,
        "sampled": report.sampled,
        "failed": report.failed,
        **_figures(report.overall),
        "per_config": {config: _figures(figures) for config, figures in report.per_config.items()},
        "pairs": [[p.config, p.index, p.criterion_index, p.reference, p.rejudged] for p in report.pairs],
        "created_at": report.created_at,
    }


def report_from_dict(data: Mapping[str, Any]) -> ConsistencyReport:
    """A report from consistency.json; the figures are recomputed from its pairs."""
    pairs = tuple(ScoredPair(str(c), int(i), int(k), _score(a), _score(b)) for c, i, k, a, b in data["pairs"])
    return ConsistencyReport(
        judge_model=str(data["judge_model"]),
        reference_judge_model=str(data["reference_judge_model"]),
        seed=int(data["seed"]),
        requested=int(data["requested"]),
        sampled=int(data["sampled"]),
        failed=int(data["failed"]),
        pairs=pairs,
        created_at=str(data.get("created_at") or ""),
    )


def _figures(figures: Agreement) -> dict[str, Any]:
    return {
        "pairs_compared": figures.pairs,
        "exact_agreement": figures.exact,
        "within_one_agreement": figures.within_one,
        "spearman": figures.spearman,
        "mean_abs_diff": figures.mean_abs_diff,
    }


def _score(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"a score must be a whole number, not {value!r}")
    return value


def _key(task: JudgeTask) -> CriterionKey:
    return (task.item.config, task.item.index, task.criterion_index, task.response_sha256)


async def _rejudge(
    benchmark: Benchmark, tasks: list[JudgeTask], settings: JudgeSettings, path: Path,
    on_progress: ProgressCallback | None,
) -> JudgingProgress:
    """Re-judge `tasks` (the list is taken over: emptied as the calls go, as `run_judge_tasks` does)."""
    client = JudgeClient(settings)
    try:
        with JsonlAppender(path) as appender:
            return await run_judge_tasks(benchmark, tasks, client, appender, on_progress)
    finally:
        await client.close()
