"""Indic WritingBench's details.parquet row: the item with its response, status, score and each criterion.

An item the model did not answer has status `no_response` and the rubric's floor on each
criterion, its reason saying so; no judge was asked. The columns are the ones Hub users load.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from eval_backend.benchmarks.plugin import ScoredItem
from eval_backend.benchmarks.prompting import after_thinking
from eval_backend.item_status import NO_RESPONSE
from eval_backend.benchmarks.writing_bench.items import CRITERIA_PER_ITEM
from eval_backend.benchmarks.writing_bench.scoring import item_score
from eval_backend.records import MODEL_ERROR, ResponseRecord


def details_row(entry: ScoredItem, run_meta: Mapping[str, Any]) -> dict[str, Any]:
    """One item's row, its columns in details.parquet's order."""
    meta, response = entry.item, entry.response
    raw = response.response if response else None
    judged = after_thinking(raw) if raw is not None else None
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
        "status": entry.status,
        "item_score": item_score(entry),
        "response": judged,
        "reasoning": raw[: len(raw) - len(judged)] if raw is not None and judged is not None else None,
        "finish_reason": response.finish_reason if response else None,
        "unclosed_thinking": bool(response and response.unclosed_thinking),
        "response_error": response.error if response else None,
        "response_error_kind": _error_kind(response),
        "checklist": json.dumps([dict(criterion) for criterion in meta.checklist], ensure_ascii=False),
    }
    for position in range(CRITERIA_PER_ITEM):
        record = entry.judges.get(str(position))
        criterion = meta.checklist[position] if position < len(meta.checklist) else {}
        number = position + 1
        row[f"criterion_{number}"] = str(criterion.get("name", ""))
        row[f"score_{number}"] = (record.values or {}).get("score") if record else None
        row[f"reason_{number}"] = _reason(entry, record)
        row[f"error_{number}"] = record.error if record else None
    return row


def _reason(entry: ScoredItem, record: Any) -> str | None:
    if entry.status == NO_RESPONSE:
        why = (entry.response.error if entry.response else None) or "the model's answer is empty"
        return f"{NO_RESPONSE}: {why}"
    return record.reason if record else None


def _error_kind(response: ResponseRecord | None) -> str | None:
    """Whose fault an answer's error was; a line written before the kind existed was the model's."""
    if response is None or response.error is None:
        return None
    return response.error_kind or MODEL_ERROR
