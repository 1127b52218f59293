"""The QA benchmark's items for the statistics: questions stand alone; three pooled accuracies.

Each figure is the seed's combined accuracy, a micro-average over every question (pooled
across languages), taken per item as 100 for a correct answer and 0 for a wrong one; a
failed judgment has no value, as it is left out of the judge's accuracy.
"""

from __future__ import annotations

import pandas as pd

from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.benchmarks.metric import per_item_metrics
from eval_backend.benchmarks.qa.plugin import METRICS

_COLUMNS = {"judge": "judge_correct", "exact": "exact_correct", "overlap": "overlap_correct"}


def figure_values(details: pd.DataFrame) -> pd.DataFrame:
    """100 / 0 per item for each scorer's verdict; NaN without a verdict (no answer, a failed judgment)."""
    return pd.DataFrame(
        {name: 100.0 * _verdicts(details, column) for name, column in _COLUMNS.items()}, index=details.index
    )


def _verdicts(details: pd.DataFrame, column: str) -> pd.Series:
    if column not in details:
        return pd.Series(float("nan"), index=details.index)
    return details[column].map({True: 1.0, False: 0.0}).astype(float)


QA_STATISTICS = ItemStatistics(
    figures=per_item_metrics(METRICS), values=figure_values, columns=tuple(_COLUMNS.values()), subsets=("domain",)
)
