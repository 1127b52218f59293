"""`python -m eval_backend queue`: the admin's list, show, cancel and retry, over the real queue on each backend."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from eval_backend.cli import main
from eval_backend.benchmarks.chat_mode import ChatMode
from eval_backend.submissions import NewRequest, QueueStore, Status
from tests.support.queue_backends import QueueBackend, queue_backend  # noqa: F401  (fixture)
from tests.support.tiny_model import build_tiny_chat_model


@pytest.fixture
def store(queue_backend: QueueBackend, monkeypatch: pytest.MonkeyPatch) -> Iterator[QueueStore]:  # noqa: F811
    """The queue, with the environment pointing the CLI at it (QUEUE_PATH, or QUEUE_URL for PostgreSQL)."""
    for name, value in queue_backend.env().items():
        monkeypatch.setenv(name, value)
    with queue_backend.open() as opened:
        yield opened


def queued(store: QueueStore, model: str = "org/model") -> int:
    return store.add(NewRequest(model, "a" * 40, "main", "bfloat16", False, "alice")).id


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
    listed = capsys.readouterr().out
    assert "org/model" in listed and "indic_writing_bench" in listed
    assert main(["queue", "show", str(request_id)]) == 0
    shown = capsys.readouterr().out
    assert '"submitter": "alice"' in shown and '"benchmark": "indic_writing_bench"' in shown
    assert "--- log tail ---" in shown


def test_an_unknown_request_is_a_clear_error(store: QueueStore, capsys: pytest.CaptureFixture) -> None:
    assert main(["queue", "cancel", "999"]) == 2
    assert "999" in capsys.readouterr().err


def test_retrying_an_old_request_after_a_resubmission_is_refused(
    store: QueueStore, capsys: pytest.CaptureFixture
) -> None:
    """Cancel, resubmit, then retry the old one: two PENDING requests for one commit would each be run."""
    old = queued(store)
    store.cancel(old)
    new = queued(store)
    assert main(["queue", "retry", str(old)]) == 2
    assert f"request {new} for the same model revision and benchmark is PENDING" in capsys.readouterr().err
    assert [(r.id, r.status) for r in store.list_requests()] == [(old, Status.CANCELLED), (new, Status.PENDING)]


def test_an_unreachable_queue_database_is_named_without_its_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setenv("QUEUE_URL", "postgresql://queue:s3cret-pw@127.0.0.1:1/leaderboard?connect_timeout=2")
    monkeypatch.setenv("QUEUE_CONNECT_TIMEOUT_S", "2")
    assert main(["queue", "list"]) == 2
    err = capsys.readouterr().err
    assert "cannot connect to the queue database" in err and "127.0.0.1:1/leaderboard" in err
    assert "s3cret-pw" not in err


def test_a_queue_url_that_is_not_postgresql_is_refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("QUEUE_URL", "mysql://queue@db/leaderboard")
    assert main(["queue", "list"]) == 2
    assert "QUEUE_URL must be a postgresql://" in capsys.readouterr().err


@pytest.fixture(scope="module")
def base_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local model without a chat template."""
    return build_tiny_chat_model(tmp_path_factory.mktemp("base-model"), chat_template=None)


def test_submit_queues_a_base_model_raw_on_saraiki_and_says_what_it_left_out(
    store: QueueStore, base_model: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setenv("ALLOW_LOCAL_MODELS", "true")
    submit = ["queue", "submit", str(base_model), "--benchmark", "saraiki", "--benchmark", "indic_writing_bench"]
    assert main([*submit, "--chat"]) == 2
    assert "has no chat template" in (err := capsys.readouterr().err) and "cannot be asked in chat mode on saraiki" in err
    assert store.list_requests() == []

    assert main(submit) == 0  # auto: raw, for a model without a chat template
    out, err = capsys.readouterr()
    [request] = store.list_requests()
    assert (request.benchmark, request.chat_mode) == ("saraiki", ChatMode.RAW)
    assert "saraiki" in out and " raw " in out
    assert "left out: " in err and "cannot be evaluated on indic_writing_bench, which asks prompts as chat turns" in err


def test_submit_no_chat_asks_a_chat_model_in_raw_text(
    store: QueueStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ALLOW_LOCAL_MODELS", "true")
    model = build_tiny_chat_model(tmp_path / "chat-model")
    assert main(["queue", "submit", str(model), "--benchmark", "saraiki", "--no-chat"]) == 0
    assert [(r.benchmark, r.chat_mode) for r in store.list_requests()] == [("saraiki", ChatMode.RAW)]
