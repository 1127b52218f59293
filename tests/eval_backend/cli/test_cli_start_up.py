"""A command imports what it uses: `qa-score` without `--judge` loads neither the judge's HTTP
stack nor pandas, torch, gradio or datasets, so it starts in a fraction of a second.

Each case runs the CLI in a fresh interpreter (this test process has loaded everything already)
and reads which of those packages it imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from eval_backend.cli import build_parser, command_of
from tests.support.qa_corpus import write_corpus

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("pandas", "torch", "gradio", "datasets", "transformers", "openai", "aiohttp")


def imported_heavy(*argv: str, cwd: Path) -> tuple[int, list[str]]:
    """The CLI's exit status on `argv` and which of HEAVY it imported."""
    probe = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from eval_backend.cli import main\n"
        "try:\n"
        f"    status = main({list(argv)!r})\n"
        "except SystemExit as exit:\n"
        "    status = exit.code\n"
        f"print(json.dumps([status, sorted(set(sys.modules) & set({list(HEAVY)!r}))]))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd, timeout=120)
    status, modules = json.loads(done.stdout.strip().splitlines()[-1])
    return status, modules


def test_qa_score_help_imports_none_of_the_heavy_packages(tmp_path: Path) -> None:
    assert imported_heavy("qa-score", "--help", cwd=tmp_path) == (0, [])


def test_deterministic_qa_score_imports_none_of_the_heavy_packages(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "responses.csv", 200)
    status, modules = imported_heavy("qa-score", "--responses", str(corpus), "--out", str(tmp_path / "scored.csv"),
                                     cwd=tmp_path)
    assert (status, modules) == (0, [])
    assert (tmp_path / "scored.csv").stat().st_size > 0


def test_bad_input_to_qa_score_is_a_user_error_without_loading_the_judge(tmp_path: Path) -> None:
    (tmp_path / "responses.csv").write_bytes("question,answer\nq,a\n".encode("utf-16"))
    status, modules = imported_heavy("qa-score", "--responses", str(tmp_path / "responses.csv"), cwd=tmp_path)
    assert (status, modules) == (2, [])


@pytest.mark.parametrize(("argv", "command"), [
    (["qa-score", "--responses", "x.csv"], "qa-score"),
    (["-v", "run", "--model", "m"], "run"),
    (["--help"], None),
    ([], None),
])
def test_the_command_is_the_first_word_that_is_not_an_option(argv: list[str], command: str | None) -> None:
    assert command_of(argv) == command


def test_without_a_known_command_every_command_is_registered() -> None:
    help_text = build_parser("no-such-command").format_help()
    for command in ("judge", "score", "run", "qa-score", "queue", "worker", "hub", "compare", "migrate-runs"):
        assert command in help_text
