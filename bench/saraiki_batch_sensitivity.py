"""Saraiki on the transformers backend: how many greedy replies and figure points change with the batch.

One tiny random bf16 Llama and a local copy of the dataset (every config, `--rows` test rows,
one dev shot each) are run in `reference` mode (the card's script: one item at a time) and in
the default `fixed-batches` mode at batch sizes 1, 8 and 32, and each mode twice at the same
setting. Per task: replies that differ, and how far the task's figure moves (percentage points;
instruction following: prompt level; safety: refusal rate). The model's generation config
suppresses its end tokens, so every reply runs to its task's token limit (8 to 1024 new
tokens): the lengths at which the issue saw batched bf16 replies diverge (53-230 tokens).

    python bench/saraiki_batch_sensitivity.py [--rows 4] [--dtype bfloat16] [--configs math,...] [--record]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from collections import Counter
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
    at_limit: dict[tuple[str, int], bool]  # the reply ran to its token limit (finish reason "length")


def run_mode(model: Path, dataset: Path, folder: Path, mode: str, batch_size: int, args: argparse.Namespace) -> RunResult:
    """One raw-mode run of every task; its replies and its per-task figures."""
    benchmark = saraiki_benchmark(chat=False)
    options = GenerationOptions.for_benchmark(
        benchmark, str(model), backend="transformers", dtype=args.dtype, chat=False,
        decoding_mode=mode, batch_size=batch_size,
    )
    spec = RunSpec(benchmark, DatasetSpec(str(dataset)), RunFolder(folder), configs=args.configs)
    # Keywords classify the safety replies: the judge is never called.
    summary = run_pipeline(spec, {"model": str(model), "revision": None}, options, JudgeSettings(model="none"))
    responses = spec.folder.read_responses()
    items = {(line["config"], line["index"]): line["task"] for line in _item_lines(spec.folder)}
    return RunResult({key: record.response for key, record in responses.items()}, summary["tasks"], items,
                     {key: record.finish_reason == "length" for key, record in responses.items()})


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


COMPARISONS = (
    ("fixed-batches 1 vs reference", "fixed-batches 1", "reference"),
    ("fixed-batches 8 vs 1", "fixed-batches 8", "fixed-batches 1"),
    ("fixed-batches 32 vs 1", "fixed-batches 32", "fixed-batches 1"),
    ("fixed-batches 8 vs reference", "fixed-batches 8", "reference"),
    ("fixed-batches 32 vs reference", "fixed-batches 32", "reference"),
    ("fixed-batches 8, run twice", "fixed-batches 8", "fixed-batches 8 again"),
    ("reference, run twice", "reference", "reference again"),
)
"""Each column of the table: its title, and the two runs it compares (replies changed, points moved)."""

RUNS = (("reference", "reference", 1), ("reference again", "reference", 1), ("fixed-batches 1", "fixed-batches", 1),
        ("fixed-batches 8", "fixed-batches", 8), ("fixed-batches 8 again", "fixed-batches", 8),
        ("fixed-batches 32", "fixed-batches", 32))
"""Each run: its name, decoding mode and batch size (reference mode is one item at a time whatever the size)."""


def main() -> None:
    args = parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        dataset = write_saraiki_dataset(root / "dataset", test_rows=args.rows)
        for config in DEV_CONFIGS:
            write_split(dataset, config, "dev", saraiki_rows(config, "dev", 1))
        model = build_tiny_chat_model(root / "model", chat_template=None, max_position_embeddings=2048,
                                      hidden_size=32, num_attention_heads=2, repetition_penalty=100.0, never_ends=True)
        runs = {}
        for name, mode, size in RUNS:
            started = time.perf_counter()
            runs[name] = run_mode(model, dataset, root / name.replace(" ", "-"), mode, size, args)
            print(f"{name}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    reference = runs["reference"]
    rows = {}
    for task, total in sorted(Counter(reference.task_of.values()).items()):
        keys = [key for key, name in reference.task_of.items() if name == task]
        rows[f"{task}: items, replies at their token limit"] = f"{total}, {sum(reference.at_limit[key] for key in keys)}"
        for title, left, right in COMPARISONS:
            changed, _, moved = compare(runs[right], runs[left])[task]
            rows[f"{task}: {title}"] = f"{changed} replies, {moved:.1f} points"
    publish(f"Saraiki: greedy replies against batch size ({args.dtype}, {args.rows} rows a config, "
            "replies to their token limits)", rows, args.record)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=4, help="test rows per config (default 4)")
    parser.add_argument("--dtype", default="bfloat16", help="model dtype (default bfloat16, the card's)")
    parser.add_argument("--configs", type=lambda text: text.split(","), help="comma-separated configs (default: all)")
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


if __name__ == "__main__":
    main()
