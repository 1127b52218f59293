"""`estimate`: the judge tokens and cost of a run before it is made."""

from __future__ import annotations

import argparse
from itertools import chain
from pathlib import Path

from eval_backend.cli.common import (
    add_benchmark_argument,
    add_dataset_arguments,
    benchmark_of,
    configs_of,
    dataset_spec,
    positive_int,
)
from eval_backend.cost import estimate_for_calls, estimate_for_items
from eval_backend.dataset_loader import load_items, resolve_configs
from eval_backend.judge_calls import VerdictBook, by_config
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "estimate",
        help="estimate judge tokens and cost, live and in batch mode (JUDGE_PRICE_INPUT_PER_M, JUDGE_PRICE_OUTPUT_PER_M, JUDGE_BATCH_DISCOUNT)",
    )
    add_benchmark_argument(parser)
    add_dataset_arguments(parser)
    parser.add_argument("--limit", type=positive_int, help="first N items of each config")
    parser.add_argument(
        "--out-dir", type=Path, help="a run folder with responses: estimate only the judge calls it still owes"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings()
    benchmark = benchmark_of(args)
    spec = dataset_spec(args, settings, benchmark)
    items = load_items(benchmark, spec, resolve_configs(spec, configs_of(args)), args.limit)
    folder = _run_folder(args.out_dir)
    if folder and folder.responses_path.exists():
        groups = by_config(items)
        book = VerdictBook(benchmark, folder, list(groups), groups.__getitem__)
        estimate = estimate_for_calls(chain.from_iterable(book.owed(settings.judge.model, False)), settings.cost)
        basis = f"the responses in {folder.path}"
    else:
        estimate = estimate_for_items(benchmark, items, settings.cost)
        basis = f"answers of ~{settings.cost.response_chars} characters"
    print(f"{len(items)} items; judge {settings.judge.model}; estimated from {basis}:")
    print(estimate.describe())
    return 0


def _run_folder(path: Path | None) -> RunFolder | None:
    """The `--out-dir` folder, which must exist: a mistyped one would silently estimate the whole dataset."""
    if path is None:
        return None
    if not path.is_dir():
        raise RunFolderError(f"run folder {path} does not exist (or is not a folder); check --out-dir, or leave it out "
                             "to estimate the whole dataset")
    return RunFolder(path)
