"""One folder per evaluated model revision: what was asked, answered, judged and scored.

    request.json      what was asked: model, revision, dataset, parameters
    items.jsonl       the items of the run (metadata and rubric; the query stays in the dataset)
    responses.jsonl   append-only, one line per (config, index)
    judgments.jsonl   append-only, one line per (config, index, criterion)
    summary.json      the aggregate the leaderboard shows
    details.parquet   one row per item, for download
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Iterable, Iterator

from eval_backend.jsonl import JsonlAppender, StorageWriteError, read_jsonl
from eval_backend.records import (
    ItemKey,
    ItemMeta,
    Judgment,
    ResponseRecord,
    item_meta_from_dict,
    judgment_from_dict,
    response_from_dict,
    to_json_dict,
)

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


class RunFolderError(ValueError):
    """A run folder's file is unreadable; the message names the file and line."""


class RunFolder:
    """Paths and readers of one run folder; the writers append or replace atomically."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @classmethod
    def for_model(cls, runs_dir: Path, model_id: str, revision: str) -> RunFolder:
        """`runs/<org>__<name>/<revision>/`, each part a single safe folder name inside `runs_dir`."""
        return cls(Path(runs_dir) / _folder_name(model_id.replace("/", "__")) / _folder_name(revision or "main"))

    @property
    def request_path(self) -> Path:
        return self.path / "request.json"

    @property
    def items_path(self) -> Path:
        return self.path / "items.jsonl"

    @property
    def responses_path(self) -> Path:
        return self.path / "responses.jsonl"

    @property
    def judgments_path(self) -> Path:
        return self.path / "judgments.jsonl"

    @property
    def summary_path(self) -> Path:
        return self.path / "summary.json"

    @property
    def details_path(self) -> Path:
        return self.path / "details.parquet"

    def create(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)

    def write_request(self, request: dict[str, Any]) -> None:
        write_json_atomic(self.request_path, request)

    def read_request(self) -> dict[str, Any]:
        return _read_json(self.request_path)

    def write_items(self, items: Iterable[ItemMeta]) -> None:
        """Record the run's items; a resumed run with the same items leaves the file untouched."""
        text = "".join(json.dumps(to_json_dict(item), ensure_ascii=False) + "\n" for item in items)
        if self.items_path.exists() and self.items_path.read_text(encoding="utf-8") == text:
            return
        _write_text_atomic(self.items_path, text)

    def read_items(self) -> list[ItemMeta]:
        return [item_meta_from_dict(data) for _, data in self._records(self.items_path)]

    def response_appender(self) -> JsonlAppender:
        return JsonlAppender(self.responses_path)

    def judgment_appender(self) -> JsonlAppender:
        return JsonlAppender(self.judgments_path)

    def read_responses(self) -> dict[ItemKey, ResponseRecord]:
        """The latest response line for each (config, index)."""
        return {record.key: record for record in self._iter(self.responses_path, response_from_dict)}

    def read_judgments(self) -> list[Judgment]:
        """Every judgment line, in the order written."""
        return list(self._iter(self.judgments_path, judgment_from_dict))

    def write_summary(self, summary: dict[str, Any]) -> None:
        write_json_atomic(self.summary_path, summary)

    def read_summary(self) -> dict[str, Any]:
        return _read_json(self.summary_path)

    def _iter(self, path: Path, build: Any) -> Iterator[Any]:
        for number, data in self._records(path):
            try:
                yield build(data)
            except (TypeError, ValueError) as exc:
                raise RunFolderError(f"{path}:{number}: not a valid record ({exc})") from exc

    @staticmethod
    def _records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
        try:
            yield from read_jsonl(path)
        except ValueError as exc:
            raise RunFolderError(str(exc)) from exc


def _folder_name(text: str) -> str:
    """`text` with path-unsafe characters replaced; never "." or "..", which would leave the folder."""
    name = _UNSAFE.sub("_", text)
    return name.replace(".", "_") if set(name) <= {"."} else name


def iter_run_folders(runs_dir: Path) -> Iterator[RunFolder]:
    """Every run folder under `runs_dir` that has a summary, in a stable order."""
    for summary in sorted(Path(runs_dir).glob("*/*/summary.json")):
        yield RunFolder(summary.parent)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON so a reader sees the old file or the new one, never half of one."""
    _write_text_atomic(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _write_text_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise StorageWriteError.wrap(exc, path) from exc
    finally:
        tmp.unlink(missing_ok=True)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RunFolderError(f"{path}: not valid JSON ({exc.msg})") from exc
