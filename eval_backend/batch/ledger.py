"""The run folder's record of its batches (`judge_batches.jsonl`): what was uploaded, which batch
runs it, what was collected, and the attempts each unfinished judgment has used.

Every step is appended (and synced) before the next one starts, so a process killed anywhere
finds, on resume, each batch it paid for: an uploaded file with no batch recorded is looked up
on the provider before a batch is created for it, and a batch not yet collected is polled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from eval_backend.jsonl import JsonlAppender, read_jsonl
from eval_backend.records import Usage, to_json_dict, utc_now
from eval_backend.run_folder import RunFolder, RunFolderError

LEDGER_NAME = "judge_batches.jsonl"


@dataclass(frozen=True)
class Carry:
    """What an unfinished judgment brings to its next attempt: attempts used, tokens paid, last answer."""

    attempts: int = 0
    usage: Usage = field(default_factory=Usage)
    raw_text: str | None = None
    error: str | None = None


@dataclass
class SubmittedFile:
    """An uploaded input file: its requests, the batch running it once created, and whether collected."""

    file_id: str
    judge_model: str
    uploaded_at: str
    requests: tuple[tuple[str, str], ...]  # (custom_id, prompt_sha256)
    batch_id: str | None = None
    collected: bool = False


@dataclass
class LedgerState:
    """The ledger read back: the files in upload order and each unfinished judgment's carry."""

    files: dict[str, SubmittedFile] = field(default_factory=dict)
    carry: dict[tuple[str, str], Carry] = field(default_factory=dict)  # (judge_model, custom_id)

    def in_flight(self) -> list[SubmittedFile]:
        return [entry for entry in self.files.values() if not entry.collected]

    def in_flight_ids(self, judge_model: str) -> set[str]:
        """The custom_ids a batch of this judge already holds: never submitted twice."""
        return {cid for entry in self.in_flight() if entry.judge_model == judge_model for cid, _ in entry.requests}


class BatchLedger:
    """Appends ledger events for one run folder and reads them back as a `LedgerState`."""

    def __init__(self, folder: RunFolder) -> None:
        self.path: Path = folder.path / LEDGER_NAME

    def read(self) -> LedgerState:
        state = LedgerState()
        for number, event in read_jsonl(self.path):  # a corrupt line: JsonlCorruptError naming it
            try:
                _apply(state, event)
            except (KeyError, TypeError, ValueError) as exc:
                raise RunFolderError(f"{self.path}:{number}: not a valid batch ledger event ({exc!r})") from exc
        return state

    def uploaded(self, file_id: str, judge_model: str, requests: Iterable[tuple[str, str]]) -> None:
        self._append({"event": "uploaded", "file_id": file_id, "judge_model": judge_model,
                      "requests": [list(pair) for pair in requests]})

    def created(self, file_id: str, batch_id: str) -> None:
        self._append({"event": "created", "file_id": file_id, "batch_id": batch_id})

    def collected(self, file_id: str, status: str, final: Iterable[str], carry: Mapping[str, Carry]) -> None:
        """The batch's answers are in judgments.jsonl (`final`) or carried to the next attempt."""
        self._append({
            "event": "collected", "file_id": file_id, "status": status, "final": list(final),
            "carry": {cid: to_json_dict(value) for cid, value in carry.items()},
        })

    def _append(self, event: dict[str, Any]) -> None:
        with JsonlAppender(self.path, fsync=True) as appender:
            appender.append({**event, "at": utc_now()})


def _apply(state: LedgerState, event: Mapping[str, Any]) -> None:
    kind = event["event"]
    if kind == "uploaded":
        requests = tuple((str(cid), str(sha)) for cid, sha in event["requests"])
        state.files[event["file_id"]] = SubmittedFile(event["file_id"], event["judge_model"], event["at"], requests)
    elif kind == "created":
        state.files[event["file_id"]].batch_id = event["batch_id"]
    elif kind == "collected":
        entry = state.files[event["file_id"]]
        entry.collected = True
        for cid in event["final"]:
            state.carry.pop((entry.judge_model, cid), None)
        for cid, data in event["carry"].items():
            state.carry[(entry.judge_model, cid)] = Carry(
                int(data["attempts"]), Usage(**data["usage"]), data.get("raw_text"), data.get("error")
            )
    else:
        raise ValueError(f"unknown event {kind!r}")
