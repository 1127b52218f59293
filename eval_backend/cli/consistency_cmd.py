"""`consistency`: re-judge a seeded sample of a run's judge verdicts and report how far the judge agrees."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval_backend.cli.common import (
    add_benchmark_argument,
    add_judge_arguments,
    benchmark_of,
    judge_settings,
    judging_progress_bar,
    positive_int,
)
from eval_backend.consistency import CONSISTENCY_FILE, check_consistency
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "consistency",
        help="re-judge a sample of the run's judge verdicts; report agreement with the run's",
    )
    add_benchmark_argument(parser)
    parser.add_argument("--out-dir", required=True, type=Path, help="the run folder (judged already)")
    parser.add_argument("--sample", required=True, type=positive_int, help="judge verdicts to re-judge, stratified by config")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    parser.add_argument("--reference-judge-model", help="the run's judge to compare with (default: its latest)")
    add_judge_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    folder, benchmark = RunFolder(args.out_dir), benchmark_of(args)
    verdicts = folder.path / benchmark.verdict_lines.file
    if not verdicts.is_file():
        raise RunFolderError(f"{verdicts}: no such file; judge the run first")
    judge = judge_settings(args, Settings())
    with folder.lock(), judging_progress_bar("re-judging") as on_progress:
        report = check_consistency(benchmark, folder, judge, args.sample, args.seed, args.reference_judge_model, on_progress)
    figures = report.overall
    print(
        f"{report.judge_model} vs {report.reference_judge_model} on {figures.pairs} verdicts "
        f"({report.failed} re-judgments failed): exact {_share(figures.exact)}, within ±1 {_share(figures.within_one)}, "
        f"Spearman {_number(figures.spearman)}, mean |difference| {_number(figures.mean_abs_diff)} "
        f"-> {folder.path / CONSISTENCY_FILE}",
        file=sys.stderr,
    )
    return 0


def _share(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"
