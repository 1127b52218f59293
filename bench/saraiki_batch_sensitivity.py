"""Saraiki on the transformers backend: how many greedy replies and figure points change with the batch.

One tiny random bf16 Llama and a local copy of the dataset (every config, `--rows` test rows,
one dev shot each) are run in `reference` mode (the card's script: one item at a time) and in
the default `fixed-batches` mode at batch sizes 1, 8 and 32, plus a second identical run at 8.
Per task: replies that differ from reference mode, and how far the task's figure moves
(percentage points; instruction following: prompt level; safety: refusal rate). The model's
generation stops at a third of its vocabulary, so replies are short and a run takes a minute.

    python bench/saraiki_batch_sensitivity.py [--rows 4] [--dtype bfloat16] [--record]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import publish  # noqa: E402
from eval_backend.benchmarks.saraiki.plugin import saraiki_benchmark  # noqa: E402
from eval_backend.dataset_loader import DatasetSpec  # noqa: E402
from eval_backend.generation.options import GenerationOptions  # noqa: E402
from eval_backend.pipeline import RunSpec, run_pipeline  # noqa: E402
from eval_backend.run_folder import RunFolder  # noqa: E402
from eval_backend.settings import JudgeSettings  # noqa: E402
from tests.support.saraiki_dataset import DEV_CONFIGS, saraiki_rows, write_saraiki_dataset, write_split  # noqa: E402
from tests.support.tiny_model import build_tiny_chat_model  # noqa: E402

FIGURE = {"instruction_following": "prompt_level", "safety": "refusal_rate"}
"""The figure of each task that is not an accuracy."""


@dataclasses.dataclass(frozen=True)
class RunResult:
    replies: dict[tuple[str, int], str | None]
    tasks: dict[str, dict[str, Any]]
    task_of: dict[tuple[str, int], str]


def run_mode(model: Path, dataset: Path, folder: Path, mode: str, batch_size: int, dtype: str) -> RunResult:
    """One raw-mode run of every task; its replies and its per-task figures."""
    benchmark = saraiki_benchmark(chat=False)
    options = GenerationOptions.for_benchmark(
        benchmark, str(model), backend="transformers", dtype=dtype, chat=False,
        decoding_mode=mode, batch_size=batch_size,
    )
    spec = RunSpec(benchmark, DatasetSpec(str(dataset)), RunFolder(folder))
    # Keywords classify the safety replies: the judge is never called.
    summary = run_pipeline(spec, {"model": str(model), "revision": None}, options, JudgeSettings(model="none"))
    responses = spec.folder.read_responses()
    items = {(line["config"], line["index"]): line["task"] for line in _item_lines(spec.folder)}
    return RunResult({key: record.response for key, record in responses.items()}, summary["tasks"], items)


def _item_lines(folder: RunFolder) -> list[dict[str, Any]]:
    import json

    return [json.loads(line) for line in folder.items_path.read_text(encoding="utf-8").splitlines()]


def compare(reference: RunResult, other: RunResult) -> dict[str, tuple[int, int, float]]:
    """Per task: (replies that differ, replies, figure points moved)."""
    table = {}
    for task in sorted(set(reference.task_of.values())):
        keys = [key for key, name in reference.task_of.items() if name == task]
        changed = sum(reference.replies[key] != other.replies.get(key) for key in keys)
        figure = FIGURE.get(task, "accuracy")
        before, after = reference.tasks[task].get(figure), other.tasks[task].get(figure)
        moved = abs((after or 0.0) - (before or 0.0)) if None not in (before, after) else float("nan")
        table[task] = (changed, len(keys), moved)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=4, help="test rows per config (default 4)")
    parser.add_argument("--dtype", default="bfloat16", help="model dtype (default bfloat16, the card's)")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        dataset = write_saraiki_dataset(root / "dataset", test_rows=args.rows)
        for config in DEV_CONFIGS:
            write_split(dataset, config, "dev", saraiki_rows(config, "dev", 1))
        model = build_tiny_chat_model(root / "model", chat_template=None, max_position_embeddings=2048,
                                      hidden_size=32, num_attention_heads=2, generation_eos_ids=range(10, 512, 3), repetition_penalty=100.0)
        reference = run_mode(model, dataset, root / "reference", "reference", 1, args.dtype)
        runs = {f"batch {size}": run_mode(model, dataset, root / f"b{size}", "fixed-batches", size, args.dtype)
                for size in (1, 8, 32)}
        again = run_mode(model, dataset, root / "b8-again", "fixed-batches", 8, args.dtype)
        rows = {}
        for name, result in runs.items():
            for task, (changed, total, moved) in compare(reference, result).items():
                rows[f"{task}, {name} vs reference"] = f"{changed}/{total} replies, {moved:.1f} points"
        for task, (changed, total, moved) in compare(runs["batch 8"], again).items():
            rows[f"{task}, batch 8 run twice"] = f"{changed}/{total} replies, {moved:.1f} points"
    publish(f"Saraiki: greedy replies against batch size ({args.dtype}, {args.rows} rows a config)", rows, args.record)


if __name__ == "__main__":
    main()
