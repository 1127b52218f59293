"""`run`: generate, judge and score one model in one run folder, resumable at any point."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval_backend.cli.common import (
    add_benchmark_argument,
    add_dataset_arguments,
    add_judge_arguments,
    add_judge_mode_argument,
    benchmark_of,
    configs_of,
    dataset_spec,
    judge_settings,
    phase_progress_bars,
    scored_run_report,
)
from eval_backend.cli.generation_args import add_generation_arguments, generation_options, model_request
from eval_backend.cli.saraiki_args import add_saraiki_arguments, for_saraiki, task_configs
from eval_backend.pipeline import RunSpec, run_pipeline
from eval_backend.run_folder import RunFolder
from eval_backend.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="generate, judge and score a model: the full evaluation")
    add_benchmark_argument(parser)
    add_dataset_arguments(parser)
    add_generation_arguments(parser)
    add_saraiki_arguments(parser)
    parser.add_argument("--out-dir", type=Path, help="run folder (default: DATA_DIR/runs/<benchmark>/<org>__<name>/<revision>)")
    add_judge_arguments(parser)
    add_judge_mode_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings()
    benchmark = benchmark_of(args)
    benchmark, options = for_saraiki(
        args, benchmark, generation_options(args, settings, benchmark), settings.judge.configured
    )
    folder = (
        RunFolder(args.out_dir)
        if args.out_dir
        else RunFolder.for_model(
            settings.data.benchmark_runs_dir(benchmark.name), options.model, options.revision or "main"
        )
    )
    configs = task_configs(args) or configs_of(args)
    spec = RunSpec(benchmark, dataset_spec(args, settings, benchmark), folder, configs, args.limit)
    with phase_progress_bars() as on_progress:
        summary = run_pipeline(spec, model_request(options), options, judge_settings(args, settings), on_progress)
    line, status = scored_run_report(benchmark, summary)
    print(f"{line} -> {folder.summary_path}", file=sys.stderr)
    return status
