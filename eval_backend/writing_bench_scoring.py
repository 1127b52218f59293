"""Indic WritingBench's scoring as pure functions: items, responses and judgments in, per-item results
and a summary out.

The seed's Step C: item = mean of its criterion scores; config = mean of its item
scores; overall = mean of the config scores. The headline is the mean over the
benchmark's headline config group (Indic WritingBench: the 11 Indic languages), and the
variant, domain and (domain, subdomain) breakdowns pool the item scores of that group
only, so a rendering or a domain is never mixed with English.

What counts, and how:
- an item the model could not answer (its prompt does not fit the context, an empty
  answer) gets the benchmark's no-answer score (the rubric's floor) on every criterion
  (`NO_RESPONSE`), with no judge call: a model never gains by failing on its hardest items;
- an item the system failed on (no response line yet, a backend crash recorded as a
  system error, a response to an older query) is `PENDING`, as is one whose judgments
  are not all in: neither is scored;
- an item with a judgment that failed for good is `FAILED`: counted, left out of the means.
A run is complete when every item the dataset holds for its configs has a score (`eval_backend.coverage`,
the rule every benchmark shares).

Every interval (overall, per config, per config group) is the cluster bootstrap of the item
scores with the configs as strata (`eval_backend.figure_intervals`), the items clustering by
the benchmark's declared rule: the renderings of one request are drawn together.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from eval_backend.benchmarks import Benchmark
from eval_backend.benchmarks.base import RUBRIC_SCORER
from eval_backend.coverage import Coverage, coverage_of
from eval_backend.figure_intervals import Bounds, figure_interval, item_clusters
from eval_backend.generation.decoding_mode import recorded_mode
from eval_backend.item_status import FAILED, NO_RESPONSE, PENDING, SCORED, answered, awaits_response
from eval_backend.records import ItemKey, ItemMeta, Judgment, ResponseRecord, Usage, sha256_text
from eval_backend.statistics import Weighting

HEADLINE_GROUP = "indic"
"""The config group the board ranks by and the breakdowns pool, when the benchmark has it."""
SUBDOMAIN_SEPARATOR = " / "


@dataclass(frozen=True)
class ItemResult:
    """One item's outcome: its status, its score when every criterion was scored, and why not."""

    meta: ItemMeta
    status: str
    score: float | None
    response: ResponseRecord | None
    judgments: tuple[Judgment | None, ...]


@dataclass(frozen=True)
class Counts:
    items: int = 0
    responses: int = 0
    missing_responses: int = 0
    scored_items: int = 0
    failed_items: int = 0
    pending_items: int = 0
    judgments: int = 0
    failed_judgments: int = 0
    extra_attempts: int = 0
    unclosed_thinking: int = 0
    """Answers cut off inside thinking they opened and never closed."""


@dataclass(frozen=True)
class Summary:
    """What summary.json holds: plain numbers per group, counts, intervals and provenance."""

    benchmark: str
    overall: float | None
    overall_ci: Bounds | None
    configs: dict[str, float]
    config_ci: dict[str, Bounds | None]
    config_groups: dict[str, float]
    variants: dict[str, float]
    domains: dict[str, float]
    subdomains: dict[str, float]
    config_variants: dict[str, dict[str, float]]
    counts: Counts
    config_counts: dict[str, Counts]
    usage: Usage
    provenance: dict[str, Any] = field(default_factory=dict)
    config_group_ci: dict[str, Bounds | None] = field(default_factory=dict)
    headline_group: str | None = None
    """The config group ranked by (`config_groups[headline_group]`); None: all configs (`overall`)."""
    complete: bool = False
    coverage: Coverage = field(default_factory=Coverage)
    decoding_mode: str | list[str] | None = None
    """The decoding mode the replies record (`generation.decoding_mode.recorded_mode`); None before it was."""


def judged_response_sha(benchmark: Benchmark, response: ResponseRecord) -> str | None:
    """The hash that ties a judgment to the exact text the judge saw (None: nothing to judge)."""
    if response.response is None:
        return None
    return sha256_text(benchmark.judged_text(response.response))


def current_judgments(
    judgments: Iterable[Judgment], judge_model: str
) -> dict[tuple[str, int, int, str], Judgment]:
    """The latest judgment per (config, index, criterion, response hash) from this judge model."""
    latest: dict[tuple[str, int, int, str], Judgment] = {}
    for judgment in judgments:
        if judgment.judge_model == judge_model:
            latest[(judgment.config, judgment.index, judgment.criterion_index, judgment.response_sha256)] = judgment
    return latest


def judgment_is_current(judgment: Judgment, meta: ItemMeta | None) -> bool:
    """Whether a judgment was made against this revision of the item (unknown on either side: yes)."""
    if meta is None or meta.item_sha256 is None or judgment.item_sha256 is None:
        return True
    return judgment.item_sha256 == meta.item_sha256


def subdomain_key(domain: str, subdomain: str) -> str:
    """The name of a subdomain in a summary: subdomains of different domains may share a name."""
    return f"{domain}{SUBDOMAIN_SEPARATOR}{subdomain}"


def item_results(
    benchmark: Benchmark,
    items: Sequence[ItemMeta],
    responses: Mapping[ItemKey, ResponseRecord],
    judgments: Iterable[Judgment],
    judge_model: str,
) -> list[ItemResult]:
    """Each item's result, judging only the judgments of its current response by `judge_model`.

    A response to an older query and a judgment of an older item are not current: the item
    is pending until it is generated or judged again.
    """
    by_key = {meta.key: meta for meta in items}
    current = (j for j in judgments if judgment_is_current(j, by_key.get((j.config, j.index))))
    latest = current_judgments(current, judge_model)
    results = []
    for meta in items:
        response = responses.get(meta.key)
        if awaits_response(response, meta.query_sha256):
            results.append(ItemResult(meta, PENDING, None, response, ()))
        elif not answered(benchmark, response):
            results.append(_no_response(benchmark, meta, response))
        else:
            sha = judged_response_sha(benchmark, response)
            found = tuple(
                latest.get((meta.config, meta.index, criterion, sha))  # type: ignore[arg-type]
                for criterion in range(benchmark.criteria_per_item)
            )
            results.append(_result_from_judgments(meta, response, found))
    return results


def summarize(
    benchmark: Benchmark,
    results: Sequence[ItemResult],
    usage: Usage,
    provenance: Mapping[str, Any],
    expected: Mapping[str, int] | None = None,
    dataset_configs: Sequence[str] | None = None,
) -> Summary:
    """The summary of a run from its item results: means, breakdowns, intervals, counts, coverage.

    `usage` is the run's real token total: every judge call made, superseded ones included.
    `expected` is the dataset's item count per config of the run and `dataset_configs` every
    config of the dataset; without them (folders from before they were recorded) the run's
    own items and configs stand in.
    """
    scored = [r for r in results if r.score is not None]
    by_config = _group_scores(scored, lambda r: r.meta.config)
    config_means = {config: _mean(scores) for config, scores in by_config.items()}
    overall = _mean(list(config_means.values())) if config_means else None
    pooled = _headline_pool(benchmark, scored)
    interval = _interval_of(benchmark, scored)
    coverage = coverage_of(((r.meta.config, r.status) for r in results), expected, dataset_configs)
    return Summary(
        benchmark=benchmark.name,
        overall=overall,
        overall_ci=interval(by_config.keys()),
        configs=config_means,
        config_ci={config: interval([config]) for config in by_config},
        config_groups=_config_group_means(benchmark, config_means),
        variants=_group_means(pooled, lambda r: r.meta.variant),
        domains=_group_means(pooled, lambda r: r.meta.domain),
        subdomains=_group_means(pooled, lambda r: subdomain_key(r.meta.domain, r.meta.subdomain)),
        config_variants={
            config: _group_means([r for r in scored if r.meta.config == config], lambda r: r.meta.variant)
            for config in config_means
        },
        counts=_counts(results),
        config_counts={
            config: _counts([r for r in results if r.meta.config == config])
            for config in sorted({r.meta.config for r in results})
        },
        usage=usage,
        provenance=dict(provenance),
        config_group_ci=_config_group_cis(benchmark, by_config, interval),
        headline_group=HEADLINE_GROUP if HEADLINE_GROUP in benchmark.config_groups else None,
        complete=coverage.complete,
        coverage=coverage,
        decoding_mode=recorded_mode(r.response for r in results),
    )


def _headline_pool(benchmark: Benchmark, scored: Sequence[ItemResult]) -> list[ItemResult]:
    """The scored items the breakdowns pool: the headline group's, or all when there is none."""
    members = benchmark.config_groups.get(HEADLINE_GROUP)
    return [r for r in scored if r.meta.config in members] if members else list(scored)


def _config_group_cis(
    benchmark: Benchmark, by_config: Mapping[str, list[float]], interval: Callable[[Iterable[str]], Bounds | None]
) -> dict[str, Bounds]:
    """For each config group, the interval of the mean of its config means the run has."""
    intervals = {}
    for name, members in benchmark.config_groups.items():
        present = [config for config in members if config in by_config]
        if present:
            intervals[name] = interval(present)
    return intervals


def _interval_of(benchmark: Benchmark, scored: Sequence[ItemResult]) -> Callable[[Iterable[str]], Bounds | None]:
    """The interval of the mean of config means over the given configs' scored items, clustered by the
    benchmark's rule (the item scores are its `ItemStatistics` values: details.parquet's `item_score`)."""
    if benchmark.item_statistics is None:
        raise ValueError(f"benchmark {benchmark.name!r} declares no item statistics, so no cluster rule")
    configs = [r.meta.config for r in scored]
    clusters = item_clusters(benchmark.item_statistics(), [r.meta for r in scored])
    scores = [r.score for r in scored]

    def interval(chosen: Iterable[str]) -> Bounds | None:
        members = set(chosen)
        values = [score if config in members else None for score, config in zip(scores, configs)]
        return figure_interval(values, configs, clusters, Weighting.EQUAL_STRATA)
    return interval


def _config_group_means(benchmark: Benchmark, config_means: Mapping[str, float]) -> dict[str, float]:
    """For each of the benchmark's config groups, the mean of the config means the run has."""
    groups = {}
    for name, members in benchmark.config_groups.items():
        present = [config_means[config] for config in members if config in config_means]
        if present:
            groups[name] = _mean(present)
    return groups


def _no_response(benchmark: Benchmark, meta: ItemMeta, response: ResponseRecord) -> ItemResult:
    """The benchmark's no-answer score on every criterion, marked as such in place of a judgment."""
    why = response.error or "the model's answer is empty"
    floor = benchmark.no_answer.judges(meta)[RUBRIC_SCORER]["score"]
    floors = tuple(
        Judgment(
            config=meta.config, index=meta.index, id=meta.id, variant=meta.variant, domain=meta.domain,
            subdomain=meta.subdomain, criterion_index=position,
            criterion=str(meta.checklist[position].get("name", "")) if position < len(meta.checklist) else "",
            score=floor, reason=f"{NO_RESPONSE}: {why}", judge_model="", attempts=0, usage=Usage(),
            response_sha256="", prompt_sha256="", error_kind=NO_RESPONSE,
        )
        for position in range(benchmark.criteria_per_item)
    )
    return ItemResult(meta, NO_RESPONSE, float(floor), response, floors)


def _result_from_judgments(
    meta: ItemMeta, response: ResponseRecord, found: tuple[Judgment | None, ...]
) -> ItemResult:
    if any(j is not None and j.failed and j.final for j in found):
        return ItemResult(meta, FAILED, None, response, found)
    if any(j is None or j.failed for j in found):
        return ItemResult(meta, PENDING, None, response, found)
    score = sum(j.score for j in found) / len(found)  # type: ignore[misc]
    return ItemResult(meta, SCORED, score, response, found)


def _group_scores(results: Iterable[ItemResult], key: Any) -> dict[str, list[float]]:
    groups: dict[str, list[float]] = defaultdict(list)
    for result in results:
        groups[key(result)].append(result.score)
    return dict(sorted(groups.items()))


def _group_means(results: Iterable[ItemResult], key: Any) -> dict[str, float]:
    return {name: _mean(scores) for name, scores in _group_scores(results, key).items()}


def _mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values))


def _counts(results: Sequence[ItemResult]) -> Counts:
    judgments = [j for r in results if r.status != NO_RESPONSE for j in r.judgments if j is not None]
    by_status = defaultdict(int)
    for result in results:
        by_status[result.status] += 1
    return Counts(
        items=len(results),
        responses=len(results) - by_status[NO_RESPONSE],
        missing_responses=by_status[NO_RESPONSE],
        scored_items=by_status[SCORED],
        failed_items=by_status[FAILED],
        pending_items=by_status[PENDING],
        judgments=len(judgments),
        failed_judgments=sum(1 for j in judgments if j.failed),
        extra_attempts=sum(j.attempts - 1 for j in judgments),
        unclosed_thinking=sum(1 for r in results if r.response is not None and r.response.unclosed_thinking),
    )


def total_usage(judgments: Iterable[Judgment]) -> Usage:
    """The token usage of every judge call behind these judgments."""
    total = Usage()
    for judgment in judgments:
        total = total + judgment.usage
    return total
