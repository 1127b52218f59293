"""Scoring as pure functions: items, responses and judgments in, per-item results and a summary out.

The seed's Step C: item = mean of its criterion scores; config = mean of its item
scores; overall = mean of the config scores; variant, domain and subdomain = mean of
the item scores in that group across every config of the run. An item with a failed
judgment or no response is excluded from every mean and counted instead.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from eval_backend.benchmarks import Benchmark
from eval_backend.records import ItemKey, ItemMeta, Judgment, ResponseRecord, Usage, sha256_text

SCORED, FAILED, PENDING, NO_RESPONSE = "scored", "failed", "pending", "no_response"
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 0


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


@dataclass(frozen=True)
class Summary:
    """What summary.json holds: plain numbers per group, counts, intervals and provenance."""

    benchmark: str
    overall: float | None
    overall_ci: tuple[float, float] | None
    configs: dict[str, float]
    config_ci: dict[str, tuple[float, float]]
    config_groups: dict[str, float]
    variants: dict[str, float]
    domains: dict[str, float]
    subdomains: dict[str, float]
    config_variants: dict[str, dict[str, float]]
    counts: Counts
    config_counts: dict[str, Counts]
    usage: Usage
    provenance: dict[str, Any] = field(default_factory=dict)


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


def item_results(
    benchmark: Benchmark,
    items: Sequence[ItemMeta],
    responses: Mapping[ItemKey, ResponseRecord],
    judgments: Iterable[Judgment],
    judge_model: str,
) -> list[ItemResult]:
    """Each item's result, judging only the judgments of its current response by `judge_model`."""
    latest = current_judgments(judgments, judge_model)
    results = []
    for meta in items:
        response = responses.get(meta.key)
        sha = judged_response_sha(benchmark, response) if response else None
        if sha is None:
            results.append(ItemResult(meta, NO_RESPONSE, None, response, ()))
            continue
        found = tuple(
            latest.get((meta.config, meta.index, criterion, sha)) for criterion in range(benchmark.criteria_per_item)
        )
        results.append(_result_from_judgments(meta, response, found))
    return results


def summarize(
    benchmark: Benchmark, results: Sequence[ItemResult], usage: Usage, provenance: Mapping[str, Any]
) -> Summary:
    """The summary of a run from its item results: means, breakdowns, intervals and counts.

    `usage` is the run's real token total: every judge call made, superseded ones included.
    """
    scored = [r for r in results if r.status == SCORED]
    by_config = _group_scores(scored, lambda r: r.meta.config)
    config_means = {config: _mean(scores) for config, scores in by_config.items()}
    overall = _mean(list(config_means.values())) if config_means else None
    return Summary(
        benchmark=benchmark.name,
        overall=overall,
        overall_ci=_bootstrap_overall_ci(by_config),
        configs=config_means,
        config_ci={config: _bootstrap_ci({config: scores}) for config, scores in by_config.items()},
        config_groups=_config_group_means(benchmark, config_means),
        variants=_group_means(scored, lambda r: r.meta.variant),
        domains=_group_means(scored, lambda r: r.meta.domain),
        subdomains=_group_means(scored, lambda r: r.meta.subdomain),
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
    )


def _config_group_means(benchmark: Benchmark, config_means: Mapping[str, float]) -> dict[str, float]:
    """For each of the benchmark's config groups, the mean of the config means the run has."""
    groups = {}
    for name, members in benchmark.config_groups.items():
        present = [config_means[config] for config in members if config in config_means]
        if present:
            groups[name] = _mean(present)
    return groups


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


def _bootstrap_overall_ci(by_config: Mapping[str, list[float]]) -> tuple[float, float] | None:
    return _bootstrap_ci(by_config) if by_config else None


def _bootstrap_ci(by_config: Mapping[str, list[float]]) -> tuple[float, float]:
    """95 % percentile interval of the mean of config means, resampling items within each config."""
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    replicate_means = []
    for scores in by_config.values():
        values = np.asarray(scores, dtype=float)
        draws = rng.integers(0, len(values), size=(BOOTSTRAP_RESAMPLES, len(values)))
        replicate_means.append(values[draws].mean(axis=1))
    overall = np.mean(replicate_means, axis=0)
    low, high = np.percentile(overall, [2.5, 97.5])
    return (float(low), float(high))


def _counts(results: Sequence[ItemResult]) -> Counts:
    judgments = [j for r in results for j in r.judgments if j is not None]
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
    )


def total_usage(judgments: Iterable[Judgment]) -> Usage:
    """The token usage of every judge call behind these judgments."""
    total = Usage()
    for judgment in judgments:
        total = total + judgment.usage
    return total
