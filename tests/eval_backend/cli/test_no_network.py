"""`run` and `score` of every benchmark reach nothing but the endpoints they were given.

Each command runs as its own process under the network guard (`tests.support.network_guard`):
every lookup or connection outside 127.0.0.1 is refused and recorded, with the Hub's offline
switches off, so a library that would phone home on a machine with internet is caught here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.chat_server import StandInChatServer, chat_reply, judge_reply
from tests.support.hub_dataset import write_writing_bench_dataset
from tests.support.hub_server import StandInHub, chat_model_files
from tests.support.network_guard import described, guarded_environment, outbound_attempts
from tests.support.qa_dataset import write_qa_dataset
from tests.support.qa_judge import qa_judge_reply
from tests.support.qa_runs import QA_JUDGE_MODEL, QA_PROFILES, qa_model_reply
from tests.support.saraiki_dataset import write_saraiki_dataset
from tests.support.tiny_model import build_tiny_chat_model

REPO = Path(__file__).resolve().parents[3]
TASKS = ("knowledge", "instruction_following")


def engine(log: Path, *argv: str, **env: str) -> None:
    """`python -m eval_backend ARGV` under the guard; fails with the command's stderr if it fails."""
    command = [sys.executable, "-m", "eval_backend", *argv]
    done = subprocess.run(command, cwd=REPO, env=guarded_environment(log) | env, capture_output=True, text=True,
                          timeout=240, check=False)
    assert done.returncode == 0, f"{argv[:3]} exited {done.returncode}:\n{done.stderr[-3000:]}"


def judge_variables(judge: StandInChatServer, model: str = "stand-in-judge") -> dict[str, str]:
    return {"OPENAI_BASE_URL": judge.base_url, "OPENAI_API_KEY": "stand-in", "JUDGE_MODEL": model,
            "JUDGE_TRANSPORT_RETRIES": "0"}


# A stand-in on 127.0.0.1, then the Hub by urllib, then the judge's default endpoint by aiohttp on uvloop (the
# judge transport's stack, which looks names up in libuv): each outside attempt is refused with the guard's words.
GUARD_CHECK = """
import asyncio, sys, urllib.request
import aiohttp, uvloop
urllib.request.urlopen(sys.argv[1] + "/api/models/sarvamai/sarvam-m", timeout=5)
try:
    urllib.request.urlopen("https://huggingface.co/api/models/sarvamai/sarvam-m", timeout=5)
except OSError as exc:
    print(exc)
async def judge():
    async with aiohttp.ClientSession() as session:
        await session.get("https://api.openai.com/v1/models")
try:
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(judge())
except OSError as exc:
    print(exc)
"""


def test_the_guard_refuses_and_records_outbound_attempts_and_lets_local_ones_through(tmp_path: Path) -> None:
    log = tmp_path / "network.jsonl"
    with StandInHub() as hub:
        hub.add_model("sarvamai/sarvam-m", chat_model_files())
        done = subprocess.run([sys.executable, "-c", GUARD_CHECK, hub.url], env=guarded_environment(log),
                              capture_output=True, text=True, timeout=60, check=False)
        assert [request.path for request in hub.recorded] == ["/api/models/sarvamai/sarvam-m"]  # 127.0.0.1 is let through
    assert done.returncode == 0, done.stderr
    assert "network guard: no lookup of 'huggingface.co'" in done.stdout
    assert "network guard: no lookup of 'api.openai.com'" in done.stdout
    assert [(attempt["event"], attempt["target"]) for attempt in outbound_attempts(log)] == [
        ("getaddrinfo", "('huggingface.co', 443)"), ("getaddrinfo", "('api.openai.com', 443)")]


def test_indic_writing_bench_run_and_score_stay_local(tmp_path: Path) -> None:
    log, out = tmp_path / "network.jsonl", tmp_path / "run"
    dataset = write_writing_bench_dataset(tmp_path / "dataset")
    with StandInChatServer(chat_reply()) as model, StandInChatServer(judge_reply()) as judge:
        engine(log, "run", "--model", "sarvamai/sarvam-m", "--backend", "openai", "--base-url", model.base_url,
               "--dataset", str(dataset), "--limit", "1", "--out-dir", str(out), **judge_variables(judge))
        engine(log, "score", "--out-dir", str(out))
    assert (out / "summary.json").exists()
    assert outbound_attempts(log) == [], described(outbound_attempts(log))


def test_indic_qa_run_and_score_stay_local(tmp_path: Path) -> None:
    log, out = tmp_path / "network.jsonl", tmp_path / "run"
    dataset = write_qa_dataset(tmp_path / "qa")
    with StandInChatServer(qa_model_reply(QA_PROFILES)) as model, StandInChatServer(qa_judge_reply()) as judge:
        engine(log, "run", "--benchmark", "indic_qa", "--model", QA_PROFILES[0].model_id, "--backend", "openai",
               "--base-url", model.base_url, "--out-dir", str(out), QA_DATASET=str(dataset),
               **judge_variables(judge, QA_JUDGE_MODEL))
        engine(log, "score", "--benchmark", "indic_qa", "--out-dir", str(out), QA_DATASET=str(dataset))
    assert (out / "summary.json").exists()
    assert outbound_attempts(log) == [], described(outbound_attempts(log))


def test_saraiki_run_and_score_stay_local(tmp_path: Path) -> None:
    # Two tasks in one run: a knowledge task, and instruction following, whose checkers load nltk data, which their
    # package downloads when missing. One run of both reaches every code path two runs of one task each did.
    log, out = tmp_path / "network.jsonl", tmp_path / "run"
    dataset = write_saraiki_dataset(tmp_path / "saraiki", test_rows=2)
    model = build_tiny_chat_model(tmp_path / "base-model", chat_template=None, max_position_embeddings=4096)
    with StandInChatServer() as judge:
        engine(log, "run", "--benchmark", "saraiki", "--model", str(model), "--backend", "transformers",
               "--dataset", str(dataset), "--tasks", ",".join(TASKS), "--limit", "1", "--max-tokens", "8",
               "--out-dir", str(out), **judge_variables(judge))
        engine(log, "score", "--benchmark", "saraiki", "--out-dir", str(out), SARAIKI_DATASET=str(dataset))
    assert set(TASKS) <= set(json.loads((out / "summary.json").read_text(encoding="utf-8"))["tasks"])
    assert outbound_attempts(log) == [], described(outbound_attempts(log))
