"""The command the empty board suggests puts a row on the board from this machine alone, run as it is shown.

The text is taken from `EMPTY_STATE`; only its `<placeholders>` are filled (a local dataset folder, a file of
answers, a model id, the port of a stand-in judge on 127.0.0.1). It runs as its own process under the network
guard, so any attempt to reach the Hub or a hosted judge is refused and recorded.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from eval_backend.settings import DataSettings
from leaderboard.results import ResultsStore
from eval_backend.benchmarks.writing_bench.board import EMPTY_STATE
from tests.support.chat_server import StandInChatServer, judge_reply
from tests.support.hub_dataset import DatasetShape, write_writing_bench_dataset
from tests.support.network_guard import described, guarded_environment, outbound_attempts

REPO = Path(__file__).resolve().parents[2]
ORG = "ai4bharat-indic-evaluations"
MODEL = "IndicWriter-ہندی-தமிழ்-" + "x" * (100 - len(ORG) - 1 - len("IndicWriter-ہندی-தமிழ்-"))
"""A 100-character model id with Shahmukhi and Tamil letters in it."""
ANSWERS = ["हिंदी में एक निबंध: सुबह की धूप।", "हिंदी में दूसरा निबंध: बारिश के बाद।"]


def shown_command() -> str:
    """The command block of the empty state, its line continuations joined."""
    block = re.search(r"```\n(.*?)```", EMPTY_STATE, re.DOTALL)
    assert block, "the empty state shows no command"
    return block.group(1).replace("\\\n", " ")


def test_the_suggested_first_command_puts_a_run_on_the_board_offline(tmp_path: Path) -> None:
    dataset = write_writing_bench_dataset(tmp_path / "dataset", DatasetShape(configs={"Hindi": len(ANSWERS)}))
    answers = tmp_path / "responses.jsonl"
    answers.write_text("".join(json.dumps({"config": "Hindi", "index": index, "response": text}, ensure_ascii=False)
                               + "\n" for index, text in enumerate(ANSWERS)), encoding="utf-8")
    log, work = tmp_path / "network.jsonl", tmp_path / "work"
    work.mkdir()
    with StandInChatServer(judge_reply()) as judge:
        filled = {"<port>": str(judge.port), "<judge-model>": "stand-in-judge", "<dataset-folder>": str(dataset),
                  "<responses.jsonl>": str(answers), "<org>": ORG, "<model>": MODEL}
        text = re.sub(r"<[^<>\s]+>", lambda found: filled[found.group(0)], shown_command())
        words = shlex.split(text)
        assignments = dict(word.split("=", 1) for word in words[:3])
        argv = words[3:]
        assert argv[:3] == ["python", "-m", "eval_backend"], argv
        environment = guarded_environment(log)
        # Run from a folder of its own (its data/ is the board's), the checkout importable as from inside it.
        environment["PYTHONPATH"] = os.pathsep.join([str(REPO), environment["PYTHONPATH"]])
        done = subprocess.run([sys.executable, *argv[1:]], cwd=work, env=environment | assignments,
                              capture_output=True, text=True, timeout=240, check=False)
        assert done.returncode == 0, f"{text}\nexited {done.returncode}:\n{done.stderr[-3000:]}"
        assert judge.requests, "the judge on 127.0.0.1 was not asked"
    assert outbound_attempts(log) == [], described(outbound_attempts(log))
    runs = ResultsStore(DataSettings(data_dir=work / "data").benchmark_runs_dir("indic_writing_bench")).snapshot()
    assert runs.problems == () and [(run.model, run.revision) for run in runs.runs] == [(f"{ORG}/{MODEL}", "main")]
