"""The batch ledger reads back which files are in flight and what each unfinished judgment carries."""

from __future__ import annotations

import pytest

from eval_backend.batch.ledger import LEDGER_NAME, BatchLedger, Carry
from eval_backend.records import Usage
from eval_backend.run_folder import RunFolder, RunFolderError


def test_uploads_batches_and_collections_read_back_in_order(tmp_path) -> None:
    ledger = BatchLedger(RunFolder(tmp_path))
    ledger.uploaded("file-1", "judge", [("a", "sha-a"), ("b", "sha-b")])
    ledger.created("file-1", "batch-1")
    ledger.uploaded("file-2", "judge", [("c", "sha-c")])
    state = ledger.read()
    assert [(e.file_id, e.batch_id) for e in state.in_flight()] == [("file-1", "batch-1"), ("file-2", None)]
    assert state.in_flight_ids("judge") == {"a", "b", "c"} and state.in_flight_ids("other-judge") == set()

    ledger.collected("file-1", "completed", ["a"], {"b": Carry(1, Usage(10, 2, 12, 1), "nope", "invalid")})
    state = ledger.read()
    assert [e.file_id for e in state.in_flight()] == ["file-2"]
    assert state.carry == {("judge", "b"): Carry(1, Usage(10, 2, 12, 1), "nope", "invalid")}

    ledger.uploaded("file-3", "judge", [("b", "sha-b")])
    ledger.collected("file-3", "completed", ["b"], {})
    assert ledger.read().carry == {}  # a final answer ends the carry


def test_an_event_that_is_not_ours_names_the_file_and_line(tmp_path) -> None:
    (tmp_path / LEDGER_NAME).write_text('{"event": "created", "file_id": "file-9", "batch_id": "b", "at": "x"}\n')
    with pytest.raises(RunFolderError, match=rf"{LEDGER_NAME}:1: not a valid batch ledger event"):
        BatchLedger(RunFolder(tmp_path)).read()
