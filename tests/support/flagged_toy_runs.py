"""A board of the test-only toy benchmark with every kind of row flag, written by the real engine's CLI.

Generation and the adequacy judge are stand-in servers on 127.0.0.1 (`toy_runs`), the dataset is
five Hindi (Devanagari) and five Saraiki (Shahmukhi, right-to-left) sentences, so a run of all ten
items has enough for its interval. One run per flag, and two without any:

- CLEAN_ID (100 characters) translates every sentence: no flag;
- CUT_OFF_ID (100 characters) opens a thinking block it never closes on every Saraiki sentence;
- OTHER_JUDGE_ID is judged by another judge model than the other runs;
- OLD_DATASET_ID ran before one reference of the dataset was corrected (an older revision);
- FEW_ITEMS_ID ran on a dataset of one sentence per language (complete, but two items);
- PRE_MODE_ID's replies were generated before the decoding mode was recorded (its Mode is blank).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

import pytest

from eval_backend.cli import main
from eval_backend.run_folder import RunFolder, iter_run_folders
from tests.support.chat_server import Reply, StandInChatServer, user_text
from tests.support.toy_translation import NAME, registered, toy_judge_reply, write_toy_dataset

__all__ = ["CLEAN_ID", "CUT_OFF_ID", "FEW_ITEMS_ID", "FlaggedToy", "OLD_DATASET_ID", "OTHER_JUDGE_ID", "PRE_MODE_ID",
           "ROWS", "build_flagged_toy"]

CLEAN_ID = "indic-translation-research-collective/" + "clean-translator-with-a-long-descriptive-name-".ljust(62, "x")
CUT_OFF_ID = "indic-translation-research-collective/" + "thinking-translator-cut-off-mid-thought-".ljust(62, "y")
OTHER_JUDGE_ID = "judged-elsewhere/other-judge-translator-9b"
OLD_DATASET_ID = "early-bird/translator-on-an-old-revision-3b"
FEW_ITEMS_ID = "tiny-eval/one-sentence-per-language-1b"
PRE_MODE_ID = "acme/translator-before-decoding-modes-2b"
JUDGE, OTHER_JUDGE = "stand-in-judge", "another-judge-model"
ROWS: Mapping[str, Sequence[tuple[str, str]]] = {
    "hindi": (
        ("The river is wide.", "नदी चौड़ी है।"),
        ("I drink tea every morning.", "मैं हर सुबह चाय पीता हूँ।"),
        ("The train is late today.", "आज ट्रेन देर से है।"),
        ("Books are on the table.", "किताबें मेज़ पर हैं।"),
        ("The children are playing outside.", "बच्चे बाहर खेल रहे हैं।"),
    ),
    "saraiki": (
        ("The river is wide.", "دریا چوڑا اے۔"),
        ("I drink tea every morning.", "میں ہر سویل چاہ پیندا ہاں۔"),
        ("The train is late today.", "اڄ ریل لیٹ اے۔"),
        ("Books are on the table.", "کتاباں میز تے پیاں ہن۔"),
        ("The children are playing outside.", "ٻال ٻاہر کھیڈدے پئے ہن۔"),
    ),
}
OLD_ROWS = {**ROWS, "hindi": (("The river is wide.", "नदी बहुत चौड़ी है।"), *ROWS["hindi"][1:])}
"""The dataset before its first Hindi reference was corrected: another revision of the same dataset."""
FEW_ROWS = {config: rows[:1] for config, rows in ROWS.items()}
Translate = Callable[[str, str], str]
"""(the prompt's target language, source sentence) -> the model's reply."""


def _reference(language: str, source: str) -> str:
    return dict(ROWS[language.lower()])[source]


def _cut_off(language: str, source: str) -> str:
    if language == "Saraiki":
        return "<think>\nپہلے لفظاں دا مطلب سوچاں، ول ترجمہ"  # never closed: the answer ends inside its thinking
    return _reference(language, source)


MODELS: Mapping[str, Translate] = {
    **{model: _reference for model in (CLEAN_ID, OTHER_JUDGE_ID, OLD_DATASET_ID, FEW_ITEMS_ID, PRE_MODE_ID)},
    CUT_OFF_ID: _cut_off,
}


@dataclass(frozen=True)
class FlaggedToy:
    """The data folder (DATA_DIR) and the dataset the app is told of (TOY_DATASET)."""

    data_dir: Path
    dataset_dir: Path

    @property
    def runs_dir(self) -> Path:
        return self.data_dir / "runs" / NAME

    def run_id(self, model: str) -> str:
        """The run id of `model`'s run (at its default revision)."""
        return next(f"{folder.path.parent.name}/{folder.path.name}" for folder in iter_run_folders(self.runs_dir)
                    if folder.read_request()["model"] == model)


def translator(body: dict) -> Reply:
    """A generation endpoint serving every model of `MODELS`: the request's `model` picks who translates."""
    prompt = user_text(body)
    language = prompt.removeprefix("Translate into ").split(".", 1)[0]
    return Reply(content=MODELS[body["model"]](language, prompt.rsplit("\n\n", 1)[-1]))


def build_flagged_toy(root: Path) -> FlaggedToy:
    """Every model of `MODELS` run through `python -m eval_backend run --benchmark toy_translation`, the old one
    first on the old revision; then PRE_MODE_ID's replies lose their decoding mode and it is scored again."""
    root = Path(root)
    data = FlaggedToy(root / "data", write_toy_dataset(root / "toy", OLD_ROWS))
    few = write_toy_dataset(root / "toy-few", FEW_ROWS)
    with pytest.MonkeyPatch.context() as env, registered(), StandInChatServer(translator) as model, \
            StandInChatServer(toy_judge_reply()) as judge:
        for name, value in {"DATA_DIR": str(data.data_dir), "OPENAI_API_KEY": "stand-in",
                            "OPENAI_BASE_URL": judge.base_url, "JUDGE_TRANSPORT_RETRIES": "0"}.items():
            env.setenv(name, value)

        def run(model_id: str, dataset: Path, judge_model: str = JUDGE) -> None:
            env.setenv("TOY_DATASET", str(dataset))
            env.setenv("JUDGE_MODEL", judge_model)
            argv = ["run", "--benchmark", NAME, "--model", model_id, "--backend", "openai", "--base-url", model.base_url]
            if main(argv) != 0:
                raise RuntimeError(f"the CLI failed to run the toy benchmark for {model_id}")

        run(OLD_DATASET_ID, data.dataset_dir)
        write_toy_dataset(data.dataset_dir, ROWS)  # the reference corrected: a newer revision
        for model_id in (CLEAN_ID, CUT_OFF_ID, PRE_MODE_ID):
            run(model_id, data.dataset_dir)
        run(OTHER_JUDGE_ID, data.dataset_dir, OTHER_JUDGE)
        run(FEW_ITEMS_ID, few)
        _forget_decoding_mode(RunFolder(data.runs_dir / data.run_id(PRE_MODE_ID)))
        if main(["score", "--benchmark", NAME, "--out-dir", str(data.runs_dir / data.run_id(PRE_MODE_ID))]) != 0:
            raise RuntimeError("the CLI failed to score the run again")
    return data


def _forget_decoding_mode(folder: RunFolder) -> None:
    """responses.jsonl as written before replies recorded their decoding mode."""
    lines = [json.loads(line) for line in folder.responses_path.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        (line.get("generation") or {}).pop("decoding_mode", None)
    folder.responses_path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                                     encoding="utf-8")
