"""The engine's phases over one run folder, shared by the CLI, the worker and the tests.

Every phase is resumable: it reads what the folder already holds and does only the rest.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from eval_backend.batch import judge_in_batches
from eval_backend.benchmarks.plugin import Benchmark, SuiteItem
from eval_backend.dataset_loader import (
    DatasetSpec,
    config_sizes,
    discover_configs,
    load_items,
    pinned,
    resolve_configs,
    resolve_revision,
)
from eval_backend.generation.generating import GenerationCallback, GenerationProgress, generate_items, owed_items
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.select import build_generator
from eval_backend.judge_calls import VerdictBook, by_config
from eval_backend.judging import JudgingProgress, ProgressCallback, judge_live
from eval_backend.memory import trim_heap
from eval_backend.records import ResponseRecord, to_json_dict, utc_now
from eval_backend.run_folder import RunFolder, recorded_items
from eval_backend.scorer_runs import score_folder
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


def prepare_run(spec: RunSpec, request: dict[str, Any]) -> list[SuiteItem]:
    """Load and validate the items, and record them and the request in the run folder."""
    spec = pin_run(spec)
    items = load_run_items(spec)
    record_run(spec, items, request)
    return items


def pin_run(spec: RunSpec) -> RunSpec:
    """`spec` with its dataset pinned to the commit its revision points at now, for every load of the run."""
    return dataclasses.replace(spec, dataset=pinned(spec.dataset))


def load_run_items(spec: RunSpec) -> list[SuiteItem]:
    """Check the folder can be written and what it holds is readable, then load the items; writes nothing.

    Everything a run could refuse is refused here, before its first write.
    """
    spec.folder.check_writable()
    if spec.folder.request_path.exists():
        spec.folder.read_request()
    recorded_items(spec.benchmark, spec.folder)
    configs = resolve_configs(spec.dataset, spec.configs)
    return load_items(spec.benchmark, spec.dataset, configs, spec.limit)


def record_run(spec: RunSpec, items: Sequence[SuiteItem], request: dict[str, Any]) -> None:
    """Record the request and the items in the run folder, keeping what earlier runs recorded.

    A narrower run (fewer configs, a `limit`) adds to the folder's items and configs and never
    drops any, so its summary still covers everything the folder was run on.
    """
    spec.folder.create()
    previous = spec.folder.read_request() if spec.folder.request_path.exists() else {}
    earlier = recorded_items(spec.benchmark, spec.folder)
    recorded = [name for name in previous.get("configs") or [] if isinstance(name, str)]
    configs = list(dict.fromkeys([*recorded, *(meta.config for meta in earlier), *(item.config for item in items)]))
    merged = {meta.key: meta for meta in earlier} | {item.key: item.meta() for item in items}
    spec.folder.write_request({
        **previous,
        **request,
        "benchmark": spec.benchmark.name,
        "dataset": spec.dataset.path,
        "dataset_revision": resolve_revision(spec.dataset),
        "dataset_resolved_at": utc_now(),
        "dataset_configs": discover_configs(spec.dataset),
        "expected_items": {**(previous.get("expected_items") or {}), **_dataset_sizes(spec, items)},
        "configs": configs,
    })
    spec.folder.write_items(sorted(merged.values(), key=lambda meta: (configs.index(meta.config), meta.index)))


def _dataset_sizes(spec: RunSpec, items: Sequence[SuiteItem]) -> dict[str, int]:
    """The dataset's item count per config of this run: a `limit` does not change what is expected."""
    configs = list(dict.fromkeys(item.config for item in items))
    if spec.limit:
        return config_sizes(spec.benchmark, spec.dataset, configs)
    return {config: sum(1 for item in items if item.config == config) for config in configs}


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
    items: Sequence[SuiteItem],
    settings: JudgeSettings,
    on_progress: ProgressCallback | None = None,
    retry_failed: bool = False,
) -> JudgingProgress:
    """Send every judge call the folder still owes for `items` and append the judgments.

    Judged config by config, live or through the Batch API (`settings.mode`). With
    `retry_failed`, the judgments that failed for good are sent again too.
    """
    groups = by_config(items)
    return _judge_configs(spec, list(groups), groups.__getitem__, settings, on_progress, retry_failed)


def judge_run_configs(
    spec: RunSpec, settings: JudgeSettings, on_progress: ProgressCallback | None = None, retry_failed: bool = False
) -> JudgingProgress:
    """`judge_phase` over the run's configs, without the dataset read again where the run folder holds
    the items whole (a declared benchmark's items.jsonl). A rubric benchmark's items.jsonl holds
    no queries, so each config's items are loaded from the dataset only while it is judged: at full
    size the queries take ~200 MB, so a caller that no longer holds them judges in a fraction of
    the memory."""
    if spec.benchmark.judged_from_folder:
        return judge_phase(spec, _recorded_run_items(spec), settings, on_progress, retry_failed)
    return _judge_configs(spec, _run_configs(spec), _config_loader(spec), settings, on_progress, retry_failed)


def _recorded_run_items(spec: RunSpec) -> list[Any]:
    """The run's items as the folder recorded them: of its configs, the first `limit` of each."""
    configs = set(_run_configs(spec))
    taken: dict[str, int] = {}
    items = []
    for item in recorded_items(spec.benchmark, spec.folder):
        if item.config in configs and (not spec.limit or taken.get(item.config, 0) < spec.limit):
            taken[item.config] = taken.get(item.config, 0) + 1
            items.append(item)
    return items


def _run_configs(spec: RunSpec) -> list[str]:
    return resolve_configs(spec.dataset, spec.configs)


def _config_loader(spec: RunSpec) -> Callable[[str], list[SuiteItem]]:
    return lambda config: load_items(spec.benchmark, spec.dataset, [config], spec.limit)


def _judge_configs(
    spec: RunSpec,
    configs: Sequence[str],
    load_config: Callable[[str], Sequence[SuiteItem]],
    settings: JudgeSettings,
    on_progress: ProgressCallback | None,
    retry_failed: bool,
) -> JudgingProgress:
    """Judge config by config, live or through the Batch API (`settings.mode`)."""
    trim_heap()  # what the caller released (the run's items) goes back to the OS first
    book = VerdictBook(spec.benchmark, spec.folder, configs, load_config)
    if settings.mode == "batch":
        return judge_in_batches(book, spec.folder, settings, on_progress, retry_failed)
    return judge_live(book, book.owed(settings.model, retry_failed), settings, book.appender(), on_progress)


def score_phase(spec: RunSpec, judge_model: str | None) -> dict[str, Any]:
    """Recompute summary.json and details.parquet; returns the summary."""
    return score_folder(spec.benchmark, spec.folder, judge_model)


@dataclass(frozen=True)
class PhaseProgress:
    """Where a full run stands: the phase and its done / total units (items, judge calls)."""

    phase: str  # "generating" | "judging" | "scoring"
    done: int
    total: int


def generate_phase(
    spec: RunSpec,
    items: Sequence[SuiteItem],
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
    params = {**options.record_params(), "backend": generator.name, "decoding_mode": generator.decoding_mode}
    try:
        with spec.folder.response_appender() as appender:
            return generate_items(owed, generator, params, appender, spec.benchmark.prompt, on_progress)
    finally:
        generator.close()


def run_pipeline(
    spec: RunSpec,
    request: dict[str, Any],
    generation: GenerationOptions,
    judge: JudgeSettings,
    on_progress: Callable[[PhaseProgress], None] | None = None,
    retry_failed: bool = False,
) -> dict[str, Any]:
    """The whole evaluation in one run folder: prepare, generate, judge, score.

    With `retry_failed`, the judgments that failed for good, in earlier runs or in this
    one, are sent once more before scoring.

    The folder is held (locked) by this call throughout: a second run on it is refused.
    Resumable at any point: each phase does only what the folder still lacks, so a
    second call on a finished folder generates nothing and sends no judge call.
    """
    report = on_progress or (lambda progress: None)
    spec = pin_run(spec)
    items = load_run_items(spec)
    with spec.folder.lock():
        record_run(spec, items, {**request, "generation": generation.record_params(), "judge_mode": judge.mode})
        generate_phase(spec, items, generation, lambda p: report(PhaseProgress("generating", p.done, p.total)))
        del items  # judged config by config from the dataset: the queries (~200 MB at full size) are not held
        judge_run_configs(spec, judge, lambda p: report(PhaseProgress("judging", p.done, p.total)))
        if retry_failed:
            judge_run_configs(spec, judge, lambda p: report(PhaseProgress("judging", p.done, p.total)), True)
        report(PhaseProgress("scoring", 0, 1))
        summary = score_phase(spec, judge.model)
        report(PhaseProgress("scoring", 1, 1))
    return summary
