"""Secrets never reach a log, the worker's log tail, a stored error or the requests mirror.

The class of input: credentials in any URL, key-like query parameters, auth headers, key-shaped
tokens, and an upstream error that echoes part of a key, masked or not.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from eval_backend.hub_sync.requests_mirror import request_document
from eval_backend.redaction import install_log_redaction, redact, register_secrets, secrets_of
from eval_backend.run_folder import RunFolder
from eval_backend.settings import DataSettings, QueueSettings, Settings
from eval_backend.submissions import NewRequest, SqliteQueueStore
from eval_backend.submissions.worker import poll_once
from tests.eval_backend.cli.test_judge_cmd import run_judge, write_responses
from tests.support.chat_server import Reply, StandInChatServer

KEY = "sk-live-7f3a9c2e51d84b6a0c9e"


@pytest.fixture
def log_redaction() -> Iterator[None]:
    """Redaction installed as `main()` installs it, and the global logging state put back after."""
    factory = logging.getLogRecordFactory()
    levels = {name: logging.getLogger(name).level for name in ("httpx", "httpx2", "httpcore")}
    install_log_redaction([KEY])
    yield
    logging.setLogRecordFactory(factory)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)
    register_secrets([])


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        ("POST http://user:Pa55word@judge.internal:8000/v1/chat/completions", "Pa55word", "judge.internal:8000/v1"),
        ("https://operator@judge.example.org/v1", "operator", "judge.example.org/v1"),
        ("postgresql://queue:S3cretDb@db.host:5432/queue", "S3cretDb", "db.host:5432/queue"),
        ("GET https://host/v1/models?api-version=2024-12-01&api_key=Zx9QpL", "Zx9QpL", "api-version=2024-12-01"),
        ("https://blob.host/file?sv=2020&sig=abcDEF123%2B&se=2026", "abcDEF123", "sv=2020"),
        ("https://host/cb?access_token=tok_4455&state=ok", "tok_4455", "state=ok"),
        ("wss://host/socket?token=eyJhbGciOi.payload.sig", "eyJhbGciOi", "wss://host/socket"),
        ("headers: {'Authorization': 'Bearer abc.def-ghi'}", "abc.def-ghi", "headers"),
        ('api-key: 0a1b2c3d4e5f66778899aabbccddeeff', "0a1b2c3d4e5f", "api-key"),
        ("Incorrect API key provided: sk-proj-AbCd1234EfGh5678", "AbCd1234", "Incorrect API key provided"),
        ("Incorrect API key provided: sk-live-*************9c2e. You can find", "9c2e", "You can find"),
        ("Invalid token hf_AbCdEfGhIjKlMnOpQrStUv for this repo", "AbCdEfGhIj", "for this repo"),
    ],
)
def test_every_kind_of_secret_in_a_text_is_masked_and_the_rest_kept(text: str, secret: str, kept: str) -> None:
    cleaned = redact(text)
    assert secret not in cleaned and "***" in cleaned and kept in cleaned


def test_ordinary_text_is_left_alone() -> None:
    for text in ("judge call failed (APIConnectionError); retry 3", "risk-free desk-top 5*3 = 15",
                 "https://huggingface.co/api/models/org/name?revision=main", "निबंध 12: an essay"):
        assert redact(text) == text


def test_a_registered_key_is_found_whole_or_by_any_fragment(log_redaction: None) -> None:
    assert KEY not in redact(f"key {KEY} refused")
    assert "7f3a9c2e51d8" not in redact("the endpoint echoed ...7f3a9c2e51d84... back")
    settings = Settings(queue=QueueSettings(queue_url="postgresql://q:DbPassw0rd@db/q"))
    assert "DbPassw0rd" in secrets_of(settings)


def test_log_records_are_redacted_for_every_handler(log_redaction: None) -> None:
    records: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(self.format(record))

    handler = Collect()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        url = httpx.URL("http://user:Pa55word@judge.host/v1/chat/completions?api_key=QQQ111")
        logging.getLogger("httpx2").info("HTTP Request: %s %s", "POST", url)  # off: its level is WARNING now
        logging.getLogger("httpx2").warning("HTTP Request: %s %s %d", "POST", url, 200)
        logging.getLogger("eval_backend.x").error(f"upstream said {KEY}")
        try:
            raise RuntimeError(f"cannot reach http://admin:Hunter2@host/ with {KEY}")
        except RuntimeError:
            logging.getLogger("eval_backend.x").exception("failed")
    finally:
        root.removeHandler(handler)
    text = "\n".join(records)
    assert len(records) == 3 and "HTTP Request: POST http://***@judge.host/v1/chat/completions?api_key=*** 200" in text
    for secret in ("Pa55word", "QQQ111", KEY, "Hunter2", "admin"):
        assert secret not in text
    assert "RuntimeError" in text  # the traceback is kept, only its secrets go


def test_an_upstream_error_echoing_the_key_is_redacted_in_the_message_and_the_judgments(
    tmp_path, dataset_dir, items, monkeypatch, capsys, log_redaction
) -> None:
    echo = f"Incorrect API key provided: {KEY[:10]}**********{KEY[-4:]}. Your key {KEY} was sent to http://u:pw@x"

    def reply(body: dict[str, Any]) -> Reply:  # the first call: key refused (401); then each request refused (400)
        return Reply(content=echo, status=401 if len(server.requests) == 1 else 400)

    with StandInChatServer(reply) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
        out = tmp_path / "run"
        responses = write_responses(tmp_path / "r.jsonl", items[:1])
        assert run_judge(dataset_dir, responses, out, "--concurrency", "1") == 2  # 401: the key is refused
        err = capsys.readouterr().err
        assert "refused the call" in err
        assert run_judge(dataset_dir, responses, out, "--concurrency", "1") == 1  # 400s: judgments fail, stored
    stored = (out / "judgments.jsonl").read_text(encoding="utf-8")
    assert "judge refused the request" in stored
    for text in (err, stored, (out / "summary.json").read_text(encoding="utf-8")):
        assert KEY[:10] not in text and KEY[-4:] not in text and ":pw@" not in text


def test_the_worker_stores_and_mirrors_no_secret(tmp_path: Path, log_redaction: None) -> None:
    settings = Settings(data=DataSettings(data_dir=tmp_path), queue=QueueSettings(queue_path=tmp_path / "q.sqlite"))

    def runner(request, folder: RunFolder, _settings, _progress):
        logging.getLogger("eval_backend.pipeline").info("endpoint http://gen:GenPw0rd@gpu.host:8000/v1 ready")
        raise ConnectionError(f"https://gpu.host/v1?api_key=K3yK3y refused; key {KEY}")

    with SqliteQueueStore(tmp_path / "q.sqlite") as store:
        store.add(NewRequest("org/model", "b" * 40, "main", "float32", False, "alice"))
        ended = poll_once(store, settings, worker_id="w", runner=runner)
    assert ended is not None and "ConnectionError" in (ended.error or "")
    document = request_document(ended).decode("utf-8")
    for text in (ended.error or "", ended.log_tail, document):
        for secret in ("GenPw0rd", "K3yK3y", KEY):
            assert secret not in text
    assert "gpu.host:8000/v1 ready" in ended.log_tail


@pytest.mark.timeout(60)  # a guard against a hang, not a measurement: a backtracking pattern takes hours here
def test_a_long_line_is_redacted_whole(log_redaction: None) -> None:
    blob = "x" * 200_000
    assert redact(blob) == blob
    assert redact("?" + blob + "&token=T0ken") == "?" + blob + "&token=***"
    assert redact(f"{blob}{KEY[4:16]} tail") == "*** tail"
    assert redact("a." * 100_000 + "b") == "a." * 100_000 + "b"


def test_a_secret_split_between_the_format_and_an_argument_is_redacted(log_redaction: None, caplog) -> None:
    with caplog.at_level(logging.INFO):
        logging.getLogger("eval_backend.x").info("calling with api_key=%s now", "Zq8Wv7Ut6")
        logging.getLogger("eval_backend.x").info('%s - "%s %s HTTP/1.1" %d', "127.0.0.1:5", "GET", "/cb?token=Tk1", 200)
    first, second = caplog.records
    assert first.getMessage() == "calling with api_key=*** now"
    assert second.args == ("127.0.0.1:5", "GET", "/cb?token=***", 200)  # still a tuple for the formatter


def test_a_judge_url_with_credentials_works_and_they_appear_nowhere(
    tmp_path, dataset_dir, items, monkeypatch, capsys, caplog
) -> None:
    out = tmp_path / "run"
    with StandInChatServer() as server, caplog.at_level(logging.DEBUG):
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url.replace("http://", "http://operator:Pa55word@"))
        monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
        assert run_judge(dataset_dir, write_responses(tmp_path / "r.jsonl", items[:1]), out, "--concurrency", "1") == 0
        sent = server.requests
    assert sent and all(request.headers["authorization"].startswith("Basic ") for request in sent)
    written = [path.read_bytes() for path in out.iterdir() if path.is_file()]
    for text in (capsys.readouterr().err, caplog.text, *(raw.decode("utf-8", "replace") for raw in written)):
        assert "Pa55word" not in text
