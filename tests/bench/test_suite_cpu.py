"""bench/suite_cpu.py counts the CPU of processes that time(1) cannot see, and names each kind."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench.suite_cpu import kind_of, run, table

RENDERER = ("/usr/lib/chromium/chromium --type=renderer --headless --no-sandbox --lang=en-US "
            "--enable-automation --renderer-client-id=7")


def test_each_process_is_named_by_its_kind() -> None:
    assert kind_of(RENDERER) == "Chromium renderers (pages drawn)"
    assert kind_of("/usr/lib/chromium/chromium --headless --no-sandbox --remote-debugging-pipe") == \
        "Chromium, other processes"
    assert kind_of("/work/main/.venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))") == \
        "pytest and its workers"
    assert kind_of("/work/main/.venv/bin/python app.py") == "app servers (app.py, stand-in apps)"
    assert kind_of("/work/main/.venv/bin/python -m eval_backend worker") == \
        "other Python (CLI, workers, benches, Jobs)"
    assert kind_of("/usr/lib/postgresql/15/bin/postgres -D /tmp/x") == "everything else"


def test_an_orphaned_grandchild_is_counted_where_the_reaped_children_miss_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # As a Chromium renderer is forked by a zygote: the command's own process never waits for it. The marker's
    # path is in the environment, not the command line, which would otherwise name pytest's temporary folder.
    done = tmp_path / "done"
    monkeypatch.setenv("BURNT", str(done))
    work = "import os; sum(range(3 * 10**7)); open(os.environ['BURNT'], 'w').close()"
    script = f"({sys.executable} -c \"{work}\" &); while [ ! -f \"$BURNT\" ]; do sleep 0.05; done"
    code, wall_s, seen, reaped_s = run(["bash", "-c", script], interval=0.05)
    assert code == 0 and done.exists()
    burner = [process for process in seen.values() if "sum(range" in process.command and "bash" not in process.command]
    assert len(burner) == 1 and burner[0].cpu_s > 0.2, seen
    assert reaped_s < burner[0].cpu_s  # time(1) would not see it: the subshell that started it never waited
    rows = table(wall_s, seen, reaped_s)
    assert any(name.startswith("other Python") for name in rows), rows
