"""Arguments and helpers shared by several CLI commands."""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Iterator, Mapping

from eval_backend.settings import JudgeSettings, Settings

if TYPE_CHECKING:  # each command imports what it uses: `qa-score` alone should not load the run pipeline
    from tqdm import tqdm

    from eval_backend.benchmarks.plugin import Benchmark
    from eval_backend.dataset_loader import DatasetSpec
    from eval_backend.generation.generating import GenerationCallback
    from eval_backend.judging import ProgressCallback
    from eval_backend.pipeline import PhaseProgress


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1 (a count, a budget); argparse exits 2 on anything else."""
    return _whole_number(text, 1)


def non_negative_int(text: str) -> int:
    """An argparse type: an integer of at least 0 (a seed); argparse exits 2 on anything else."""
    return _whole_number(text, 0)


def _whole_number(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
    return value


def fraction(text: str) -> float:
    """An argparse type: a number in (0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 1, got {text}")
    return value


SQLITE_MAX_INT = 2**63 - 1


def request_id(text: str) -> int:
    """An argparse type: a queue request id (a positive integer that the database can hold)."""
    value = positive_int(text)
    if value > SQLITE_MAX_INT:
        raise argparse.ArgumentTypeError(f"too large for a request id (at most {SQLITE_MAX_INT})")
    return value


def add_benchmark_argument(parser: argparse.ArgumentParser) -> None:
    from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK

    parser.add_argument(
        "--benchmark", default=DEFAULT_BENCHMARK, choices=sorted(BENCHMARKS),
        help=f"benchmark to run (default {DEFAULT_BENCHMARK})",
    )


def add_dataset_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dataset", help="Hub dataset id or local folder in Hub layout (default: WB_DATASET or the benchmark's)")
    parser.add_argument("--dataset-revision", help="dataset revision (branch, tag or commit)")
    parser.add_argument("--configs", help="comma-separated configs (default: every config the dataset declares)")


def add_judge_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--concurrency", type=positive_int, help="judge calls in flight at most (default 32)")
    parser.add_argument("--judge-model", help="judge model or Azure deployment (default: JUDGE_MODEL or gpt-5.4)")
    parser.add_argument("--max-completion-tokens", type=positive_int, help="judge max_completion_tokens (default 8000)")


def add_judge_mode_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--judge-mode", choices=("live", "batch"),
        help="live calls, or the provider's Batch API: half the price, answers within 24 h (default: JUDGE_MODE or live)",
    )


def benchmark_of(args: argparse.Namespace) -> Benchmark:
    from eval_backend.benchmarks.registry import BENCHMARKS

    return BENCHMARKS[args.benchmark]


def dataset_spec(args: argparse.Namespace, settings: Settings, benchmark: Benchmark) -> DatasetSpec:
    """The dataset from the flags, else the benchmark's setting (WB_DATASET, QA_DATASET, …), else its default."""
    from eval_backend.dataset_loader import benchmark_dataset

    return benchmark_dataset(benchmark, settings.data, args.dataset, args.dataset_revision)


def configs_of(args: argparse.Namespace) -> list[str] | None:
    return [name.strip() for name in args.configs.split(",") if name.strip()] if args.configs else None


def judge_settings(args: argparse.Namespace, settings: Settings) -> JudgeSettings:
    """The judge settings with the command line's overrides applied."""
    overrides = {
        "concurrency": args.concurrency,
        "model": args.judge_model,
        "max_completion_tokens": args.max_completion_tokens,
        "mode": getattr(args, "judge_mode", None),
    }
    return settings.judge.model_copy(update={k: v for k, v in overrides.items() if v is not None})


def scored_run_report(benchmark: Benchmark, summary: Mapping[str, Any]) -> tuple[str, int]:
    """The CLI's line on a scored run, and its exit status."""
    from eval_backend.scorer_runs import describe_summary

    return describe_summary(benchmark, summary), _judging_exit_status(summary)


def _judging_exit_status(summary: Mapping[str, Any]) -> int:
    """A scored run's exit status: 1 when judgments failed for good (its figures leave those
    items out, so the run is incomplete), else 0. Pending ones (a batch still out) are not failures."""
    failed = (summary.get("counts") or {}).get("failed_judgments", 0)
    if failed:
        print(f"incomplete: {failed} judgments failed; `judge --retry-failed` on the folder asks again", file=sys.stderr)
        return 1
    return 0


def judging_progress_bar(description: str = "judging") -> ContextManager[ProgressCallback]:
    """A tqdm bar on stderr showing done / failed / tokens; yields the progress callback."""
    return _progress_bar(description, "call", lambda p: (p.done, p.total, {"failed": p.failed, "tokens": p.tokens}))


def generation_progress_bar(description: str = "generating") -> ContextManager[GenerationCallback]:
    """A tqdm bar on stderr showing items done / errors / output tokens; yields the progress callback."""
    return _progress_bar(
        description, "item", lambda p: (p.done, p.total, {"errors": p.errors, "tokens": p.output_tokens})
    )


@contextmanager
def _progress_bar(
    description: str, unit: str, read: Callable[[Any], tuple[int, int, dict[str, int]]]
) -> Iterator[Callable[[Any], None]]:
    """A tqdm bar whose callback takes a progress record; `read` gives its done, total and postfix."""
    bar = _new_bar(description, unit)

    def update(progress: Any) -> None:
        done, total, postfix = read(progress)
        _show(bar, done, total, **postfix)

    try:
        yield update
    finally:
        bar.close()


@contextmanager
def phase_progress_bars() -> Iterator[Callable[[PhaseProgress], None]]:
    """One tqdm bar per pipeline phase, each opened when its phase reports first; yields the callback."""
    bars: dict[str, tqdm] = {}

    def update(progress: PhaseProgress) -> None:
        if progress.phase not in bars:
            bars[progress.phase] = _new_bar(progress.phase, _PHASE_UNITS.get(progress.phase, "step"))
        _show(bars[progress.phase], progress.done, progress.total)

    try:
        yield update
    finally:
        for bar in bars.values():
            bar.close()


_PHASE_UNITS = {"generating": "item", "judging": "call"}


def _new_bar(description: str, unit: str) -> tqdm:
    from tqdm import tqdm

    return tqdm(total=0, desc=description, unit=unit, file=sys.stderr, dynamic_ncols=True)


def _show(bar: tqdm, done: int, total: int, **postfix: int) -> None:
    bar.total = total
    bar.n = done
    if postfix:
        bar.set_postfix(refresh=False, **postfix)
    bar.refresh()
