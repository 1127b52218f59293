"""A benchmark declared only in tests (`tests.support.toy_translation`) runs on the engine's one path:
the CLI runs, scores and judges it, with coverage and an interval on its headline, and no shared code
names it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_backend.cli import main
from tests.support.chat_server import Reply, StandInChatServer, user_text
from tests.support.toy_translation import ROWS, registered, toy_judge_reply, write_toy_dataset

MODEL = "acme/translator-1b"
REFERENCES = {source: reference for rows in ROWS.values() for source, reference in rows}


def translator(body: dict) -> Reply:
    """Translates the Hindi sentences right and answers every Tamil one with an English echo."""
    source = user_text(body).rsplit("\n\n", 1)[-1]
    reference = REFERENCES[source]
    return Reply(content=reference if "Hindi" in user_text(body) else source)


@pytest.fixture
def toy_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TOY_DATASET", str(write_toy_dataset(tmp_path / "toy")))
    monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
    monkeypatch.setenv("OPENAI_API_KEY", "stand-in")
    monkeypatch.setenv("JUDGE_TRANSPORT_RETRIES", "0")
    with registered():
        yield tmp_path


def test_the_cli_runs_a_benchmark_that_only_declares_itself(toy_env: Path, monkeypatch) -> None:
    with StandInChatServer(translator) as model, StandInChatServer(toy_judge_reply()) as judge:
        monkeypatch.setenv("OPENAI_BASE_URL", judge.base_url)
        argv = ["run", "--benchmark", "toy_translation", "--model", MODEL, "--backend", "openai",
                "--base-url", model.base_url]
        assert main(argv) == 0
        assert len(judge.requests) == 7
    folder = toy_env / "data" / "runs" / "toy_translation" / "acme__translator-1b" / "main"
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["complete"] is True
    assert summary["coverage"]["expected"] == 7 and summary["coverage"]["scored"] == 7
    assert summary["metrics"]["adequacy"] == pytest.approx(100.0 * 4 / 7)
    assert summary["by_language"]["hindi"]["metrics"]["chrf"] == pytest.approx(100.0)
    # Every Hindi sentence is adequate and no Tamil one, and each language's size is fixed by design (the
    # bootstrap draws within it): the pooled adequacy cannot move, so its interval is the point itself.
    assert summary["intervals"]["adequacy"] == pytest.approx([100.0 * 4 / 7] * 2)
    assert summary["config_intervals"]["hindi"]["adequacy"] == pytest.approx([100.0, 100.0])
    low, high = summary["intervals"]["chrf"]
    assert low < summary["metrics"]["chrf"] < high
    assert set(summary["config_intervals"]) == {"hindi", "tamil"}
