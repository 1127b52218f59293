"""The shape the board needs of a run folder's request.json and summary.json, checked before use.

Valid JSON is not enough: one folder with `"overall": "high"` or `"counts": [1, 2]` would otherwise break the
table, the sorting or the figures for every viewer; such a folder is listed as a problem and skipped. A summary
names its benchmark (`{}` is not a run); a request's text fields may be absent (`dataset_resolved_at` is, in
every folder written before 2026-11-30) or null. details.parquet's values are checked by `eval_backend.item_values`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable, Mapping

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.run_folder import RunFolder, RunFolderError

_TEXT_FIELDS = ("model", "revision", "dataset", "dataset_revision", "dataset_resolved_at", "precision", "benchmark",
                "judge_model", "created_at")
_SCORE_MAPS = ("configs", "variants", "domains", "subdomains", "config_groups", "metrics")
_GROUP_MAPS = ("by_language", "by_domain", "tasks")
"""A scored benchmark's breakdowns (QA's languages and domains, Saraiki's tasks): objects of objects."""


def check_run_files(folder: RunFolder, request: Any, summary: Any) -> None:
    """Refuse a request.json or summary.json whose shape the board cannot show (RunFolderError naming the field)."""
    for file, record in ((folder.request_path, request), (folder.summary_path, summary)):
        if not isinstance(record, dict):
            raise RunFolderError(f"{file}: must hold a JSON object, not {_json_kind(record)}")
        _check_text_fields(file, record)
    path = folder.summary_path
    _check(path, "benchmark", summary.get("benchmark") in BENCHMARKS,
           f"the name of a benchmark ({', '.join(sorted(BENCHMARKS))}); the engine writes it in every summary")
    _check(path, "overall", _is_score_or_none(summary.get("overall")), "a number or null")
    _check(path, "overall_ci", _is_interval_or_none(summary.get("overall_ci")), "a [low, high] pair or null")
    for name in _SCORE_MAPS:
        _check(path, name, _is_map_of(summary.get(name), _is_score_or_none), "an object of numbers")
    for name in ("config_ci", "intervals"):
        _check(path, name, _is_map_of(summary.get(name), _is_interval_or_none), "an object of [low, high] pairs")
    for name in ("counts", "coverage"):
        _check(path, name, _is_map_of(summary.get(name), _is_count), "an object of whole numbers")
    _check(path, "complete", summary.get("complete") in (None, True, False), "true, false or null")
    _check(path, "config_intervals", _is_map_of(summary.get("config_intervals"), _is_interval_map),
           "an object of objects of [low, high] pairs")
    for name in _GROUP_MAPS:
        groups = summary.get(name)
        _check(path, name, _is_map_of(groups, lambda group: isinstance(group, dict)), "an object of objects")
        for member, group in (groups or {}).items():
            _check(path, f"{name}.{member}.metrics", _is_map_of(group.get("metrics"), _is_score_or_none),
                   "an object of numbers")
    provenance = summary.get("provenance")
    _check(path, "provenance", provenance is None or isinstance(provenance, dict), "an object or null")
    _check_text_fields(path, provenance or {}, "provenance.")


def _check_text_fields(path: Path, record: Mapping[str, Any], prefix: str = "") -> None:
    for name in _TEXT_FIELDS:
        _check(path, prefix + name, record.get(name) is None or isinstance(record.get(name), str), "text or null")


def _check(path: Path, field: str, ok: bool, expected: str) -> None:
    if not ok:
        raise RunFolderError(f"{path}: field {field!r} must be {expected}")


def _is_score_or_none(value: Any) -> bool:
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value))


def _is_interval_or_none(value: Any) -> bool:
    return value is None or (isinstance(value, list) and len(value) == 2
                             and all(_is_score_or_none(bound) and bound is not None for bound in value))


def _json_kind(value: Any) -> str:
    kinds = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def _is_count(value: Any) -> bool:
    return whole_number(value) is not None


def _is_interval_map(value: Any) -> bool:
    return isinstance(value, dict) and _is_map_of(value, _is_interval_or_none)


def whole_number(value: object) -> int | None:
    """A count from a summary field: a whole number >= 0, else None (missing or malformed)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def as_mapping(value: object) -> Mapping[str, Any]:
    """A summary field that should be an object, {} when it is not."""
    return value if isinstance(value, Mapping) else {}


def _is_map_of(value: Any, check: Callable[[Any], bool]) -> bool:
    return value is None or (isinstance(value, dict) and all(check(item) for item in value.values()))
