"""Indic WritingBench's items for the statistics: renderings of one request cluster; its two figures.

The rule: each request is rendered three times (native, code-mixed, romanized) with the same
rubric, so within a config the items whose checklists are identical are one cluster. Items of
different configs never share a cluster (a translated rubric is another text, and a config
is a stratum of its own); an item whose rubric no other item of its config shares stands alone.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.benchmarks.metric import per_item_metrics
from eval_backend.benchmarks.writing_bench.items import INDIC_CONFIGS
from eval_backend.benchmarks.writing_bench.records import ItemMeta
from eval_backend.records import sha256_text
from eval_backend.benchmarks.writing_bench.plugin import METRICS


def rendering_cluster(item: ItemMeta) -> str:
    """The cluster of an item: its rubric (the hash of its checklist as JSON), within its config."""
    return "rubric:" + sha256_text(json.dumps([dict(entry) for entry in item.checklist], ensure_ascii=False,
                                              sort_keys=True))


def figure_values(details: pd.DataFrame) -> pd.DataFrame:
    """Each item's score (a failed or pending item: NaN) in the Indic average and in the overall figure."""
    score = pd.to_numeric(details["item_score"], errors="coerce").astype(float)
    indic = score.where(details["config"].isin(INDIC_CONFIGS), np.nan)
    return pd.DataFrame({"indic": indic, "overall": score}, index=details.index)


WRITING_STATISTICS = ItemStatistics(
    figures=per_item_metrics(METRICS), values=figure_values, columns=("config", "item_score"), cluster=rendering_cluster,
    subsets=("variant", "domain"),
)
