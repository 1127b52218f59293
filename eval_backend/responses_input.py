"""Reading a responses file given to the judge CLI, with errors that name the line.

Each line is read strictly (`strict_json`) and at most MAX_RESPONSE_LINE_BYTES of it: a longer
line is refused as soon as its first bytes past the limit are read, so a file of one 1 GB line
costs no more memory than the limit, and nothing of it reaches the run folder.
"""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Collection, Iterator

from eval_backend.records import ItemKey, ResponseRecord, shown_value
from eval_backend.strict_json import JsonLimits, parse_strict_json

MAX_RESPONSE_LINE_BYTES = 4 * 1024 * 1024
"""A responses line's UTF-8 size, at most: 4 MiB, ten times the longest reply a 16,000-token budget gives in any
script, even with every character escaped as `\\uXXXX`."""
RESPONSE_LINE_LIMITS = JsonLimits(max_bytes=MAX_RESPONSE_LINE_BYTES)

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
    with path.open("rb") as handle:
        start = handle.read(len(codecs.BOM_UTF32_LE))
        for bom, encoding in _FOREIGN_BOMS:
            if start.startswith(bom):
                raise ResponsesInputError(f"{path}: the file is {encoding}; save it as UTF-8")
        handle.seek(len(codecs.BOM_UTF8) if start.startswith(codecs.BOM_UTF8) else 0)
        for number, raw in enumerate(iter(lambda: handle.readline(MAX_RESPONSE_LINE_BYTES + 1), b""), start=1):
            line = _decoded(raw.rstrip(b"\r\n"), f"{path}:{number}")
            if line.strip():
                yield number, line


def _decoded(raw: bytes, where: str) -> str:
    if len(raw) > MAX_RESPONSE_LINE_BYTES:  # only the first bytes past the limit were read
        raise ResponsesInputError(
            f"{where}: the line is longer than {MAX_RESPONSE_LINE_BYTES:,} bytes, the limit of one response"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ResponsesInputError(
            f"{where}: not valid UTF-8 (byte {exc.start} of the line); save the file as UTF-8"
        ) from exc


def _parse_line(line: str, where: str, default_config: str | None) -> ResponseRecord:
    try:
        data = parse_strict_json(line, where, RESPONSE_LINE_LIMITS)
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
