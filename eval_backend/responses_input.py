"""Reading a responses file given to the judge CLI, with errors that name the line."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Collection, Iterator

from eval_backend.jsonl import parse_json
from eval_backend.records import ItemKey, ResponseRecord, shown_value

# Byte-order marks of encodings that are not UTF-8 (UTF-32 first: its LE mark starts with UTF-16's).
_FOREIGN_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"),
)


class ResponsesInputError(ValueError):
    """A responses file is unusable; the message names the file and line."""


def read_responses_file(
    path: Path, known: Collection[ItemKey], default_config: str | None = None
) -> list[ResponseRecord]:
    """Responses from JSONL lines `{"config", "index", "response"}`.

    The seed's per-config form `{"index", "response"}` is accepted when `default_config`
    (a single `--configs`) says which config it is. The file must be UTF-8 (a leading
    byte-order mark is allowed) and hold at least one response. Unknown (config, index)
    pairs, duplicates and unreadable lines are errors naming the line.
    """
    if not path.is_file():
        raise ResponsesInputError(f"{path}: no such responses file")
    records: list[ResponseRecord] = []
    seen: dict[ItemKey, int] = {}
    for number, line in _lines(path):
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
    if not records:
        raise ResponsesInputError(f"{path}: no responses in the file (it is empty or has only blank lines)")
    return records


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of each non-blank line, decoded as UTF-8; an error names the line."""
    data = path.read_bytes()
    for bom, encoding in _FOREIGN_BOMS:
        if data.startswith(bom):
            raise ResponsesInputError(f"{path}: the file is {encoding}; save it as UTF-8")
    data = data.removeprefix(codecs.BOM_UTF8)
    for number, raw in enumerate(data.splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ResponsesInputError(
                f"{path}:{number}: not valid UTF-8 (byte {exc.start} of the line); save the file as UTF-8"
            ) from exc
        if line.strip():
            yield number, line


def _parse_line(line: str, where: str, default_config: str | None) -> ResponseRecord:
    try:
        data = parse_json(line, where)
    except ValueError as exc:
        raise ResponsesInputError(str(exc)) from exc
    if not isinstance(data, dict):
        raise ResponsesInputError(f"{where}: expected a JSON object, got {type(data).__name__}")
    config = data.get("config", default_config)
    if config is None:
        raise ResponsesInputError(
            f"{where}: no 'config' field (give exactly one --configs to read the seed's {{index, response}} form)"
        )
    if not isinstance(config, str):
        raise ResponsesInputError(f"{where}: 'config' must be a string, got {type(config).__name__}")
    index = data.get("index")
    if type(index) is not int:
        raise ResponsesInputError(f"{where}: 'index' must be an integer, got {shown_value(index)}")
    response = data.get("response")
    if not isinstance(response, str):
        raise ResponsesInputError(f"{where}: 'response' must be a string, got {type(response).__name__}")
    item_id = data.get("id", "")
    if not isinstance(item_id, (str, int)) or isinstance(item_id, bool):
        raise ResponsesInputError(f"{where}: 'id' must be a string, got {type(item_id).__name__}")
    return ResponseRecord(config=config, index=index, response=response, id=str(item_id))
