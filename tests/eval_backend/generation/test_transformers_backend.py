"""The real transformers backend on CPU, through the pipeline's generate phase, on tiny models."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from eval_backend.benchmarks.saraiki.plugin import saraiki_benchmark
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.base import GenerationConfigError
from eval_backend.generation.generating import GenerationProgress
from eval_backend.generation.options import GenerationOptions
from eval_backend.jsonl import read_jsonl
from eval_backend.pipeline import RunSpec, generate_phase, load_run_items, prepare_run, score_phase
from eval_backend.run_folder import RunFolder
from tests.eval_backend.generation.conftest import SHORT_CONTEXT
from tests.support.saraiki_dataset import write_saraiki_dataset
from tests.support.tiny_model import build_tiny_chat_model


def _options(model: Path, **overrides: object) -> GenerationOptions:
    return GenerationOptions(**{"model": str(model), "backend": "transformers", "max_tokens": 8, **overrides})


def test_generates_one_response_per_item_with_its_parameters(
    tiny_model: Path, run_spec: RunSpec, items: list[Item]
) -> None:
    chosen = items[:3]
    progress = generate_phase(run_spec, chosen, _options(tiny_model, batch_size=2))

    responses = run_spec.folder.read_responses()
    assert set(responses) == {item.key for item in chosen}
    assert (progress.total, progress.done, progress.errors) == (3, 3, 0)
    for item in chosen:
        record = responses[item.key]
        assert record.id == item.id and record.error is None
        assert isinstance(record.response, str)
        assert record.finish_reason in ("stop", "length")
        assert 1 <= record.output_tokens <= 8
        assert record.finish_reason == "stop" or record.output_tokens == 8
        assert record.generation["backend"] == "transformers"
        assert record.generation["max_tokens"] == 8
        assert (record.generation["temperature"], record.generation["top_p"], record.generation["top_k"]) == (
            0.7,
            0.8,
            20,
        )
    assert progress.output_tokens == sum(r.output_tokens for r in responses.values())


def test_a_prompt_longer_than_the_context_is_an_error_for_its_item_only(
    short_context_model: Path, run_spec: RunSpec, items: list[Item]
) -> None:
    short = dataclasses.replace(items[0], query="Write a poem.")
    long = items[1]  # hundreds of tokens: the dataset's queries carry reference text
    generate_phase(run_spec, [short, long], _options(short_context_model, max_tokens=1000))

    responses = run_spec.folder.read_responses()
    refused = responses[long.key]
    assert refused.response is None and refused.output_tokens is None
    assert refused.error is not None
    assert refused.error.startswith("prompt of ") and refused.error.endswith(
        f"does not fit the context of {SHORT_CONTEXT}"
    )
    answered = responses[short.key]
    assert answered.error is None
    # The budget was cut from 1000 to what the context leaves after the prompt.
    assert answered.generation["max_tokens"] < SHORT_CONTEXT
    assert answered.output_tokens <= answered.generation["max_tokens"]


def test_a_model_without_a_chat_template_is_refused(
    templateless_model: Path, run_spec: RunSpec, items: list[Item]
) -> None:
    with pytest.raises(GenerationConfigError, match="has no chat template"):
        generate_phase(run_spec, items[:1], _options(templateless_model))
    assert not run_spec.folder.responses_path.exists()


def test_an_interrupted_generation_resumes_without_generating_anything_twice(
    tiny_model: Path, run_spec: RunSpec, items: list[Item]
) -> None:
    chosen = items[:5]

    def interrupt_after_first_batch(progress: GenerationProgress) -> None:
        if progress.done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate_phase(run_spec, chosen, _options(tiny_model, batch_size=2), interrupt_after_first_batch)
    first_pass = [line for _, line in read_jsonl(run_spec.folder.responses_path)]
    assert len(first_pass) == 2

    progress = generate_phase(run_spec, chosen, _options(tiny_model, batch_size=2))
    assert progress.total == 3

    lines = [line for _, line in read_jsonl(run_spec.folder.responses_path)]
    keys = [(line["config"], line["index"]) for line in lines]
    assert sorted(keys) == sorted(item.key for item in chosen)  # each item exactly once
    assert lines[:2] == first_pass  # what was finished is kept as it was

    assert generate_phase(run_spec, chosen, _options(tiny_model)).total == 0


@pytest.fixture(scope="module")
def saraiki_spec_of(tmp_path_factory: pytest.TempPathFactory):
    """A run spec over two items each of Saraiki tasks with token limits 8, 256 and 512 (1024
    is left out for time: instruction following is no different)."""
    dataset = write_saraiki_dataset(tmp_path_factory.mktemp("saraiki"), test_rows=2)

    def spec(folder: Path, configs: tuple[str, ...] = ("knowledge", "math", "truthfulness_safety")) -> RunSpec:
        return RunSpec(saraiki_benchmark(chat=False), DatasetSpec(str(dataset)), RunFolder(folder), list(configs))

    return spec


@pytest.fixture(scope="module")
def long_context_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Room for a 5-shot Shahmukhi prompt (byte-level: ~2 tokens a letter) and 1024 new tokens."""
    return build_tiny_chat_model(tmp_path_factory.mktemp("long-model"), max_position_embeddings=4096)


def test_every_item_of_a_mixed_batch_gets_its_own_token_limit(
    long_context_model: Path, saraiki_spec_of, tmp_path: Path
) -> None:
    spec = saraiki_spec_of(tmp_path / "run")
    items = load_run_items(spec)
    limits = {item.key: item.max_tokens for item in items}
    assert set(limits.values()) == {8, 256, 512}  # truthfulness_safety alone holds 8 and 512
    options = GenerationOptions.for_benchmark(
        spec.benchmark, str(long_context_model), backend="transformers", batch_size=32, chat=False
    )
    generate_phase(spec, items, options)

    responses = spec.folder.read_responses()
    assert set(responses) == set(limits)
    for key, record in responses.items():
        assert record.generation["max_tokens"] == limits[key], key
        assert record.generation["decoding_mode"] == "fixed-batches" and record.generation["batch_size"] == 32
        # A reply ends at a stop token or at its own limit, never at another item's.
        assert record.finish_reason == "stop" or record.output_tokens == limits[key], (key, record.output_tokens)
    assert {record.output_tokens for record in responses.values()} & {256, 512}


def test_fixed_batches_give_an_item_the_same_reply_whatever_else_the_run_holds(
    long_context_model: Path, saraiki_spec_of, tmp_path: Path
) -> None:
    spec = saraiki_spec_of(tmp_path / "whole", ("knowledge", "commonsense"))
    items = load_run_items(spec)
    options = GenerationOptions.for_benchmark(
        spec.benchmark, str(long_context_model), backend="transformers", batch_size=2, chat=False
    )
    generate_phase(spec, items, options)
    alone = dataclasses.replace(spec, folder=RunFolder(tmp_path / "reversed"))
    generate_phase(alone, list(reversed(items)), options)

    first, second = spec.folder.read_responses(), alone.folder.read_responses()
    assert {key: record.response for key, record in first.items()} == {
        key: record.response for key, record in second.items()
    }


def test_the_summary_records_the_decoding_mode(long_context_model: Path, saraiki_spec_of, tmp_path: Path) -> None:
    spec = saraiki_spec_of(tmp_path / "run", ("knowledge",))
    options = GenerationOptions.for_benchmark(
        spec.benchmark, str(long_context_model), backend="transformers", chat=False, decoding_mode="reference"
    )
    generate_phase(spec, prepare_run(spec, {"model": str(long_context_model)}), options)
    assert score_phase(spec, None)["decoding_mode"] == "reference"
