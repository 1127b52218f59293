"""Indic WritingBench's details.parquet rows: each item with its response, the criterion scores and reasons.

An item the model did not answer has status `no_response` and the rubric's floor on each
criterion, its reason saying so; no judge was asked. The columns are the ones Hub users load.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

import pandas as pd

from eval_backend.benchmarks import Benchmark
from eval_backend.jsonl import without_surrogates
from eval_backend.records import MODEL_ERROR, ResponseRecord
from eval_backend.writing_bench_scoring import ItemResult


def details_frame(
    benchmark: Benchmark, results: Sequence[ItemResult], run_meta: Mapping[str, Any]
) -> pd.DataFrame:
    """The per-item table: item fields, response, status, item score and each criterion."""
    rows = [_row(benchmark, result, run_meta) for result in results]
    try:
        return pd.DataFrame(rows, columns=details_columns(benchmark))
    except UnicodeEncodeError:
        # A lone surrogate from the judge or the model: Arrow strings hold only valid UTF-8, so
        # the table shows U+FFFD there (judgments.jsonl and responses.jsonl keep the exact text).
        rows = [{key: _valid_text(value) for key, value in row.items()} for row in rows]
        return pd.DataFrame(rows, columns=details_columns(benchmark))


def _valid_text(value: Any) -> Any:
    return without_surrogates(value) if isinstance(value, str) else value


def details_columns(benchmark: Benchmark) -> list[str]:
    """Column order of details.parquet."""
    base = [
        "model", "revision", "judge_model", "config", "index", "id", "language", "variant",
        "domain", "subdomain", "prompt", "status", "item_score", "response", "reasoning",
        "finish_reason", "unclosed_thinking", "response_error", "response_error_kind", "checklist",
    ]
    per_criterion = []
    for number in range(1, benchmark.criteria_per_item + 1):
        per_criterion += [f"criterion_{number}", f"score_{number}", f"reason_{number}", f"error_{number}"]
    return base + per_criterion


def _error_kind(response: ResponseRecord | None) -> str | None:
    """Whose fault an answer's error was; a line written before the kind existed was the model's."""
    if response is None or response.error is None:
        return None
    return response.error_kind or MODEL_ERROR


def _row(benchmark: Benchmark, result: ItemResult, run_meta: Mapping[str, Any]) -> dict[str, Any]:
    meta, response = result.meta, result.response
    raw = response.response if response else None
    judged = benchmark.judged_text(raw) if raw is not None else None
    row: dict[str, Any] = {
        "model": run_meta.get("model"),
        "revision": run_meta.get("revision"),
        "judge_model": run_meta.get("judge_model"),
        "config": meta.config,
        "index": meta.index,
        "id": meta.id,
        "language": meta.language,
        "variant": meta.variant,
        "domain": meta.domain,
        "subdomain": meta.subdomain,
        "prompt": meta.prompt,
        "status": result.status,
        "item_score": result.score,
        "response": judged,
        "reasoning": raw[: len(raw) - len(judged)] if raw is not None and judged is not None else None,
        "finish_reason": response.finish_reason if response else None,
        "unclosed_thinking": bool(response and response.unclosed_thinking),
        "response_error": response.error if response else None,
        "response_error_kind": _error_kind(response),
        "checklist": json.dumps([dict(entry) for entry in meta.checklist], ensure_ascii=False),
    }
    for position in range(benchmark.criteria_per_item):
        judgment = result.judgments[position] if position < len(result.judgments) else None
        entry = meta.checklist[position] if position < len(meta.checklist) else {}
        number = position + 1
        row[f"criterion_{number}"] = str(entry.get("name", ""))
        row[f"score_{number}"] = judgment.score if judgment else None
        row[f"reason_{number}"] = judgment.reason if judgment else None
        row[f"error_{number}"] = judgment.error if judgment else None
    return row
