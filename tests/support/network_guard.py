"""Child processes under the network guard (`tests/support/no_network/sitecustomize.py`), and what they tried.

    env = guarded_environment(tmp_path / "network.jsonl")
    subprocess.run([sys.executable, "-m", "eval_backend", ...], env=env)
    assert outbound_attempts(tmp_path / "network.jsonl") == []

The offline switches that the test session sets (the Hub's, Gradio's analytics) are dropped, so the
guard, not a library's offline mode, is what keeps the network out: what an engine or app process would reach for on a
machine with internet is exactly what gets recorded.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

GUARD_DIR = Path(__file__).with_name("no_network")
OFFLINE_SWITCHES = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_TELEMETRY",
                    "GRADIO_ANALYTICS_ENABLED")


def guarded_environment(log: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """`base` (default: this process's environment) with the guard on, recording into `log`."""
    environment = {name: value for name, value in (base or os.environ).items() if name not in OFFLINE_SWITCHES}
    pythonpath = os.pathsep.join(filter(None, [str(GUARD_DIR), environment.get("PYTHONPATH")]))
    return {**environment, "PYTHONPATH": pythonpath, "NETWORK_GUARD_LOG": str(log)}


def outbound_attempts(log: Path) -> list[dict[str, Any]]:
    """Every lookup or connection outside the machine the guarded processes tried (each refused)."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def described(attempts: list[dict[str, Any]]) -> str:
    """The attempts, readable in an assertion message: process, target and where in the code."""
    return "\n".join(f"{attempt['argv']} {attempt['event']} {attempt['target']}\n{''.join(attempt['stack'][-4:])}"
                     for attempt in attempts)
