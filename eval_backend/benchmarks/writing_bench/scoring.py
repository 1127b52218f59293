"""Indic WritingBench's aggregate: its scored items in, the breakdowns of its summary.json out.

The seed's Step C: item = mean of its criterion scores; config = mean of its item scores;
overall = mean of the config scores. The headline is the mean over the Indic languages'
config means, and the variant, domain and (domain, subdomain) breakdowns pool the item scores
of those configs only, so a rendering or a domain is never mixed with English. The headline and
overall figures are the engine's (`metrics`: each a mean of item values with each config weighted
equally, which is the mean of config means); `older_keys` repeats them under their older names.

What counts is the engine's rule for every benchmark (`eval_backend.scorer_runs`): an item the
model did not answer has the rubric's floor on every criterion (its no-answer policy), a pending
item or one with a judgment that failed for good has no score. Its intervals are the engine's
too, of its per-item metrics (`indic`, `overall`).
"""

from __future__ import annotations

import math

from collections import defaultdict
from typing import Any, Callable, Iterable, Mapping, Sequence

from eval_backend.benchmarks.plugin import ScoredItem
from eval_backend.item_status import NO_RESPONSE, SCORED

HEADLINE_GROUP = "indic"
"""The config group the board ranks by and the breakdowns pool."""
SUBDOMAIN_SEPARATOR = " / "

Scored = tuple[Any, float]
"""An item's record (`ItemMeta`) and its score."""


def subdomain_key(domain: str, subdomain: str) -> str:
    """The name of a subdomain in a summary: subdomains of different domains may share a name."""
    return f"{domain}{SUBDOMAIN_SEPARATOR}{subdomain}"


def item_score(entry: ScoredItem) -> float | None:
    """The mean of the item's criterion scores once each is in (the floor, for no answer); else None."""
    if entry.status not in (SCORED, NO_RESPONSE):
        return None
    scores = [record.values["score"] for record in entry.judges.values()]
    return sum(scores) / len(scores)


def aggregate(indic: Sequence[str], items: Sequence[ScoredItem]) -> dict[str, Any]:
    """The summary body: config means, their overall mean, the `indic` configs' mean (the headline),
    and the breakdowns by variant, domain and subdomain of the `indic` configs' items."""
    scored = [(entry.item, score) for entry in items if (score := item_score(entry)) is not None]
    config_means = _group_means(scored, lambda meta: meta.config)
    pooled = [(meta, score) for meta, score in scored if meta.config in indic]
    return {
        "configs": config_means,
        "headline_group": HEADLINE_GROUP,
        "variants": _group_means(pooled, lambda meta: meta.variant),
        "domains": _group_means(pooled, lambda meta: meta.domain),
        "subdomains": _group_means(pooled, lambda meta: subdomain_key(meta.domain, meta.subdomain)),
        "config_variants": {
            config: _group_means([r for r in scored if r[0].config == config], lambda meta: meta.variant)
            for config in config_means
        },
    }


def older_keys(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The figures and intervals under the names WritingBench's summaries have always had (the board and Hub
    readers read them), from the engine's `metrics` and `intervals`: `overall`, `config_groups` {"indic": the
    headline}, `overall_ci`, `config_ci` {config: interval} and `config_group_ci` {"indic": interval}."""
    metrics = summary.get("metrics") or {}
    groups = {HEADLINE_GROUP: metrics[HEADLINE_GROUP]} if metrics.get(HEADLINE_GROUP) is not None else {}
    intervals, per_config = summary.get("intervals") or {}, summary.get("config_intervals") or {}
    return {
        "overall": metrics.get("overall"),
        "config_groups": groups,
        "overall_ci": intervals.get("overall"),
        "config_ci": {config: (per_config.get(config) or {}).get("overall") for config in summary.get("configs") or {}},
        "config_group_ci": {name: intervals.get(name) for name in groups},
    }


def current_keys(summary: Mapping[str, Any]) -> dict[str, Any]:
    """`metrics`, `intervals` and `config_intervals` of a summary written before the engine wrote them, from the
    names it had then (`older_keys`' inverse); {} for a summary that has them. A malformed interval is left out."""
    if "metrics" in summary:
        return {}
    groups, group_ci = _mapping(summary.get("config_groups")), _mapping(summary.get("config_group_ci"))
    per_config = {config: _pair(interval) for config, interval in _mapping(summary.get("config_ci")).items()}
    intervals = {HEADLINE_GROUP: _pair(group_ci.get(HEADLINE_GROUP)), "overall": _pair(summary.get("overall_ci"))}
    return {
        "metrics": {HEADLINE_GROUP: groups.get(HEADLINE_GROUP), "overall": summary.get("overall")},
        "intervals": {name: interval for name, interval in intervals.items() if interval},
        # A config's items are the whole of its figure: its interval is the headline's and the overall's there.
        "config_intervals": {config: {HEADLINE_GROUP: interval, "overall": interval}
                             for config, interval in per_config.items() if interval},
    }


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _pair(value: Any) -> list[float] | None:
    """An interval as [low, high] of two finite numbers, else None."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(end, (int, float)) and not isinstance(end, bool) and math.isfinite(end) for end in value):
        return [float(value[0]), float(value[1])]
    return None


def _group_means(scored: Iterable[Scored], key: Callable[[Any], str]) -> dict[str, float]:
    groups: dict[str, list[float]] = defaultdict(list)
    for meta, score in scored:
        groups[key(meta)].append(score)
    return {name: _mean(scores) for name, scores in sorted(groups.items())}


def _mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values))
