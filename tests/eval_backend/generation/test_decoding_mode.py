"""The decoding modes: which a run may ask for, and which backends run `reference`."""

from __future__ import annotations

import pytest

from eval_backend.generation.base import GenerationConfigError
from eval_backend.generation.decoding_mode import refuse_reference_mode
from eval_backend.generation.openai_backend import OpenAIGenerator
from eval_backend.generation.options import GenerationOptions


@pytest.mark.parametrize("backend", ["vllm", "openai"])
def test_reference_mode_is_refused_off_transformers_naming_the_backend_to_use(backend: str) -> None:
    with pytest.raises(GenerationConfigError, match=f"needs --backend transformers, not {backend}"):
        refuse_reference_mode("reference", backend)


def test_the_openai_backend_refuses_reference_mode_before_any_call() -> None:
    options = GenerationOptions(model="m", backend="openai", base_url="http://127.0.0.1:9/v1", decoding_mode="reference")
    with pytest.raises(GenerationConfigError, match="reference"):
        OpenAIGenerator(options)


def test_an_unknown_mode_is_refused_naming_the_modes() -> None:
    with pytest.raises(ValueError, match="fixed-batches, reference"):
        GenerationOptions(model="m", decoding_mode="sorted")


def test_the_mode_and_the_batch_size_are_recorded() -> None:
    params = GenerationOptions(model="m", batch_size=8).record_params()
    assert (params["decoding_mode"], params["batch_size"]) == ("fixed-batches", 8)
