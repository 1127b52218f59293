"""Run folders of the test-only toy translation benchmark, written by the real engine's CLI: generation
and the adequacy judge are stand-in servers on 127.0.0.1, into `root/data/runs/toy_translation/`.

Each fake model translates by its own rule, so every figure is known in advance: one translates
every sentence (under a 100-character id), one only the Hindi ones (it echoes the English for
Tamil), one echoes every sentence, and one translates well but is run with `--limit 1`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

import pytest

from eval_backend.cli import main
from tests.support.chat_server import Reply, StandInChatServer, user_text
from tests.support.toy_translation import NAME, ROWS, registered, toy_judge_reply, write_toy_dataset

LONG_ID = "indic-translation-research-collective/" + "translator-with-a-very-long-descriptive-name-".ljust(62, "x")
TRANSLATOR, ECHO, LIMITED = "acme/translator-1b", "acme/echo-1b", "acme/limited-3b"
REFERENCES = {source: reference for rows in ROWS.values() for source, reference in rows}
Translate = Callable[[str, str], str]
"""(target language's prompt, source sentence) -> the model's reply."""
MODELS: Mapping[str, Translate] = {
    LONG_ID: lambda prompt, source: REFERENCES[source],
    TRANSLATOR: lambda prompt, source: REFERENCES[source] if "Hindi" in prompt else source,
    ECHO: lambda prompt, source: source,
    LIMITED: lambda prompt, source: REFERENCES[source],
}
LIMITS = {LIMITED: 1}


@dataclass(frozen=True)
class ToyData:
    data_dir: Path
    dataset_dir: Path

    @property
    def runs_dir(self) -> Path:
        return self.data_dir / "runs" / NAME


def translator(body: dict) -> Reply:
    """A generation endpoint serving every model of `MODELS`: the request's `model` picks who translates."""
    prompt = user_text(body)
    return Reply(content=MODELS[body["model"]](prompt, prompt.rsplit("\n\n", 1)[-1]))


def build_toy_runs(root: Path) -> ToyData:
    """Every model of `MODELS` run through `python -m eval_backend run --benchmark toy_translation`."""
    data = ToyData(root / "data", write_toy_dataset(root / "toy"))
    with pytest.MonkeyPatch.context() as env, registered(), StandInChatServer(translator) as model, \
            StandInChatServer(toy_judge_reply()) as judge:
        for name, value in {"DATA_DIR": str(data.data_dir), "TOY_DATASET": str(data.dataset_dir),
                            "JUDGE_MODEL": "stand-in-judge", "OPENAI_API_KEY": "stand-in",
                            "OPENAI_BASE_URL": judge.base_url, "JUDGE_TRANSPORT_RETRIES": "0"}.items():
            env.setenv(name, value)
        for model_id in MODELS:
            limit = ["--limit", str(LIMITS[model_id])] if model_id in LIMITS else []
            argv = ["run", "--benchmark", NAME, "--model", model_id, "--backend", "openai",
                    "--base-url", model.base_url, *limit]
            if main(argv) != 0:
                raise RuntimeError(f"the CLI failed to run the toy benchmark for {model_id}")
    return data
