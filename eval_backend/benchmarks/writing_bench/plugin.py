"""Indic WritingBench v1 as a `Benchmark`: its items, prompt, rubric judge, no-answer floor, aggregate,
details rows, statistics and board, each from its module in this package.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from eval_backend.benchmarks.no_answer import NoAnswerPolicy, ScorerValues
from eval_backend.benchmarks.metric import Metric
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.prompting import Prompt, SamplingDefaults
from eval_backend.benchmarks.writing_bench.about import about_section
from eval_backend.benchmarks.writing_bench.board import WRITING_BENCH_BOARD
from eval_backend.benchmarks.writing_bench.details import details_row
from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS, KNOWN_CONFIGS, record_to_item
from eval_backend.benchmarks.writing_bench.judge import RUBRIC_JUDGE, RUBRIC_SCORER, judged_text
from eval_backend.benchmarks.writing_bench.judgment_lines import JUDGMENT_LINES
from eval_backend.benchmarks.writing_bench.records import Item, item_meta_from_dict
from eval_backend.benchmarks.writing_bench.scoring import aggregate, current_keys, older_keys
from eval_backend.statistics.design import Weighting

if TYPE_CHECKING:
    from eval_backend.benchmarks.item_statistics import ItemStatistics

TITLE = "Indic WritingBench v1"
DATASET_ID = "sarvam/indic_writing_bench_v1"
SAMPLING = SamplingDefaults(temperature=0.7, top_p=0.8, top_k=20, max_tokens=16000)
FLOOR_SCORE = 1
"""The rubric's lowest score, given on every criterion of an item the model did not answer."""


_SCORES = {"weighting": Weighting.EQUAL_STRATA, "bounds": (1.0, 10.0)}
"""An item's score is the mean of its criterion scores, each 1-10; a figure is the mean of its configs' means."""
METRICS = (
    Metric("indic", "Indic average", "score 1–10", **_SCORES),
    Metric("overall", "Overall (every config)", "score 1–10", **_SCORES),
)
"""The board ranks by the Indic languages' mean (an English config's item has no value in it); English
configs are shown apart."""


def _item_statistics() -> ItemStatistics:
    """Renderings of one request cluster; the Indic average and each config's mean; imported on first use (it needs pandas)."""
    from eval_backend.benchmarks.writing_bench.statistics import WRITING_STATISTICS

    return WRITING_STATISTICS


def _floor(item: Any) -> ScorerValues:
    return {RUBRIC_SCORER: {"score": FLOOR_SCORE}}


RUBRIC_FLOOR = NoAnswerPolicy(
    "An item the model did not answer (its prompt does not fit its context, an empty answer) scores the "
    f"rubric's floor, {FLOOR_SCORE}, on every criterion, with no judge call.",
    judges=_floor,
)


def _prompt(item: Item) -> Prompt:
    """The model is asked the item's query as one user turn, verbatim."""
    return Prompt.user(item.query)


INDIC_WRITING_BENCH = Benchmark(
    name="indic_writing_bench",
    title=TITLE,
    description="",
    default_dataset=DATASET_ID,
    dataset_setting="WB_DATASET",
    split="test",
    known_configs=KNOWN_CONFIGS,
    row_fields=("index", "id", "domain", "subdomain", "language", "variant", "prompt", "query", "checklist"),
    record_to_item=record_to_item,
    item_from_meta=item_meta_from_dict,
    prompt=_prompt,
    judged_text=judged_text,
    sampling=SAMPLING,
    rules=(),
    judges=(RUBRIC_JUDGE,),
    metrics=METRICS,
    headline="indic",
    aggregate=partial(aggregate, INDIC_CONFIGS),
    no_answer=RUBRIC_FLOOR,
    index_from_position=False,
    item_statistics=_item_statistics,
    board=replace(WRITING_BENCH_BOARD, about=about_section(TITLE, DATASET_ID, SAMPLING)),
    verdict_lines=JUDGMENT_LINES,
    judged_from_folder=False,
    details_row=details_row,
    older_keys=older_keys,
    current_keys=current_keys,
)
