"""Two processes on one run folder: the second is refused at once, and no judge call is paid twice."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from eval_backend.cli import main
from tests.eval_backend.cli.test_judge_cmd import judgment_lines, write_responses
from tests.support.chat_server import StandInChatServer


def _lines(path: Path) -> int:
    return len(path.read_bytes().splitlines()) if path.exists() else 0


@pytest.mark.parametrize("second", ["judge", "score"])
def test_a_second_process_on_a_busy_run_folder_is_refused_and_nothing_is_done_twice(
    tmp_path, dataset_dir, items, monkeypatch, capsys, second
) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    out = tmp_path / "run"
    judge_args = ["judge", "--dataset", str(dataset_dir), "--responses", str(responses), "--out-dir", str(out),
                  "--concurrency", "1"]
    with StandInChatServer(latency_s=0.05) as server:
        env = {**os.environ, "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-test",
               "JUDGE_MODEL": "stand-in-judge"}
        for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "JUDGE_MODEL"):
            monkeypatch.setenv(name, env[name])
        first = subprocess.Popen([sys.executable, "-m", "eval_backend", *judge_args], env=env, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while _lines(out / "judgments.jsonl") < 2 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert first.poll() is None, "the first run ended before the second could start"

        args = judge_args if second == "judge" else ["score", "--out-dir", str(out)]
        assert main(args) == 2
        assert first.poll() is None  # refused at once, while the first still runs
        err = capsys.readouterr().err
        assert f"run folder {out} is in use by pid {first.pid} on " in err

        assert first.wait(timeout=120) == 0
        sent = server.stats.requests
    lines = judgment_lines(out)
    assert len(lines) == len(items) * 5 == sent  # every call made and paid once
    assert len({(l["config"], l["index"], l["criterion_index"]) for l in lines}) == len(lines)
