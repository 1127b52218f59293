"""Scoring a run of a scorer-kind benchmark (QA, Saraiki, …): judge calls owed, then the summary.

The same trust rules as WritingBench's judging: each judge verdict is appended to
scores.jsonl as soon as it is known, a re-run sends only what is owed (a response whose
judged text changed, or an item whose scored fields changed in the dataset, is judged
again), a failed judgment is recorded, counted and shown, and an item the model did not
answer is scored by the benchmark's no-answer policy, never left out. Rule scorers are pure
and recomputed at every scoring; the benchmark's `aggregate` turns the per-item results into
the summary body, and the engine adds coverage, `complete`, the intervals of the figures its
`ItemStatistics` declares (`eval_backend.figure_intervals`), the decoding mode the replies record and
the answers cut off in thinking, as the rubric path does.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Mapping, Sequence

from eval_backend.benchmarks.plugin import ScoredBenchmark, ScoredItem
from eval_backend.coverage import coverage_of
from eval_backend.details import write_details
from eval_backend.figure_intervals import item_clusters, summary_intervals
from eval_backend.generation.decoding_mode import recorded_mode
from eval_backend.item_status import FAILED, NO_RESPONSE, PENDING, SCORED, answered, awaits_response
from eval_backend.records import ItemKey, ResponseRecord, Usage, sha256_text, to_json_dict
from eval_backend.run_folder import RunFolder, RunFolderError, read_records, recorded_items
from eval_backend.scores import SCORE_LINES, ScoreRecord, score_from_dict
from eval_backend.summary_provenance import run_provenance, scoring_judge
from eval_backend.verdict_lines import current_verdicts

SCORES_FILE = SCORE_LINES.file


def scores_path(folder: RunFolder) -> Path:
    return folder.path / SCORES_FILE


def read_scores(folder: RunFolder) -> list[ScoreRecord]:
    """Every scores.jsonl line, in the order written."""
    return list(read_records(scores_path(folder), score_from_dict, "score record"))


def scored_items(
    benchmark: ScoredBenchmark,
    items: Sequence[Any],
    responses: Mapping[ItemKey, ResponseRecord],
    records: Sequence[ScoreRecord],
    judge_model: str,
) -> list[ScoredItem]:
    """Each item with its response, its rule scores, its judges' current records and its status (pure)."""
    current = current_verdicts(SCORE_LINES, records, judge_model, {item.key: item.item_sha256 for item in items})
    return [_scored_item(benchmark, item, responses.get(item.key), current) for item in items]


RULE_JUDGE = "rule"
"""`judge_model` of a verdict a scorer's rule decided without a call."""
NO_ANSWER_JUDGE = NO_RESPONSE
"""`judge_model` of a verdict the benchmark's no-answer policy decided, without a call."""


def _scored_item(
    benchmark: ScoredBenchmark, item: Any, response: ResponseRecord | None, current: Mapping[Any, ScoreRecord]
) -> ScoredItem:
    if awaits_response(response, item.query_sha256):
        return ScoredItem(item, response, None, {}, {}, PENDING)
    if not answered(benchmark, response):  # type: ignore[arg-type]
        return no_answer_item(benchmark, item, response)  # type: ignore[arg-type]
    text = benchmark.judged_text(str(response.response))  # type: ignore[union-attr]
    rules = {rule.name: dict(rule.score(item, text)) for rule in benchmark.rules}
    judges = _judge_records(benchmark, item, text, current)
    return ScoredItem(item, response, text, rules, judges, _status(benchmark, judges))


def no_answer_item(benchmark: ScoredBenchmark, item: Any, response: ResponseRecord) -> ScoredItem:
    """An item the model did not answer, scored by its benchmark's no-answer policy, with no judge call."""
    policy = benchmark.no_answer
    judges = {
        name: ScoreRecord(item.config, item.index, item.id, name, dict(values), "", NO_ANSWER_JUDGE,
                          item_sha256=item.item_sha256)
        for name, values in policy.judges(item).items()
    }
    rules = {name: dict(values) for name, values in policy.rules(item).items()}
    return ScoredItem(item, response, None, rules, judges, NO_RESPONSE)


def _status(benchmark: ScoredBenchmark, judges: Mapping[str, ScoreRecord]) -> str:
    """FAILED when a judgment failed for good, PENDING while one is owed, else SCORED."""
    if any(record.failed and record.final for record in judges.values()):
        return FAILED
    if len(judges) < len(benchmark.judges) or any(record.failed for record in judges.values()):
        return PENDING
    return SCORED


def _judge_records(
    benchmark: ScoredBenchmark, item: Any, text: str, current: Mapping[Any, ScoreRecord]
) -> dict[str, ScoreRecord]:
    sha = sha256_text(text)
    records = {}
    for scorer in benchmark.judges:
        ruled = scorer.ruled(item, text)
        if ruled is not None:
            records[scorer.name] = ScoreRecord(
                item.config, item.index, item.id, scorer.name, dict(ruled), sha, RULE_JUDGE,
                item_sha256=item.item_sha256,
            )
        elif (item.config, item.index, scorer.name, sha) in current:
            records[scorer.name] = current[(item.config, item.index, scorer.name, sha)]
    return records


def score_scored_run(benchmark: ScoredBenchmark, folder: RunFolder, judge_model: str | None = None) -> dict[str, Any]:
    """Recompute summary.json and details.parquet from the folder's files alone; returns the summary.

    `judge_model` defaults to the judge of the latest scores.jsonl line.
    """
    items = recorded_items(benchmark, folder)
    if not items:
        raise RunFolderError(f"{folder.items_path}: no items; generate or run the model first")
    records = read_scores(folder)
    judge_model = scoring_judge(judge_model, [r.judge_model for r in records], scores_path(folder))
    request = folder.read_request() if folder.request_path.exists() else {}
    scored = scored_items(benchmark, items, folder.read_responses(), records, judge_model)
    provenance = run_provenance(request, judge_model)
    coverage = coverage_of(
        ((entry.item.config, entry.status) for entry in scored),
        request.get("expected_items"),
        request.get("dataset_configs") or benchmark.known_configs,
    )
    details = details_frame(scored, provenance)
    summary = {
        "benchmark": benchmark.name,
        "kind": benchmark.kind,
        **benchmark.aggregate(scored),
        **_intervals(benchmark, details, [entry.item for entry in scored]),
        "complete": coverage.complete,
        "coverage": to_json_dict(coverage),
        "decoding_mode": recorded_mode(entry.response for entry in scored),
        "counts": _counts(benchmark, scored),
        "usage": to_json_dict(sum((r.usage for r in records if r.judge_model == judge_model), Usage())),
        "provenance": provenance,
    }
    folder.write_summary(summary)
    write_details(details, folder.details_path)
    return summary


def _intervals(benchmark: ScoredBenchmark, details: Any, items: Sequence[Any]) -> dict[str, Any]:
    """Each declared figure's cluster bootstrap interval, over every config and per config."""
    if benchmark.item_statistics is None:
        raise RunFolderError(f"benchmark {benchmark.name!r} declares no item statistics, so no intervals")
    statistics = benchmark.item_statistics()
    return summary_intervals(statistics, details, item_clusters(statistics, items))


def _counts(benchmark: ScoredBenchmark, scored: Sequence[ScoredItem]) -> dict[str, int]:
    answered = [entry for entry in scored if entry.judged_text is not None]
    records = [record for entry in answered for record in entry.judges.values()]
    statuses = Counter(entry.status for entry in scored)
    return {
        "items": len(scored),
        "responses": len(answered),
        "missing_responses": len(scored) - len(answered),
        "scored_items": statuses[SCORED],
        "no_response_items": statuses[NO_RESPONSE],
        "failed_items": statuses[FAILED],
        "pending_items": statuses[PENDING],
        "judgments": sum(record.judge_model != RULE_JUDGE for record in records),
        "ruled_judgments": sum(record.judge_model == RULE_JUDGE for record in records),
        "failed_judgments": sum(record.failed for record in records),
        "pending_judgments": len(answered) * len(benchmark.judges) - len(records),
        "unclosed_thinking": sum(bool(entry.response and entry.response.unclosed_thinking) for entry in scored),
    }


def details_frame(scored: Sequence[ScoredItem], run_meta: Mapping[str, Any]) -> Any:
    """One row per item: run metadata, the item's own fields, the response, each scorer's values."""
    import pandas as pd

    return pd.DataFrame([_details_row(entry, run_meta) for entry in scored])


def _details_row(entry: ScoredItem, run_meta: Mapping[str, Any]) -> dict[str, Any]:
    response, judged = entry.response, entry.judged_text
    raw = response.response if response else None
    row: dict[str, Any] = {
        "model": run_meta.get("model"),
        "revision": run_meta.get("revision"),
        "judge_model": run_meta.get("judge_model"),
        **to_json_dict(entry.item.meta()),
        "response": judged,
        "reasoning": raw[: len(raw) - len(judged)] if raw is not None and judged is not None else None,
        "finish_reason": response.finish_reason if response else None,
        "response_error": response.error if response else None,
    }
    for values in entry.rules.values():
        row.update(values)
    for name, record in entry.judges.items():
        for key, value in (record.values or {}).items():
            row[f"{name}_{key}"] = value
        row[f"{name}_error"] = record.error
    return row


def describe_summary(benchmark: ScoredBenchmark, summary: Mapping[str, Any]) -> str:
    """One line for the CLI: each metric of the summary, and what is missing or failed."""
    metrics = summary.get("metrics") or {}
    shown = []
    for metric in benchmark.metrics:
        value = metrics.get(metric.name)
        text = "n/a" if value is None else (f"{value:.1f} %" if metric.unit == "%" else f"{value:g}")
        shown.append(f"{metric.label.lower()} {text}")
    counts = summary.get("counts") or {}
    coverage = summary.get("coverage") or {}
    state = "complete" if summary.get("complete") else "incomplete"
    return (
        f"{'; '.join(shown)} over {counts.get('responses', 0)}/{counts.get('items', 0)} answered items "
        f"({counts.get('failed_judgments', 0)} failed, {counts.get('pending_judgments', 0)} pending judgments); "
        f"{state}: {coverage.get('scored', 0) + coverage.get('no_response', 0)} of {coverage.get('expected', 0)} "
        f"items scored, {coverage.get('no_response', 0)} without an answer"
    )
