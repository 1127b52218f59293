"""Scoring a run of any benchmark: each item's status and verdicts, then summary.json and details.parquet.

The trust rules, once for every benchmark: each judge verdict is appended to its verdict file
(the benchmark's `verdict_lines`) as soon as it is known, a re-run sends only what is owed (a
response whose judged text changed, or an item whose scored fields changed in the dataset, is
judged again), a failed judgment is recorded, counted and shown, and an item the model did not
answer is scored by the benchmark's no-answer policy, never left out. Rule scorers are pure and
recomputed at every scoring; the benchmark's `aggregate` turns the per-item results into the
summary's breakdowns (the seed's own figures) and counts, and the engine adds each per-item
metric's figure and its intervals, from the values its `ItemStatistics` gives per item
(`eval_backend.figure_intervals`), coverage, `complete`, the counts over the run and per
config, the decoding mode the replies record and the answers cut off in thinking.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Mapping, Sequence

from eval_backend.benchmarks.plugin import Benchmark, ScoredItem
from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.coverage import coverage_of
from eval_backend.details import write_details
from eval_backend.figure_intervals import item_clusters, item_figures, summary_intervals
from eval_backend.generation.decoding_mode import recorded_mode
from eval_backend.answer_style import answer_measures
from eval_backend.item_values import write_item_values
from eval_backend.item_status import FAILED, NO_RESPONSE, PENDING, SCORED, answered, awaits_response
from eval_backend.jsonl import without_surrogates
from eval_backend.records import ItemKey, ResponseRecord, Usage, sha256_text, to_json_dict
from eval_backend.run_folder import RunFolder, RunFolderError, read_records, recorded_items
from eval_backend.scores import ScoreRecord
from eval_backend.summary_provenance import run_provenance, scoring_judge
from eval_backend.verdict_lines import VerdictLine, current_verdicts


def verdicts_path(benchmark: Benchmark, folder: RunFolder) -> Path:
    """The run's verdict file, as its benchmark's `verdict_lines` name it."""
    return folder.path / benchmark.verdict_lines.file


def read_verdicts(benchmark: Benchmark, folder: RunFolder) -> list[Any]:
    """Every line of the run's verdict file, in the order written."""
    return list(read_records(verdicts_path(benchmark, folder), benchmark.verdict_lines.read, "verdict"))


def scored_items(
    benchmark: Benchmark,
    items: Sequence[Any],
    responses: Mapping[ItemKey, ResponseRecord],
    records: Sequence[VerdictLine],
    judge_model: str,
) -> list[ScoredItem]:
    """Each item with its response, its rule scores, its judges' current records and its status (pure)."""
    hashes = {item.key: item.item_sha256 for item in items}
    current = current_verdicts(benchmark.verdict_lines, records, judge_model, hashes)
    return [_scored_item(benchmark, item, responses.get(item.key), current) for item in items]


RULE_JUDGE = "rule"
"""`judge_model` of a verdict a scorer's rule decided without a call."""
NO_ANSWER_JUDGE = NO_RESPONSE
"""`judge_model` of a verdict the benchmark's no-answer policy decided, without a call."""


def _scored_item(
    benchmark: Benchmark, item: Any, response: ResponseRecord | None, current: Mapping[Any, VerdictLine]
) -> ScoredItem:
    if awaits_response(response, item.query_sha256):
        return ScoredItem(item, response, None, {}, {}, PENDING)
    if not answered(benchmark, response):  # type: ignore[arg-type]
        return no_answer_item(benchmark, item, response)  # type: ignore[arg-type]
    text = benchmark.judged_text(str(response.response))  # type: ignore[union-attr]
    rules = {rule.name: dict(rule.score(item, text)) for rule in benchmark.rules}
    judges = _judge_records(benchmark, item, text, current)
    return ScoredItem(item, response, text, rules, judges, _status(benchmark, item, judges))


def no_answer_item(benchmark: Benchmark, item: Any, response: ResponseRecord) -> ScoredItem:
    """An item the model did not answer, scored by its benchmark's no-answer policy, with no judge call:
    each part its judges ask gets the policy's verdict of that judge."""
    policy = benchmark.no_answer
    judges = {
        part: _decided(item, name, part, values, "", NO_ANSWER_JUDGE)
        for name, values in policy.judges(item).items()
        for part in benchmark.judge(name).part_names(item)
    }
    rules = {name: dict(values) for name, values in policy.rules(item).items()}
    return ScoredItem(item, response, None, rules, judges, NO_RESPONSE)


def _decided(item: Any, scorer: str, part: str, values: Mapping[str, Any], sha: str, decider: str) -> ScoreRecord:
    """A verdict decided without a judge call, by a rule (`RULE_JUDGE`) or the no-answer policy."""
    return ScoreRecord(item.config, item.index, item.id, scorer, dict(values), sha, decider,
                       item_sha256=item.item_sha256, part=None if part == scorer else part)


def _status(benchmark: Benchmark, item: Any, judges: Mapping[str, VerdictLine]) -> str:
    """FAILED when a judgment failed for good, PENDING while one is owed, else SCORED."""
    if any(record.failed and record.final for record in judges.values()):
        return FAILED
    if len(judges) < _calls_per_answer(benchmark, item) or any(record.failed for record in judges.values()):
        return PENDING
    return SCORED


def _calls_per_answer(benchmark: Benchmark, item: Any) -> int:
    """How many verdicts an answer to `item` gets: one per part each judge asks."""
    return sum(len(scorer.part_names(item)) for scorer in benchmark.judges)


def _judge_records(
    benchmark: Benchmark, item: Any, text: str, current: Mapping[Any, VerdictLine]
) -> dict[str, VerdictLine]:
    """Each part's verdict on `text`, in the order the judges ask them: the one a rule decides, else the current one."""
    sha = sha256_text(text)
    records: dict[str, VerdictLine] = {}
    for scorer in benchmark.judges:
        ruled = scorer.ruled(item, text)
        for part in scorer.part_names(item):
            if ruled is not None:
                records[part] = _decided(item, scorer.name, part, ruled, sha, RULE_JUDGE)
            elif (item.config, item.index, part, sha) in current:
                records[part] = current[(item.config, item.index, part, sha)]
    return records


def score_folder(benchmark: Benchmark, folder: RunFolder, judge_model: str | None = None) -> dict[str, Any]:
    """Recompute summary.json and details.parquet from the folder's files alone; returns the summary.

    `judge_model` defaults to the judge of the verdict file's latest line.
    """
    items = recorded_items(benchmark, folder)
    if not items:
        raise RunFolderError(f"{folder.items_path}: no items; generate or run the model first")
    records = read_verdicts(benchmark, folder)
    judge_model = scoring_judge(judge_model, [r.judge_model for r in records], verdicts_path(benchmark, folder))
    request = folder.read_request() if folder.request_path.exists() else {}
    scored = scored_items(benchmark, items, folder.read_responses(), records, judge_model)
    usage = sum((r.usage for r in records if r.judge_model == judge_model), Usage())
    summary, details = summarize(benchmark, scored, usage, run_provenance(request, judge_model),
                                 request.get("expected_items"), request.get("dataset_configs"))
    folder.write_summary(summary)
    write_details(details, folder.details_path)
    if benchmark.item_statistics is not None:  # what the board reads of the run at start, beside the summary
        write_item_values(folder, benchmark.item_statistics(), details)
        answer_measures(folder, benchmark)  # kept beside them: the board's answer lengths and style fit
    return summary


def summarize(
    benchmark: Benchmark,
    scored: Sequence[ScoredItem],
    usage: Usage,
    provenance: Mapping[str, Any],
    expected: Mapping[str, int] | None = None,
    dataset_configs: Sequence[str] | None = None,
) -> tuple[dict[str, Any], Any]:
    """A run's summary.json and its details table, from its scored items (pure).

    `usage` is every judge call the run's judge made, superseded ones included. Coverage is measured
    against `expected`, the dataset's item count per config recorded at prepare time, and
    `dataset_configs`, every config of the dataset; without them (a folder from before they were
    recorded) the run's own items and the benchmark's known configs stand in.
    """
    coverage = coverage_of(((entry.item.config, entry.status) for entry in scored), expected,
                           dataset_configs or benchmark.known_configs)
    details = details_frame(benchmark, scored, provenance)
    body = benchmark.aggregate(scored)
    summary = {
        "benchmark": benchmark.name,
        **body,
        "metrics": _metrics(benchmark, body.get("metrics") or {}, details),
        **_intervals(benchmark, details, [entry.item for entry in scored]),
        "complete": coverage.complete,
        "coverage": to_json_dict(coverage),
        "decoding_mode": recorded_mode(entry.response for entry in scored),
        "counts": _counts(benchmark, scored),
        "config_counts": {config: _counts(benchmark, group) for config, group in _by_config(scored).items()},
        "usage": to_json_dict(usage),
        "provenance": dict(provenance),
    }
    summary.update(benchmark.older_keys(summary))
    return summary, details


def _by_config(scored: Sequence[ScoredItem]) -> dict[str, list[ScoredItem]]:
    groups: dict[str, list[ScoredItem]] = {}
    for entry in sorted(scored, key=lambda entry: entry.item.config):
        groups.setdefault(entry.item.config, []).append(entry)
    return groups


def _metrics(benchmark: Benchmark, counts: Mapping[str, Any], details: Any) -> dict[str, Any]:
    """`summary["metrics"]` in declared order: each per-item metric from its item values (the one computation of
    it), each count as the benchmark's aggregate wrote it, then whatever else the aggregate put there (QA's `n`)."""
    figures = item_figures(_statistics(benchmark), details)
    declared = {metric.name: figures.get(metric.name) if metric.per_item else counts.get(metric.name)
                for metric in benchmark.metrics}
    return {**declared, **{name: value for name, value in counts.items() if name not in declared}}


def _statistics(benchmark: Benchmark) -> ItemStatistics:
    if benchmark.item_statistics is None:
        raise RunFolderError(f"benchmark {benchmark.name!r} declares no item statistics, so no figures")
    return benchmark.item_statistics()


def _intervals(benchmark: Benchmark, details: Any, items: Sequence[Any]) -> dict[str, Any]:
    """Each declared figure's cluster bootstrap interval, over every config and per config."""
    statistics = _statistics(benchmark)
    return summary_intervals(statistics, details, item_clusters(statistics, items))


def _counts(benchmark: Benchmark, scored: Sequence[ScoredItem]) -> dict[str, int]:
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
        "pending_judgments": sum(_calls_per_answer(benchmark, entry.item) for entry in answered) - len(records),
        "extra_attempts": sum(record.attempts - 1 for record in records if record.judge_model != RULE_JUDGE),
        "unclosed_thinking": sum(bool(entry.response and entry.response.unclosed_thinking) for entry in scored),
    }


def details_frame(benchmark: Benchmark, scored: Sequence[ScoredItem], run_meta: Mapping[str, Any]) -> Any:
    """One row per item, as the benchmark's `details_row` writes it (by default `details_row` here)."""
    import pandas as pd

    row_of = benchmark.details_row or details_row
    rows = [row_of(entry, run_meta) for entry in scored]
    try:
        return pd.DataFrame(rows)
    except UnicodeEncodeError:
        # A lone surrogate from the judge or the model: Arrow strings hold only valid UTF-8, so the
        # table shows U+FFFD there (the verdict file and responses.jsonl keep the exact text).
        return pd.DataFrame([{key: _valid_text(value) for key, value in row.items()} for row in rows])


def _valid_text(value: Any) -> Any:
    return without_surrogates(value) if isinstance(value, str) else value


def details_row(entry: ScoredItem, run_meta: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's row: run metadata, the item's own fields, the response, each scorer's values."""
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
    for part, record in entry.judges.items():
        for key, value in (record.values or {}).items():
            row[f"{part}_{key}"] = value
        row[f"{part}_error"] = record.error
    return row


def describe_summary(benchmark: Benchmark, summary: Mapping[str, Any]) -> str:
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
