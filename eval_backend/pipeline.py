"""The engine's phases over one run folder, shared by the CLI, the worker and the tests.

Every phase is resumable: it reads what the folder already holds and does only the rest.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from eval_backend.benchmarks import Benchmark
from eval_backend.dataset_loader import DatasetSpec, load_items, resolve_configs
from eval_backend.generation.generating import GenerationCallback, GenerationProgress, generate_items, owed_items
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.select import build_generator
from eval_backend.judge_client import JudgeClient
from eval_backend.judging import JudgeTask, JudgingProgress, ProgressCallback, plan_judge_tasks, run_judge_tasks
from eval_backend.records import Item, ResponseRecord, to_json_dict
from eval_backend.reporting import score_run_folder
from eval_backend.run_folder import RunFolder
from eval_backend.scoring import Summary
from eval_backend.settings import JudgeSettings

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunSpec:
    """What a run evaluates: which benchmark, on which data, into which folder."""

    benchmark: Benchmark
    dataset: DatasetSpec
    folder: RunFolder
    configs: Sequence[str] | None = None
    limit: int | None = None


def prepare_run(spec: RunSpec, request: dict[str, Any]) -> list[Item]:
    """Load and validate the items, and record them and the request in the run folder."""
    configs = resolve_configs(spec.dataset, spec.configs)
    items = load_items(spec.benchmark, spec.dataset, configs, spec.limit)
    spec.folder.create()
    previous = spec.folder.read_request() if spec.folder.request_path.exists() else {}
    spec.folder.write_request({
        **previous,
        **request,
        "benchmark": spec.benchmark.name,
        "dataset": spec.dataset.path,
        "dataset_revision": spec.dataset.revision,
        "configs": configs,
    })
    spec.folder.write_items(item.meta() for item in items)
    return items


def import_responses(folder: RunFolder, responses: Sequence[ResponseRecord]) -> int:
    """Append the responses that are new or changed; returns how many were appended."""
    existing = folder.read_responses()
    changed = [r for r in responses if existing.get(r.key) is None or existing[r.key].response != r.response]
    with folder.response_appender() as appender:
        for record in changed:
            appender.append(to_json_dict(record))
    return len(changed)


def judge_phase(
    spec: RunSpec,
    items: Sequence[Item],
    settings: JudgeSettings,
    on_progress: ProgressCallback | None = None,
) -> JudgingProgress:
    """Send every judge call the folder still owes and append the judgments."""
    tasks = plan_judge_tasks(
        spec.benchmark, items, spec.folder.read_responses(), spec.folder.read_judgments(), settings.model
    )
    logger.info("%d judge calls to make in %s", len(tasks), spec.folder.path)
    return asyncio.run(_judge(spec, tasks, settings, on_progress))


def score_phase(spec: RunSpec, judge_model: str) -> Summary:
    """Recompute summary.json and details.parquet."""
    return score_run_folder(spec.benchmark, spec.folder, judge_model)


async def _judge(spec: RunSpec, tasks: list[JudgeTask], settings: JudgeSettings, on_progress: ProgressCallback | None) -> JudgingProgress:
    client = JudgeClient(settings)
    try:
        with spec.folder.judgment_appender() as appender:
            return await run_judge_tasks(spec.benchmark, tasks, client, appender, on_progress)
    finally:
        await client.close()


@dataclass(frozen=True)
class PhaseProgress:
    """Where a full run stands: the phase and its done / total units (items, judge calls)."""

    phase: str  # "generating" | "judging" | "scoring"
    done: int
    total: int


def generate_phase(
    spec: RunSpec,
    items: Sequence[Item],
    options: GenerationOptions,
    on_progress: GenerationCallback | None = None,
) -> GenerationProgress:
    """Generate a response for every item the folder does not have yet and append each one.

    With nothing owed the model is not even loaded, so a finished run resumes in moments.
    """
    owed = owed_items(items, spec.folder.read_responses())
    logger.info("%d of %d items to generate in %s", len(owed), len(items), spec.folder.path)
    if not owed:
        return GenerationProgress(total=0)
    generator = build_generator(options)
    params = {**options.record_params(), "backend": generator.name}
    try:
        with spec.folder.response_appender() as appender:
            return generate_items(owed, generator, params, appender, on_progress)
    finally:
        generator.close()


def run_pipeline(
    spec: RunSpec,
    request: dict[str, Any],
    generation: GenerationOptions,
    judge: JudgeSettings,
    on_progress: Callable[[PhaseProgress], None] | None = None,
) -> Summary:
    """The whole evaluation in one run folder: prepare, generate, judge, score.

    Resumable at any point: each phase does only what the folder still lacks, so a
    second call on a finished folder generates nothing and sends no judge call.
    """
    report = on_progress or (lambda progress: None)
    items = prepare_run(spec, {**request, "generation": generation.record_params()})
    generate_phase(spec, items, generation, lambda p: report(PhaseProgress("generating", p.done, p.total)))
    judge_phase(spec, items, judge, lambda p: report(PhaseProgress("judging", p.done, p.total)))
    report(PhaseProgress("scoring", 0, 1))
    summary = score_phase(spec, judge.model)
    report(PhaseProgress("scoring", 1, 1))
    return summary
