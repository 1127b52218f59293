"""Reading a responses file given to the judge CLI, with errors that name the line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Collection

from eval_backend.records import ItemKey, ResponseRecord


class ResponsesInputError(ValueError):
    """A responses file is unusable; the message names the file and line."""


def read_responses_file(
    path: Path, known: Collection[ItemKey], default_config: str | None = None
) -> list[ResponseRecord]:
    """Responses from JSONL lines `{"config", "index", "response"}`.

    The seed's per-config form `{"index", "response"}` is accepted when `default_config`
    (a single `--configs`) says which config it is. Unknown (config, index) pairs,
    duplicates and unreadable lines are errors naming the line.
    """
    if not path.is_file():
        raise ResponsesInputError(f"{path}: no such responses file")
    records: list[ResponseRecord] = []
    seen: dict[ItemKey, int] = {}
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            record = _parse_line(line, f"{path}:{number}", default_config)
            if record.key not in known:
                raise ResponsesInputError(
                    f"{path}:{number}: no item (config {record.config!r}, index {record.index}) in the dataset"
                )
            if record.key in seen:
                raise ResponsesInputError(
                    f"{path}:{number}: duplicate response for config {record.config!r}, index {record.index} "
                    f"(first on line {seen[record.key]})"
                )
            seen[record.key] = number
            records.append(record)
    return records


def _parse_line(line: str, where: str, default_config: str | None) -> ResponseRecord:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ResponsesInputError(f"{where}: not valid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise ResponsesInputError(f"{where}: expected a JSON object")
    config = data.get("config", default_config)
    if not isinstance(config, str):
        raise ResponsesInputError(
            f"{where}: no 'config' field (give exactly one --configs to read the seed's {{index, response}} form)"
        )
    index = data.get("index")
    if type(index) is not int:
        raise ResponsesInputError(f"{where}: 'index' must be an integer, got {index!r}")
    response = data.get("response")
    if not isinstance(response, str):
        raise ResponsesInputError(f"{where}: 'response' must be a string, got {type(response).__name__}")
    return ResponseRecord(config=config, index=index, response=response, id=str(data.get("id", "")))
