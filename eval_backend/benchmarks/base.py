"""What the engine needs to know about a rubric-judged benchmark, as one frozen record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from eval_backend.records import Item


class ItemValidationError(ValueError):
    """A dataset row lacks what the protocol needs; the message names config, index and field."""


@dataclass(frozen=True)
class SamplingDefaults:
    """The generation parameters a benchmark's authors suggest for the model under test."""

    temperature: float
    top_p: float
    top_k: int
    max_tokens: int


@dataclass(frozen=True)
class Benchmark:
    """A benchmark: where its data lives, how rows become items, how the judge is asked.

    Everything specific to one benchmark sits in its own module and is reached through
    this record, so the engine's loading, judging and scoring stay generic.
    """

    name: str
    title: str
    default_dataset: str
    split: str
    known_configs: tuple[str, ...]
    criteria_per_item: int
    sampling: SamplingDefaults
    record_to_item: Callable[[str, Mapping[str, Any]], Item]
    judged_text: Callable[[str], str]
    judge_messages: Callable[[Item, int, str], list[dict[str, str]]]
    row_fields: tuple[str, ...]
    """The dataset columns `record_to_item` reads; the others (long reference texts) are never loaded."""
    config_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Named sets of configs whose mean the summary reports (e.g. the Indic languages)."""
