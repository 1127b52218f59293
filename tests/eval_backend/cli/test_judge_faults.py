"""Faults while judging lose nothing: repeated kill -9, and a disk that fills up mid-run.

The runs a fault strikes are processes of their own (killed, or capped in what they may write); the
uninterrupted runs they are compared with, and the resumes after them, run in this process."""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.eval_backend.cli.test_judge_cmd import judgment_lines, run_judge, write_responses
from tests.support.chat_server import StandInChatServer

CONCURRENCY = 3


def judge_command(dataset_dir: Path, responses: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "eval_backend", "judge", "--dataset", str(dataset_dir), "--responses",
            str(responses), "--out-dir", str(out), "--concurrency", str(CONCURRENCY)]


def judge_settings(server: StandInChatServer) -> dict[str, str]:
    return {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-test", "JUDGE_MODEL": "stand-in-judge"}


def judge_env(server: StandInChatServer) -> dict[str, str]:
    return {**os.environ, **judge_settings(server)}


def judge_here(monkeypatch: pytest.MonkeyPatch, server: StandInChatServer, dataset_dir: Path, responses: Path,
               out: Path) -> None:
    """`judge_command` run to its end in this process, with the same settings."""
    for name, value in judge_settings(server).items():
        monkeypatch.setenv(name, value)
    assert run_judge(dataset_dir, responses, out, "--concurrency", str(CONCURRENCY)) == 0


def comparable_summary(out: Path) -> dict:
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    summary["provenance"].pop("created_at")
    summary["provenance"].pop("responses_file", None)
    return summary


def judged_keys(out: Path) -> list[tuple]:
    """What the stand-in judge decided, line by line (an earlier judge's lines left out)."""
    return [
        (l["config"], l["index"], l["criterion_index"], l["score"])
        for l in judgment_lines(out)
        if l["judge_model"] == "stand-in-judge"
    ]


def test_repeated_kill_9_ends_equal_to_an_uninterrupted_run(tmp_path, dataset_dir, items, monkeypatch) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    total = len(items) * 5
    rng = random.Random(1234)
    with StandInChatServer(latency_s=0.03) as server:
        env = judge_env(server)
        judge_here(monkeypatch, server, dataset_dir, responses, tmp_path / "clean")
        server.clear()
        out = tmp_path / "killed"
        kills = 0
        for threshold in sorted(rng.sample(range(3, total - 3), 3)):
            process = subprocess.Popen(judge_command(dataset_dir, responses, out), env=env, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 60
            while process.poll() is None and time.monotonic() < deadline and _lines(out) < threshold:
                time.sleep(0.005)
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                kills += 1
            process.wait()
        judge_here(monkeypatch, server, dataset_dir, responses, out)
        sent = server.stats.requests
    assert kills >= 2
    assert sorted(judged_keys(out)) == sorted(judged_keys(tmp_path / "clean"))
    assert len(judged_keys(out)) == total  # no judgment written twice
    assert total <= sent <= total + kills * CONCURRENCY  # only calls in flight at a kill were repeated
    assert comparable_summary(out) == comparable_summary(tmp_path / "clean")


def test_a_disk_filling_up_mid_run_is_a_clear_error_and_the_run_resumes_intact(
    tmp_path, dataset_dir, items, monkeypatch
) -> None:
    out = tmp_path / "run"
    with StandInChatServer() as server:
        env = judge_env(server)
        judge_here(monkeypatch, server, dataset_dir, write_responses(tmp_path / "first.jsonl", items[:2]), out)
        judge_here(monkeypatch, server, dataset_dir, write_responses(tmp_path / "all.jsonl", items), tmp_path / "clean")
        _add_an_earlier_judges_lines(out / "judgments.jsonl", min_bytes=2_000_000)
        before = (out / "judgments.jsonl").read_bytes()
        # A per-process file-size cap stands in for a full disk. Every file the run writes
        # before judging (the dataset's arrow cache included) stays far below it, while the
        # judgments file, already large, may grow by a line and a half: the second line is torn.
        limit = len(before) + 3 * len(before.splitlines()[-1]) // 2

        def full_disk() -> None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # get EFBIG from write() instead of a signal
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        failed = subprocess.run(judge_command(dataset_dir, tmp_path / "all.jsonl", out), env=env,
                                preexec_fn=full_disk, capture_output=True, text=True, timeout=120)
        assert failed.returncode == 1
        assert f"cannot write {out / 'judgments.jsonl'}: File too large" in failed.stderr
        assert "run the same command again" in failed.stderr
        after_failure = (out / "judgments.jsonl").read_bytes()
        assert after_failure.startswith(before)  # nothing already written was touched
        assert not after_failure.endswith(b"\n")  # a torn last line, for the resume to repair

        judge_here(monkeypatch, server, dataset_dir, tmp_path / "all.jsonl", out)
    assert sorted(judged_keys(out)) == sorted(judged_keys(tmp_path / "clean"))
    clean, resumed = comparable_summary(tmp_path / "clean"), comparable_summary(out)
    assert resumed["configs"] == clean["configs"] and resumed["counts"] == clean["counts"]


def _add_an_earlier_judges_lines(path: Path, min_bytes: int) -> None:
    """Put judgments by another judge model first, as in a folder re-judged by a new judge."""
    lines = path.read_text(encoding="utf-8").splitlines()
    earlier = [json.dumps({**json.loads(line), "judge_model": "earlier-judge"}, ensure_ascii=False) for line in lines]
    copies = min_bytes // len("\n".join(earlier)) + 1
    path.write_text("\n".join(earlier * copies + lines) + "\n", encoding="utf-8")


def _lines(out: Path) -> int:
    path = out / "judgments.jsonl"
    return path.read_bytes().count(b"\n") if path.exists() else 0
