"""What the engine needs to know about a rubric-judged benchmark, as one frozen record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from eval_backend.benchmarks.no_answer import NoAnswerPolicy, ScorerValues
from eval_backend.benchmarks.plugin import JudgeScorer, Metric, RuleScorer
from eval_backend.benchmarks.prompting import Prompt, SamplingDefaults
from eval_backend.records import Item, ItemMeta, item_meta_from_dict
from eval_backend.verdict_lines import VerdictLines

if TYPE_CHECKING:
    from eval_backend.benchmarks.item_statistics import ItemStatistics

__all__ = ["FLOOR_SCORE", "RUBRIC_FLOOR", "RUBRIC_SCORER", "Benchmark", "ItemValidationError", "SamplingDefaults"]

FLOOR_SCORE = 1
"""The rubric's lowest score, given on every criterion of an item the model did not answer."""
RUBRIC_SCORER = "rubric"
"""The rubric judge's name, as a no-answer policy names it."""


def _floor(item: Any) -> ScorerValues:
    return {RUBRIC_SCORER: {"score": FLOOR_SCORE}}


RUBRIC_FLOOR = NoAnswerPolicy(
    "An item the model did not answer (its prompt does not fit its context, an empty answer) scores the "
    f"rubric's floor, {FLOOR_SCORE}, on every criterion, with no judge call.",
    judges=_floor,
)


class ItemValidationError(ValueError):
    """A dataset row lacks what the protocol needs; the message names config, index and field."""


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
    judges: tuple[JudgeScorer, ...]
    """Its judge scorers, as every benchmark declares them: the rubric judge, fanned out over the criteria."""
    verdict_lines: VerdictLines
    """Its verdict file's line shape (judgments.jsonl)."""
    row_fields: tuple[str, ...]
    """The dataset columns `record_to_item` reads; the others (long reference texts) are never loaded."""
    config_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Named sets of configs whose mean the summary reports (e.g. the Indic languages)."""
    description: str = ""
    dataset_setting: str = "WB_DATASET"
    """The environment variable naming its dataset (Hub id or local folder)."""
    metrics: tuple[Metric, ...] = (Metric("overall", "Overall", "score 1–10"),)
    headline: str = "overall"
    index_from_position: bool = False
    no_answer: NoAnswerPolicy = RUBRIC_FLOOR
    """What an item the model did not answer scores: the rubric's floor on every criterion."""
    shots_split: str | None = None
    """Declared as every benchmark declares it (`ScoredBenchmark`); the rubric benchmark has no shots."""
    shot_counts: Mapping[str, int] = field(default_factory=dict)
    in_mode: Callable[[bool], Benchmark] | None = None
    """Declared as every benchmark declares it; None: its prompts are chat turns only."""
    item_statistics: Callable[[], ItemStatistics] | None = None
    """As every benchmark declares it (`ScoredBenchmark.item_statistics`)."""
    rules: tuple[RuleScorer, ...] = ()
    """As every benchmark declares them; the rubric benchmark has no rule scorers."""
    item_from_meta: Callable[[Mapping[str, Any]], ItemMeta] = item_meta_from_dict
    """items.jsonl read back: an `ItemMeta`, the item without its query."""
    judged_from_folder: bool = False
    """False: items.jsonl lacks the ~20 KB queries a judge prompt holds, so judging reads the dataset again."""
    kind: str = "rubric"

    def prompt(self, item: Item) -> Prompt:
        """The model is asked the item's query as one user turn, verbatim."""
        return Prompt.user(item.query)

    def headline_metric(self) -> Metric:
        return next(metric for metric in self.metrics if metric.name == self.headline)

    def headline_value(self, summary: Mapping[str, Any]) -> float | None:
        """The headline of a summary.json: the mean of the config group it names, else its top-level figure."""
        groups = summary.get("config_groups")
        source = groups if self.headline in self.config_groups and isinstance(groups, Mapping) else summary
        return _figure(source.get(self.headline))


def _figure(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
