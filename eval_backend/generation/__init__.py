"""Step A of the protocol: run the model under test on every item's query (vLLM, transformers, or an endpoint)."""

from eval_backend.generation.base import GenerationConfigError
from eval_backend.generation.options import GenerationOptions

__all__ = ["GenerationConfigError", "GenerationOptions"]
