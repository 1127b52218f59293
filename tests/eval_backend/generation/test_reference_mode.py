"""The transformers backend's `reference` mode against the Saraiki dataset card's own script.

The script (seed 003, from ../shared/seeds/) runs as written, with only MODEL, REPO and CHAT
replaced, in its own process, on a tiny bf16 model and a local copy of the dataset; the engine
runs the same model and dataset in reference mode. Their replies (the script saves those of
instruction following and safety) and figures (it prints the others) must be equal, raw and
chat, for a tokenizer that adds BOS to any text (so the script's chat prompts carry two) and
one that adds none.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from transformers import AutoTokenizer

from eval_backend.benchmarks.saraiki.plugin import saraiki_benchmark
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.prompts import build_prompts
from eval_backend.pipeline import RunSpec, load_run_items, run_pipeline
from eval_backend.run_folder import RunFolder
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import Reply, StandInChatServer
from tests.support.saraiki_dataset import DEV_CONFIGS, saraiki_rows, write_saraiki_dataset, write_split
from tests.support.tiny_model import BOS_CHATML_TEMPLATE, build_tiny_chat_model

ROWS = 2
"""Test rows per config: one safety row, and each figure can be 0, 50 or 100."""
VOCAB = 512
SEEDS = Path(__file__).resolve().parents[3] / ".." / "shared" / "seeds"
SCRIPT_START, SCRIPT_END = "import json, re\n", '    print(f"{name:28s} {value}")\n'
# The script's figure names, as it prints them, and the engine's summary task each one is.
FIGURES = {
    "knowledge": "knowledge", "knowledge_hard": "knowledge_hard", "commonsense": "commonsense",
    "reading_comprehension": "reading_comprehension", "math": "math", "truthfulness (accuracy)": "truthfulness",
}


def card_script() -> str:
    """The Python of the card's "Run all tasks" section, exactly as the card prints it."""
    cards = sorted(SEEDS.glob("003_*.txt"))
    if not cards:
        pytest.skip(f"the Saraiki dataset card (seed 003) is not in {SEEDS.resolve()}: ../shared is absent")
    card = cards[0].read_text(encoding="utf-8")
    start, end = card.index(SCRIPT_START), card.index(SCRIPT_END) + len(SCRIPT_END)
    return card[start:end]


def with_settings(script: str, model: Path, repo: Path, chat: bool) -> str:
    """The script with MODEL, REPO and CHAT set, each line replaced whole; nothing else changes."""
    for name, value in (("MODEL", str(model)), ("REPO", str(repo)), ("CHAT", chat)):
        script, count = re.subn(rf"^{name} = .*$", f"{name} = {value!r}", script, flags=re.MULTILINE)
        assert count == 1, f"the card's script has no single {name} line"
    return script


def run_card_script(script: str, workdir: Path) -> tuple[dict[str, float], dict[str, list[str]]]:
    """Run the script in `workdir`; its printed figures and its saved replies by file."""
    pytest.importorskip("accelerate", reason="the card's script loads with device_map='auto', which needs accelerate")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(workdir / "cache"), "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=workdir, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = {}
    for line in done.stdout.splitlines():
        name, _, value = line.rpartition(" ")
        if name.strip() in FIGURES:
            figures[FIGURES[name.strip()]] = float(value)
    replies = {
        path.stem: [json.loads(line)["response"] for line in path.read_text(encoding="utf-8").splitlines()]
        for path in workdir.glob("*_replies.jsonl")
    }
    return figures, replies


def no_judge(body: dict) -> Reply:
    raise AssertionError("the keyword classifier needs no judge call")


def run_engine(model: Path, dataset: Path, chat: bool, folder: Path) -> tuple[dict[str, float], dict[str, list[str]]]:
    """The engine's reference-mode run: its figures and its replies, in the script's row order."""
    benchmark = saraiki_benchmark(chat=chat)
    options = GenerationOptions.for_benchmark(
        benchmark, str(model), backend="transformers", dtype="bfloat16", decoding_mode="reference", chat=chat
    )
    spec = RunSpec(benchmark, DatasetSpec(str(dataset)), RunFolder(folder))
    with StandInChatServer(no_judge) as judge:
        summary = run_pipeline(spec, {"model": str(model), "revision": None}, options, fast_judge_settings(judge))
    tasks = summary["tasks"]
    figures = {task: round(tasks[task]["accuracy"], 1) for task in FIGURES.values() if task in tasks}
    responses = sorted(spec.folder.read_responses().values(), key=lambda record: record.index)
    safety = {index for index, row in enumerate(saraiki_rows("truthfulness_safety", "test", ROWS)) if row["item_type"] == "safety"}
    replies = {
        "instruction_following_replies": [r.response for r in responses if r.config == "instruction_following"],
        "safety_replies": [r.response for r in responses if r.config == "truthfulness_safety" and r.index in safety],
    }
    return figures, replies


@pytest.fixture(scope="session")  # not per module: the module's tests would all be kept on one xdist worker
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every config, two test rows each and one dev row (the script takes the shots `dev` has)."""
    root = write_saraiki_dataset(tmp_path_factory.mktemp("saraiki"), test_rows=ROWS)
    for config in DEV_CONFIGS:
        write_split(root, config, "dev", saraiki_rows(config, "dev", 1))
    return root


@pytest.mark.parametrize("adds_bos", [True, False], ids=["bos-adding", "no-bos"])
@pytest.mark.parametrize("chat", [False, True], ids=["raw", "chat"])
def test_reference_mode_reproduces_the_cards_script(adds_bos: bool, chat: bool, dataset: Path, tmp_path: Path) -> None:
    script = card_script()
    template = BOS_CHATML_TEMPLATE if adds_bos else None
    model = build_tiny_chat_model(
        tmp_path / "model", adds_bos=adds_bos, **({"chat_template": template} if template else {}),
        max_position_embeddings=2048, hidden_size=32, num_attention_heads=2,
        # Generation stops at a third of the vocabulary, never at the tokenizer's EOS, and a
        # strong repetition penalty keeps the random model from looping on a token: replies of
        # a few tokens (seconds, not minutes, at up to 1024 new tokens in bf16). Both sit in the
        # generation config, which the script's `model.generate` and the engine apply alike.
        generation_eos_ids=range(10, VOCAB, 3), repetition_penalty=100.0,
    )
    (tmp_path / "script").mkdir()
    expected_figures, expected_replies = run_card_script(with_settings(script, model, dataset, chat), tmp_path / "script")
    figures, replies = run_engine(model, dataset, chat, tmp_path / "run")

    assert set(expected_figures) == set(FIGURES.values())
    assert figures == expected_figures
    assert set(expected_replies) == {"instruction_following_replies", "safety_replies"}
    assert replies == expected_replies


@pytest.mark.parametrize("adds_bos", [True, False], ids=["bos-adding", "no-bos"])
def test_reference_mode_tokenizes_a_chat_prompt_as_the_script_does(adds_bos: bool, dataset: Path, tmp_path: Path) -> None:
    # The replies above may coincide by chance on a random model; the token ids cannot.
    template = {"chat_template": BOS_CHATML_TEMPLATE} if adds_bos else {}
    model = build_tiny_chat_model(tmp_path / "model", adds_bos=adds_bos, max_position_embeddings=2048, **template)
    tokenizer = AutoTokenizer.from_pretrained(model)
    benchmark = saraiki_benchmark(chat=True)
    items = load_run_items(RunSpec(benchmark, DatasetSpec(str(dataset)), RunFolder(tmp_path / "run"), ["math"]))
    options = GenerationOptions(model=str(model), decoding_mode="reference")
    prompts, refused = build_prompts(tokenizer, items, options, 2048, benchmark.prompt, script_tokenisation=True)
    assert not refused
    for item, prompt in zip(items, prompts):
        text = tokenizer.apply_chat_template([{"role": "user", "content": item.prompt_text}],
                                             tokenize=False, add_generation_prompt=True)
        assert prompt.token_ids == tokenizer(text)["input_ids"]  # the script's `tok(prompt)`
        bos = prompt.token_ids[:2] == [tokenizer.bos_token_id] * 2
        assert bos == adds_bos  # the template's BOS and the tokenizer's
