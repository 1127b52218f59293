"""`python -m eval_backend queue`: the admin's list, show, cancel and retry over the real SQLite queue."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval_backend.cli import main
from eval_backend.submissions import NewRequest, QueueStore, Status


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> QueueStore:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    return QueueStore(tmp_path / "queue.sqlite")


def queued(store: QueueStore) -> int:
    return store.add(NewRequest("org/model", "a" * 40, "main", "bfloat16", False, "alice")).id


def test_cancel_then_retry_moves_the_request_and_shows_it(store: QueueStore, capsys: pytest.CaptureFixture) -> None:
    request_id = queued(store)
    assert main(["queue", "cancel", str(request_id)]) == 0
    assert store.get(request_id).status is Status.CANCELLED
    assert "CANCELLED" in capsys.readouterr().out
    assert main(["queue", "retry", str(request_id)]) == 0
    assert store.get(request_id).status is Status.PENDING


def test_list_and_show_print_the_rows(store: QueueStore, capsys: pytest.CaptureFixture) -> None:
    request_id = queued(store)
    assert main(["queue", "list"]) == 0
    assert "org/model" in capsys.readouterr().out
    assert main(["queue", "show", str(request_id)]) == 0
    shown = capsys.readouterr().out
    assert '"submitter": "alice"' in shown and "--- log tail ---" in shown


def test_an_unknown_request_is_a_clear_error(store: QueueStore, capsys: pytest.CaptureFixture) -> None:
    assert main(["queue", "cancel", "999"]) == 2
    assert "999" in capsys.readouterr().err
