"""The flags that say which model to generate with and how, shared by `generate` and `run`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.cli.common import fraction, positive_int
from eval_backend.generation.decoding_mode import DECODING_MODES
from eval_backend.generation.generating import GenerationProgress
from eval_backend.generation.options import BACKENDS, GenerationOptions
from eval_backend.settings import Settings


def add_generation_arguments(parser: argparse.ArgumentParser) -> None:
    """--model and the backend and sampling flags; unset flags keep the benchmark's defaults."""
    parser.add_argument("--model", required=True, help="model under test: Hub id or local folder")
    parser.add_argument("--revision", help="model revision (branch, tag or commit)")
    parser.add_argument(
        "--backend",
        default="auto",
        choices=BACKENDS,
        help="auto: vllm when installed with a GPU visible, openai with --base-url, else transformers",
    )
    parser.add_argument("--max-tokens", type=positive_int, help="output token budget per item (default: the benchmark's, 16000)")
    parser.add_argument("--limit", type=positive_int, help="first N items of each config only (smoke runs)")
    parser.add_argument("--dtype", help="weights dtype: auto, bfloat16, float16, float32 (default auto)")
    parser.add_argument("--seed", type=int, help="sampling seed (default 0)")
    parser.add_argument("--batch-size", type=positive_int, help="items per backend call (transformers 8, vllm 1024)")
    parser.add_argument(
        "--decoding-mode",
        choices=DECODING_MODES,
        help="fixed-batches (default): each item always meets the same batch (vllm: its batch-invariant "
        "kernels); reference: transformers only, the seed script's one-at-a-time generation",
    )
    parser.add_argument("--tensor-parallel-size", type=positive_int, help="vllm: GPUs per model (default: all visible)")
    parser.add_argument("--max-model-len", type=positive_int, help="context length to use (default: the model's)")
    parser.add_argument("--gpu-memory-utilization", type=fraction, help="vllm: share of GPU memory to use (default 0.9)")
    parser.add_argument("--base-url", help="openai backend: the endpoint (default: GENERATION_BASE_URL)")
    parser.add_argument("--generation-concurrency", type=positive_int, help="openai backend: requests in flight (default 16)")
    parser.add_argument(
        "--reasoning",
        action="store_true",
        default=None,
        help="the model's template opens <think> itself: flag answers that never close it",
    )


def generation_options(args: argparse.Namespace, settings: Settings, benchmark: Benchmark) -> GenerationOptions:
    """The options from the flags, the environment (endpoint and key) and the benchmark's sampling."""
    return GenerationOptions.for_benchmark(
        benchmark,
        args.model,
        revision=args.revision,
        backend=args.backend,
        max_tokens=args.max_tokens,
        dtype=args.dtype,
        seed=args.seed,
        batch_size=args.batch_size,
        decoding_mode=args.decoding_mode,
        tensor_parallel_size=args.tensor_parallel_size,
        max_model_len=args.max_model_len,
        gpu_memory_utilization=args.gpu_memory_utilization,
        base_url=args.base_url or settings.generation.base_url,
        api_key=settings.generation.api_key,
        max_connection_failures=settings.generation.max_connection_failures,
        concurrency=args.generation_concurrency,
        reasoning=args.reasoning,
    )


def model_request(options: GenerationOptions) -> dict[str, Any]:
    """What request.json records of the model under test."""
    return {"model": options.model, "revision": options.revision, "generation": options.record_params()}


def generation_report(progress: GenerationProgress, items: int, folder: Path) -> str:
    """One line on what a generation pass did, with its throughput."""
    seconds = max(progress.elapsed_s, 1e-9)
    rate = (
        f" in {progress.elapsed_s:.1f}s ({progress.done / seconds:.2f} items/s, "
        f"{progress.output_tokens / seconds:.1f} output tokens/s)"
        if progress.done
        else ""
    )
    return (
        f"generated {progress.done} responses ({progress.errors} errors, {progress.output_tokens} output tokens)"
        f"{rate}; {items - progress.total} of {items} items were already done -> {folder}"
    )
