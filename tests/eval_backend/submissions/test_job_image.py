"""The Dockerfile of the Jobs' image, linted without Docker: instructions, pins and paths agree with the repository."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from eval_backend.cli import COMMANDS

REPO_ROOT = Path(__file__).resolve().parents[3]
INSTRUCTIONS = {"FROM", "WORKDIR", "ENV", "COPY", "RUN", "ENTRYPOINT", "CMD", "ARG", "LABEL", "USER"}


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of each instruction, continuation lines joined, comments left out."""
    text = (REPO_ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    parsed = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            parsed.append((word, rest.strip()))
    return parsed


def test_every_instruction_is_known_and_the_image_starts_from_vllm_at_the_pinned_version() -> None:
    parsed = instructions()
    assert {word for word, _ in parsed} <= INSTRUCTIONS, [word for word, _ in parsed if word not in INSTRUCTIONS]
    assert parsed[0][0] == "FROM"
    pinned = re.search(r"^vllm==(\S+)$", (REPO_ROOT / "requirements-gpu.txt").read_text(), re.MULTILINE)
    assert pinned and parsed[0][1] == f"vllm/vllm-openai:v{pinned.group(1)}"


def test_what_it_copies_exists_and_it_installs_the_gpu_requirements() -> None:
    parsed = instructions()
    for word, rest in parsed:
        if word == "COPY":
            *sources, _ = shlex.split(rest)
            assert all((REPO_ROOT / source).exists() for source in sources), rest
    runs = " ".join(rest for word, rest in parsed if word == "RUN")
    assert "-r requirements-gpu.txt" in runs and "grep -v -E '^(torch|gradio)=='" in runs
    wheel = re.search(r"NLTK_DATA_WHEEL := (\S+)", (REPO_ROOT / "Makefile").read_text())
    assert wheel and wheel.group(1) in runs  # the same nltk data as `make install`


def test_its_command_is_the_job_run_command_and_no_server_entrypoint_remains() -> None:
    parsed = dict(instructions())
    assert json.loads(parsed["ENTRYPOINT"]) == []
    command = json.loads(parsed["CMD"])
    assert command[:3] == ["python", "-m", "eval_backend"] and command[3] in COMMANDS
