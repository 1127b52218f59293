from __future__ import annotations

import pytest
from pydantic import SecretStr

from eval_backend.benchmarks.prompting import SamplingDefaults
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.select import resolve_backend


def test_defaults_are_the_benchmark_sampling() -> None:
    options = GenerationOptions(model="org/model")
    assert (options.temperature, options.top_p, options.top_k, options.max_tokens) == (0.7, 0.8, 20, 16000)


def test_for_benchmark_takes_its_sampling_and_ignores_unset_overrides() -> None:
    benchmark = BENCHMARKS["indic_writing_bench"]
    other = benchmark.__class__(**{**benchmark.__dict__, "sampling": SamplingDefaults(0.2, 0.9, 5, 300)})
    options = GenerationOptions.for_benchmark(other, "org/model", max_tokens=None, seed=7)
    assert (options.temperature, options.top_p, options.top_k, options.max_tokens, options.seed) == (
        0.2,
        0.9,
        5,
        300,
        7,
    )


def test_recorded_params_hold_no_key_and_no_endpoint() -> None:
    options = GenerationOptions(model="org/model", base_url="http://127.0.0.1:1/v1", api_key=SecretStr("sk-secret"))
    params = options.record_params()
    assert "api_key" not in params and "base_url" not in params
    assert "sk-secret" not in repr(options) and "sk-secret" not in str(params)
    assert params["model"] == "org/model" and params["top_k"] == 20


@pytest.mark.parametrize("bad", [{"backend": "tgi"}, {"max_tokens": 0}, {"batch_size": -1}, {"concurrency": 0}])
def test_bad_options_are_refused_naming_the_field(bad: dict) -> None:
    with pytest.raises(ValueError, match=next(iter(bad))):
        GenerationOptions(model="org/model", **bad)


def test_auto_backend_without_vllm_is_transformers_and_with_an_endpoint_is_openai(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *a: None if name == "vllm" else object())
    assert resolve_backend(GenerationOptions(model="m")) == "transformers"
    assert resolve_backend(GenerationOptions(model="m", base_url="http://127.0.0.1:1/v1")) == "openai"
    assert resolve_backend(GenerationOptions(model="m", backend="vllm")) == "vllm"
