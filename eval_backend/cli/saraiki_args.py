"""The Saraiki benchmark's own flags: `--chat` / `--no-chat`, `--tasks`, `--refusal-classifier`.

`--chat` asks every prompt as one user message in the model's chat template, `--no-chat` sends
it raw (the script's `CHAT` flag); without either, a model with a chat template is asked in
chat and one without raw (an OpenAI-compatible endpoint: chat, its server holds the template).
The choice is recorded in request.json (`generation.chat`) and in every item.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.saraiki.plugin import NAME, saraiki_benchmark
from eval_backend.benchmarks.saraiki.tasks import CONFIGS, TASKS_BY_NAME
from eval_backend.generation.options import GenerationOptions
from eval_backend.submissions.model_facts import hub_model_facts, local_model_facts

REFUSAL_CLASSIFIERS = ("keywords", "judge")


class BenchmarkOptionError(ValueError):
    """A benchmark's own flag used with another benchmark, or given a value it does not take."""


def add_saraiki_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("Saraiki benchmark (--benchmark saraiki)")
    mode = group.add_mutually_exclusive_group()
    mode.add_argument("--chat", dest="chat", action="store_true", default=None,
                      help="ask each prompt as one user message in the model's chat template")
    mode.add_argument("--no-chat", dest="chat", action="store_false",
                      help="send each prompt as raw text (base models)")
    group.add_argument("--tasks", help=f"comma-separated tasks (default all): {', '.join(CONFIGS)}")
    group.add_argument("--refusal-classifier", choices=REFUSAL_CLASSIFIERS,
                       help="how safety replies are classified: the LLM judge (default when a judge is "
                       "configured) or the keyword rules (the default otherwise)")


def for_saraiki(
    args: argparse.Namespace, benchmark: Benchmark, options: GenerationOptions, judge_configured: bool
) -> tuple[Benchmark, GenerationOptions]:
    """The benchmark and options of this run: Saraiki's in the chosen mode; others unchanged.

    Safety replies go to the LLM judge when one is configured (`judge_configured`) unless
    `--refusal-classifier keywords` says otherwise; without a judge, to the keyword rules."""
    if benchmark.name != NAME:
        used = [flag for flag, value in (("--chat/--no-chat", args.chat), ("--tasks", args.tasks),
                                         ("--refusal-classifier", args.refusal_classifier)) if value is not None]
        if used:
            raise BenchmarkOptionError(f"{', '.join(used)}: only for --benchmark {NAME}, not {benchmark.name}")
        return benchmark, options
    chat = args.chat if args.chat is not None else _has_chat_template(options)
    classifier = args.refusal_classifier or ("judge" if judge_configured else "keywords")
    run_benchmark = saraiki_benchmark(chat=chat, refusal_judge=classifier == "judge")
    return run_benchmark, dataclasses.replace(options, chat=chat)


def task_configs(args: argparse.Namespace) -> list[str] | None:
    """The configs `--tasks` names (`truthfulness` and `safety` are both in `truthfulness_safety`)."""
    if not args.tasks:
        return None
    configs = []
    for name in (part.strip() for part in args.tasks.split(",") if part.strip()):
        config = TASKS_BY_NAME[name].config if name in TASKS_BY_NAME else name
        if config not in CONFIGS:
            raise BenchmarkOptionError(f"--tasks: no Saraiki task {name!r}; the tasks are {', '.join(CONFIGS)}")
        configs.append(config)
    if args.configs:
        raise BenchmarkOptionError("give --tasks or --configs, not both")
    return list(dict.fromkeys(configs))


def _has_chat_template(options: GenerationOptions) -> bool:
    if options.backend == "openai" or options.base_url:
        return True  # the endpoint applies its model's template to chat requests
    folder = Path(options.model)
    if folder.is_dir():
        return local_model_facts(folder).has_chat_template
    from huggingface_hub import HfApi

    return hub_model_facts(options.model, options.revision or "main", HfApi()).has_chat_template
