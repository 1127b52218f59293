"""Batch input files: one JSONL line per owed judge call, split under the route's limits."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from eval_backend.batch.route import BatchRoute
from eval_backend.jsonl import to_json


@dataclass(frozen=True)
class BatchRequest:
    """One judge call as a batch line, with what is needed to record its answer later."""

    custom_id: str
    prompt_sha256: str
    line: bytes
    """The JSONL line, newline included: the live call's very body under `body`."""


@dataclass(frozen=True)
class InputFile:
    """A written input file and the (custom_id, prompt_sha256) of each of its lines, in order."""

    path: Path
    requests: tuple[tuple[str, str], ...]


def request_line(custom_id: str, url: str, body: dict) -> bytes:
    """One input line: `{"custom_id", "method": "POST", "url", "body"}` as UTF-8 JSON."""
    return (to_json({"custom_id": custom_id, "method": "POST", "url": url, "body": body}) + "\n").encode("utf-8")


def write_input_files(requests: Iterable[BatchRequest], route: BatchRoute, directory: Path) -> Iterator[InputFile]:
    """Write `requests` into files of at most `route.max_requests` lines and `route.max_bytes` bytes.

    Each file is yielded as soon as it is full, so the caller uploads it before the next one
    is written: only one file's lines are ever on disk, and none is held in memory.
    """
    current: _OpenFile | None = None
    for request in requests:
        if current and not current.fits(request, route):
            yield current.close()
            current = None
        current = current or _OpenFile.create(directory)
        current.add(request)
    if current:
        yield current.close()


class _OpenFile:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.handle = path.open("wb")
        self.bytes = 0
        self.requests: list[tuple[str, str]] = []

    @classmethod
    def create(cls, directory: Path) -> _OpenFile:
        handle, name = tempfile.mkstemp(prefix="batch-input-", suffix=".jsonl", dir=directory)
        os.close(handle)
        return cls(Path(name))

    def fits(self, request: BatchRequest, route: BatchRoute) -> bool:
        return len(self.requests) < route.max_requests and self.bytes + len(request.line) <= route.max_bytes

    def add(self, request: BatchRequest) -> None:
        self.handle.write(request.line)
        self.bytes += len(request.line)
        self.requests.append((request.custom_id, request.prompt_sha256))

    def close(self) -> InputFile:
        self.handle.close()
        return InputFile(self.path, tuple(self.requests))
