"""What to generate with: the model under test, the backend, and the sampling parameters.

One frozen record shared by the CLI, the queue's worker and the pipeline. The sampling
defaults are the benchmark's suggested ones (temperature 0.7, top_p 0.8, top_k 20,
max_tokens 16000 for Indic WritingBench; greedy for the QA benchmark); `for_benchmark`
takes them, stop strings included, from any benchmark.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import SecretStr

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.generation.decoding_mode import DECODING_MODES, DecodingMode

BackendName = Literal["auto", "vllm", "transformers", "openai"]
BACKENDS: tuple[str, ...] = ("auto", "vllm", "transformers", "openai")
EXECUTORS: tuple[str, ...] = ("mp", "ray")

_DEFAULT_SAMPLING = BENCHMARKS[DEFAULT_BENCHMARK].sampling

# Fields that say how to reach the model, not what it was asked: kept out of the run folder.
# The batch size is recorded: batched greedy replies depend on it (see `decoding_mode`).
_NOT_RECORDED = frozenset({"api_key", "base_url", "concurrency", "gpu_memory_utilization",
                           "max_connection_failures"})


@dataclass(frozen=True)
class GenerationOptions:
    """How the model under test is run; every field but `model` has a usable default.

    `backend="auto"` picks vLLM when it is installed and a GPU is visible, else transformers
    (or the OpenAI-compatible endpoint when `base_url` is set). `reasoning=True` says the
    model thinks before answering even when its output does not open a `<think>` tag itself
    (its chat template opens it), so an output without `</think>` is flagged as unfinished.
    """

    model: str
    revision: str | None = None
    backend: BackendName = "auto"
    dtype: str = "auto"
    max_tokens: int = _DEFAULT_SAMPLING.max_tokens
    temperature: float = _DEFAULT_SAMPLING.temperature
    top_p: float = _DEFAULT_SAMPLING.top_p
    top_k: int = _DEFAULT_SAMPLING.top_k
    seed: int | None = 0
    batch_size: int | None = None
    tensor_parallel_size: int | None = None
    pipeline_parallel_size: int | None = None
    distributed_executor_backend: str | None = None
    """vLLM's executor: "mp" (one host) or "ray" (a Ray cluster spanning hosts, for a model larger than one)."""
    max_model_len: int | None = None
    gpu_memory_utilization: float = 0.9
    concurrency: int = 16
    max_connection_failures: int = 20
    """openai backend: connections to the endpoint failed this many times in a row stop the run (it is down)."""
    base_url: str | None = None
    api_key: SecretStr | None = dataclasses.field(default=None, repr=False)
    reasoning: bool = False
    stop: tuple[str, ...] = ()
    chat: bool = True
    """The prompts are chat turns, so a model without a chat template is refused; False for a
    run of raw-text prompts (the Saraiki benchmark's `--no-chat`), which accepts one."""
    decoding_mode: str = DecodingMode.FIXED_BATCHES.value
    """How batching is kept from changing greedy replies (`eval_backend.generation.decoding_mode`):
    "fixed-batches", or "reference" for the transformers backend's seed-script reproduction."""

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown generation backend {self.backend!r}; expected one of {', '.join(BACKENDS)}")
        if self.max_tokens <= 0:
            raise ValueError(f"max_tokens must be positive, got {self.max_tokens}")
        for name in ("batch_size", "tensor_parallel_size", "pipeline_parallel_size", "max_model_len"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive, got {value}")
        if self.decoding_mode not in DECODING_MODES:
            raise ValueError(f"unknown decoding_mode {self.decoding_mode!r}; expected one of {', '.join(DECODING_MODES)}")
        for name in ("concurrency", "max_connection_failures"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if self.distributed_executor_backend not in (None, *EXECUTORS):
            raise ValueError(
                f"unknown distributed executor {self.distributed_executor_backend!r}; expected one of {', '.join(EXECUTORS)}"
            )

    @classmethod
    def for_benchmark(cls, benchmark: Benchmark, model: str, **overrides: Any) -> GenerationOptions:
        """Options with `benchmark`'s sampling defaults; `overrides` set to None are ignored."""
        sampling = benchmark.sampling
        values: dict[str, Any] = {
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "top_k": sampling.top_k,
            "max_tokens": sampling.max_tokens,
            "stop": sampling.stop,
        }
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(model=model, **values)

    def record_params(self) -> dict[str, Any]:
        """What the run folder keeps of these options: the parameters, never the key or endpoint."""
        return {
            field.name: getattr(self, field.name)
            for field in dataclasses.fields(self)
            if field.name not in _NOT_RECORDED
        }
