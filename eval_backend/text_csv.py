"""Reading a CSV file as text, every cell exactly as written: the one CSV reader of the engine.

No NA conversion (a cell reading `NA`, `None` or `nan` is that text; an empty cell is ""),
no type inference (`07` stays `07`, `1947` is the text `1947`), no stripping. Blank lines are
skipped, as spreadsheet exports and pandas skip them. A file that is not UTF-8 (with or
without a byte-order mark), has no header, a duplicate column name, or a row with more cells
than the header is refused naming the file (and the row or column); rows with fewer cells
are kept, their missing cells empty, and listed so that the caller can name them.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

# A response or a golden answer can be long; the csv module refuses fields over 128 KiB by default.
csv.field_size_limit(2**31 - 1)

_BYTE_ORDER_MARKS = (  # UTF-32 before UTF-16: UTF-32 LE's mark starts with UTF-16 LE's
    (codecs.BOM_UTF32_LE, "UTF-32 (little-endian)"),
    (codecs.BOM_UTF32_BE, "UTF-32 (big-endian)"),
    (codecs.BOM_UTF16_LE, "UTF-16 (little-endian)"),
    (codecs.BOM_UTF16_BE, "UTF-16 (big-endian)"),
)


class CsvReadError(ValueError):
    """The file cannot be read as a CSV of text: `source` names it, `reason` says why (and where)."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


@dataclass(frozen=True)
class TextCsv:
    """A CSV file's header and data rows, every row as long as the header.

    `short_rows` are the 1-based data rows (1 = the first row after the header) that had
    fewer cells than the header; their missing cells read "".
    """

    source: str
    header: tuple[str, ...]
    rows: list[tuple[str, ...]]
    short_rows: tuple[int, ...]

    def column(self, name: str) -> list[str]:
        """Every data row's cell in column `name`."""
        position = self.header.index(name)
        return [row[position] for row in self.rows]


def read_text_csv(path: Path, limit: int | None = None) -> TextCsv:
    """The first `limit` data rows (all when None) of the CSV file at `path`, as text."""
    try:
        with path.open("rb") as handle:
            return read_text_csv_stream(handle, str(path), limit)
    except OSError as exc:
        raise CsvReadError(str(path), str(exc.strerror or exc)) from exc


def read_text_csv_stream(handle: BinaryIO, source: str, limit: int | None = None) -> TextCsv:
    """As `read_text_csv`, from an open, seekable binary file; `source` names it in messages."""
    _refuse_other_encodings(handle.read(4), source)
    handle.seek(0)
    reader = csv.reader(io.TextIOWrapper(handle, encoding="utf-8-sig", newline=""), strict=True)
    try:
        return _parse(reader, source, limit)
    except UnicodeDecodeError as exc:
        byte = exc.object[exc.start : exc.start + 1].hex()
        raise CsvReadError(source, f"not UTF-8 text (byte 0x{byte} near line {reader.line_num + 1}); "
                           "expected UTF-8: save the file as UTF-8") from exc
    except csv.Error as exc:
        raise CsvReadError(source, f"not a well-formed CSV near line {reader.line_num}: {exc}") from exc


def _refuse_other_encodings(start: bytes, source: str) -> None:
    found = next((encoding for mark, encoding in _BYTE_ORDER_MARKS if start.startswith(mark)), None)
    if found is None and b"\0" in start:  # no mark, but NUL bytes among the first characters
        found = "UTF-16 or UTF-32 (no byte-order mark; NUL bytes among the first characters)"
    if found is not None:
        raise CsvReadError(source, f"the file is {found} text; expected UTF-8: save it as UTF-8")


def _parse(reader: Iterator[list[str]], source: str, limit: int | None) -> TextCsv:
    lines = filter(None, reader)  # a blank line reads as []
    header = next(lines, None)
    if header is None:
        raise CsvReadError(source, "the file is empty (no header row)")
    _refuse_duplicate_columns(header, source)
    rows = list(map(tuple, itertools.islice(lines, limit)))
    width = len(header)
    long = next((number for number, row in enumerate(rows, start=1) if len(row) > width), None)
    if long is not None:
        raise CsvReadError(source, f"data row {long} has {len(rows[long - 1])} cells, the header {width}")
    short = tuple(number for number, row in enumerate(rows, start=1) if len(row) < width)
    for number in short:
        rows[number - 1] += ("",) * (width - len(rows[number - 1]))
    return TextCsv(source, tuple(header), rows, short)


def _refuse_duplicate_columns(header: list[str], source: str) -> None:
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise CsvReadError(source, f"column {name!r} appears more than once in the header; "
                               "each column needs its own name")
        seen.add(name)
