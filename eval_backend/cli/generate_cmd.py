"""`generate`: run the model under test on every item into a run folder's responses.jsonl."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval_backend.cli.common import (
    add_benchmark_argument,
    add_dataset_arguments,
    benchmark_of,
    configs_of,
    dataset_spec,
    generation_progress_bar,
)
from eval_backend.cli.generation_args import (
    add_generation_arguments,
    generation_options,
    generation_report,
    model_request,
)
from eval_backend.cli.saraiki_args import add_saraiki_arguments, for_saraiki, task_configs
from eval_backend.pipeline import RunSpec, generate_phase, load_run_items, pin_run, record_run
from eval_backend.run_folder import RunFolder
from eval_backend.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("generate", help="generate the model's responses into a run folder")
    add_benchmark_argument(parser)
    add_dataset_arguments(parser)
    add_generation_arguments(parser)
    add_saraiki_arguments(parser)
    parser.add_argument("--out-dir", required=True, type=Path, help="run folder to write (resumed if it exists)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings()
    benchmark = benchmark_of(args)
    benchmark, options = for_saraiki(
        args, benchmark, generation_options(args, settings, benchmark), settings.judge.configured
    )
    spec = RunSpec(
        benchmark, dataset_spec(args, settings, benchmark), RunFolder(args.out_dir),
        task_configs(args) or configs_of(args), args.limit,
    )
    spec = pin_run(spec)
    items = load_run_items(spec)
    with spec.folder.lock():
        record_run(spec, items, model_request(options))
        with generation_progress_bar() as on_progress:
            progress = generate_phase(spec, items, options, on_progress)
    print(generation_report(progress, len(items), spec.folder.responses_path), file=sys.stderr)
    return 0
