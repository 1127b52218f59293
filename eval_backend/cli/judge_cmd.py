"""`judge`: judge a file of responses against a dataset into a run folder, then score it."""

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
    judging_progress_bar,
    scored_run_report,
)
from eval_backend.dataset_loader import index_items
from eval_backend.pipeline import (
    RunSpec,
    import_responses,
    judge_run_configs,
    load_run_items,
    pin_run,
    record_run,
    score_phase,
)
from eval_backend.responses_input import ResponsesInputError, read_responses_file
from eval_backend.run_folder import RunFolder
from eval_backend.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("judge", help="judge responses and write judgments, summary and details")
    add_benchmark_argument(parser)
    add_dataset_arguments(parser)
    parser.add_argument("--responses", required=True, type=Path, help='JSONL of {"config", "index", "response"}')
    parser.add_argument("--out-dir", required=True, type=Path, help="run folder to write (resumed if it exists)")
    parser.add_argument("--model", help="the model that wrote the responses, as the leaderboard should name it")
    parser.add_argument("--revision", help="that model's revision (commit sha, branch or tag)")
    add_judge_arguments(parser)
    add_judge_mode_argument(parser)
    parser.add_argument(
        "--retry-failed", action="store_true",
        help="send again the judgments that failed for good (invalid answers, a rejected request)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings()
    benchmark = benchmark_of(args)
    configs = configs_of(args)
    judge = judge_settings(args, settings)
    if not args.responses.is_file():
        raise ResponsesInputError(f"{args.responses}: no such responses file")
    spec = pin_run(RunSpec(benchmark, dataset_spec(args, settings, benchmark), RunFolder(args.out_dir), configs))
    request = {"responses_file": str(args.responses), "model": args.model, "revision": args.revision,
               "judge_mode": judge.mode}
    # Every input is read and checked before the run folder is touched.
    items = load_run_items(spec)
    single_config = configs[0] if configs and len(configs) == 1 else None
    responses = read_responses_file(args.responses, index_items(items).keys(), single_config)
    with spec.folder.lock():
        record_run(spec, items, {key: value for key, value in request.items() if value is not None})
        added = import_responses(spec.folder, responses)
        print(f"{len(responses)} responses read, {added} new or changed", file=sys.stderr)
        del items, responses  # judged config by config from the dataset: the queries are not held meanwhile
        with judging_progress_bar() as on_progress:
            progress = judge_run_configs(spec, judge, on_progress, retry_failed=args.retry_failed)
        summary = score_phase(spec, judge.model)
    line, status = scored_run_report(benchmark, summary)
    print(f"judged {progress.done} calls ({progress.failed} failed); {line} -> {spec.folder.summary_path}",
          file=sys.stderr)
    return status
