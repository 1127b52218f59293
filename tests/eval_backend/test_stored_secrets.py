"""No configured secret in anything the project stores, from any source text (#40): a judge's reason that quotes
the caller's key (OpenAI and Azure), an upstream that echoes the Basic credentials of a `user:password@` base
URL (judge errors and reasons, generation errors in responses.jsonl), a key in a configured URL's query.

The stand-in endpoints quote what they were sent (the Authorization or api-key header), as a careless
or hostile upstream would; every stored file is read back and searched for the secret and its parts.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
import pytest

from eval_backend.cli import main
from eval_backend.details import read_details, write_details
from eval_backend.jsonl import JsonlAppender
from eval_backend.redaction import mask_known_secrets, redact, register_secrets, secrets_of, url_secrets
from eval_backend.run_folder import RunFolder, write_json_atomic
from eval_backend.settings import GenerationSettings, HubSettings, JudgeSettings, Settings
from tests.eval_backend.cli.test_judge_cmd import run_judge, write_responses
from tests.support.chat_server import Reply, StandInChatServer, default_score, judge_answer
from tests.support.chat_server import parse_judge_prompt, user_text

KEY = "Zt7Qm2Lp9Xw4Rk8Vn3Bc6Hd1"  # not key-shaped: only knowing it finds it
PASSWORD = "Gh4-Wq8+Rt2Mz"
FRAGMENT = 8  # redaction finds a known secret from any 8 of its characters


@pytest.fixture(autouse=True)
def forget_secrets() -> Iterator[None]:
    """Each test starts and ends with no registered secret (the registry is the process's)."""
    register_secrets([])
    yield
    register_secrets([])


def stored_texts(folder: Path) -> dict[str, str]:
    """Every file of a run folder as text; details.parquet as its cells (the file itself is compressed)."""
    texts = {}
    for path in sorted(folder.iterdir()):
        if path.suffix == ".parquet":
            texts[path.name] = read_details(path).astype(str).to_csv()
        elif path.is_file():
            texts[path.name] = path.read_text(encoding="utf-8", errors="replace")
    return texts


def assert_absent(secret: str, texts: dict[str, str]) -> None:
    """Neither the secret nor any FRAGMENT characters of it in any text."""
    parts = {secret[start : start + FRAGMENT] for start in range(len(secret) - FRAGMENT + 1)} or {secret}
    for name, text in texts.items():
        found = sorted(part for part in parts if part in text)
        assert not found, f"{name} holds {found}"


def quoting(server_box: list[StandInChatServer], header: str) -> Any:
    """A judge that scores as usual and gives as its reason the `header` it was sent (concurrency 1: the last request)."""
    def reply(body: dict[str, Any]) -> Reply:
        sent = server_box[0].requests[-1].headers.get(header, "(none)")
        prompt = parse_judge_prompt(user_text(body))
        assert prompt is not None
        return Reply(content=judge_answer(default_score(prompt.criterion, prompt.response),
                                          f"The caller sent {header}: {sent} to me; the essay is fine."))
    return reply


@pytest.mark.parametrize("client", ["openai", "azure"])
def test_a_judge_reason_quoting_the_callers_key_is_stored_masked(
    client: str, tmp_path: Path, dataset_dir: Path, items: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    box: list[StandInChatServer] = []
    header = "authorization" if client == "openai" else "api-key"
    with StandInChatServer(quoting(box, header)) as server:
        box.append(server)
        if client == "openai":
            monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
            monkeypatch.setenv("OPENAI_API_KEY", KEY)
        else:
            monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", server.azure_endpoint)
            monkeypatch.setenv("AZURE_OPENAI_API_KEY", KEY)
        monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
        out = tmp_path / "run"
        assert run_judge(dataset_dir, write_responses(tmp_path / "r.jsonl", items[:2]), out, "--concurrency", "1") == 0
        assert KEY in server.requests[-1].headers[header]  # the key was sent, and quoted back
    texts = stored_texts(out)
    assert_absent(KEY, texts)
    reasons = [json.loads(line)["reason"] for line in texts["judgments.jsonl"].splitlines()]
    assert reasons and all(r.startswith(f"The caller sent {header}: ") and r.endswith("the essay is fine.")
                           for r in reasons)  # the rest of the reason is kept


def test_basic_credentials_of_a_judge_url_echoed_back_are_stored_masked(
    tmp_path: Path, dataset_dir: Path, items: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    box: list[StandInChatServer] = []
    quote = quoting(box, "authorization")

    def reply(body: dict[str, Any]) -> Reply:  # the first item's calls are refused, quoting the header bare
        sent = box[0].requests[-1].headers.get("authorization", "")
        if len(box[0].requests) <= 5:
            return Reply(content=f"bad request from {sent.split()[-1]} (Authorization: {sent})", status=400)
        return quote(body)

    with StandInChatServer(reply) as server:
        box.append(server)
        url = server.base_url.replace("http://", f"http://alice:{PASSWORD}@")
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
        out = tmp_path / "run"
        run_judge(dataset_dir, write_responses(tmp_path / "r.jsonl", items[:2]), out, "--concurrency", "1")
        assert server.requests[-1].headers["authorization"].startswith("Basic ")
    basic = base64.b64encode(f"alice:{PASSWORD}".encode()).decode()
    texts = stored_texts(out)
    assert "judge refused the request" in texts["judgments.jsonl"] and "bad request from" in texts["judgments.jsonl"]
    assert "The caller sent authorization" in texts["judgments.jsonl"]
    assert_absent(basic, texts)
    assert_absent(PASSWORD, texts)


def test_basic_credentials_of_a_generation_url_echoed_in_an_error_are_not_in_responses(
    tmp_path: Path, dataset_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box: list[StandInChatServer] = []

    def reply(body: dict[str, Any]) -> Reply:
        sent = box[0].requests[-1].headers.get("authorization", "")
        return Reply(content=f"cannot serve {sent.split()[-1]}; you sent {sent}", status=400)

    out = tmp_path / "run"
    with StandInChatServer(reply) as server:
        box.append(server)
        url = server.base_url.replace("http://", f"http://alice:{PASSWORD}@")
        argv = ["generate", "--model", "org/model-under-test", "--backend", "openai", "--base-url", url,
                "--dataset", str(dataset_dir), "--out-dir", str(out), "--limit", "1", "--generation-concurrency", "1"]
        main(argv)
        assert server.requests and server.requests[-1].headers["authorization"].startswith("Basic ")
    texts = stored_texts(out)
    assert "cannot serve" in texts["responses.jsonl"]
    assert_absent(base64.b64encode(f"alice:{PASSWORD}".encode()).decode(), texts)
    assert_absent(PASSWORD, texts)


def test_every_configured_url_gives_its_credentials_in_each_form_they_are_sent_in() -> None:
    settings = Settings(
        judge=JudgeSettings(base_url=f"http://alice:{PASSWORD}@judge.internal/v1"),
        generation=GenerationSettings(base_url="https://gpu.host/v1?api-key=QueryK3y-774"),
        hub=HubSettings(hf_endpoint="https://hub.internal/?token=HubT0ken-5521&region=eu"),
    )
    secrets = secrets_of(settings)
    basic = base64.b64encode(f"alice:{PASSWORD}".encode()).decode()
    assert {PASSWORD, basic, "QueryK3y-774", "HubT0ken-5521"} <= set(secrets)
    assert "alice" not in secrets and "eu" not in secrets  # a user name and a plain parameter are no secrets
    assert url_secrets("http://judge.internal/v1?api-version=2024-12-01") == []


def test_what_the_run_folder_writers_write_is_masked_and_the_rest_kept(tmp_path: Path) -> None:
    register_secrets([*url_secrets("https://gpu.host/v1?api-key=QueryK3y-774"), KEY])
    answer = "***Note:*** Basic training matters. The key QueryK3y-774 and " + KEY[3:15] + " were quoted."
    folder = RunFolder(tmp_path / "run")
    with JsonlAppender(folder.responses_path) as appender:
        appender.append({"response": answer, "nested": {"list": [answer, 3]}})
    write_json_atomic(folder.summary_path, {"note": answer})
    write_details(pd.DataFrame({"reason": [answer], "item_score": [0.5]}), folder.details_path)
    texts = stored_texts(folder.path)
    assert_absent("QueryK3y-774", texts)
    assert_absent(KEY, texts)
    for text in texts.values():
        assert "***Note:*** Basic training matters. The key *** and *** were quoted." in text
    assert mask_known_secrets({"n": 1.5, "t": None}) == {"n": 1.5, "t": None}


def test_a_placeholder_key_is_masked_in_logs_but_not_blanked_from_stored_text() -> None:
    """Local servers take any key ("EMPTY", "not-needed"): masking such a word in answers would blank every use of it."""
    register_secrets(["EMPTY", "not-needed", "stand-in", KEY])
    answer = "The stand-in row stays EMPTY; not-needed here. Key: " + KEY
    assert mask_known_secrets(answer) == "The stand-in row stays EMPTY; not-needed here. Key: ***"
    assert "stand-in" not in redact(answer) and KEY not in redact(answer)  # errors and logs: every registered value
