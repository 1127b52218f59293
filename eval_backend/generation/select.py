"""Choosing and building the backend: `--backend auto` means vLLM on a GPU, else transformers."""

from __future__ import annotations

import importlib.util
import logging

from eval_backend.generation.base import Generator
from eval_backend.generation.openai_backend import OpenAIGenerator
from eval_backend.generation.options import GenerationOptions
from eval_backend.generation.transformers_backend import TransformersGenerator
from eval_backend.generation.vllm_backend import VllmGenerator

logger = logging.getLogger(__name__)

_GENERATORS: dict[str, type] = {
    "vllm": VllmGenerator,
    "transformers": TransformersGenerator,
    "openai": OpenAIGenerator,
}


def resolve_backend(options: GenerationOptions) -> str:
    """The backend `options` asks for; "auto" is openai given a base URL, vllm where it can run, else transformers."""
    if options.backend != "auto":
        return options.backend
    if options.base_url:
        return "openai"
    return "vllm" if _vllm_can_run() else "transformers"


def build_generator(options: GenerationOptions) -> Generator:
    """Load the model (or connect to its endpoint) with the resolved backend."""
    backend = resolve_backend(options)
    logger.info("generating with %s on the %s backend", options.model, backend)
    return _GENERATORS[backend](options)


def _vllm_can_run() -> bool:
    if importlib.util.find_spec("vllm") is None:
        return False
    import torch  # imported here: a CPU-only caller of resolve_backend need not pay for it

    return torch.cuda.is_available()
