"""QA's per-item figures: 100 / 0 per verdict, nothing for a failed judgment."""

from __future__ import annotations

import pandas as pd

from eval_backend.benchmarks.qa.statistics import QA_STATISTICS, figure_values
from eval_backend.benchmarks.item_statistics import own_cluster
from eval_backend.benchmarks.qa.items import QaItem


def test_verdicts_become_percent_and_a_failed_judgment_has_no_value() -> None:
    details = pd.DataFrame({"exact_correct": [True, False], "overlap_correct": [True, True],
                            "judge_correct": [None, False]})
    values = figure_values(details)
    assert values["exact"].tolist() == [100.0, 0.0]
    assert values["judge"].isna().tolist() == [True, False]


def test_questions_stand_alone() -> None:
    assert QA_STATISTICS.cluster is own_cluster
    assert own_cluster(QaItem("hindi", 3, "hindi-3", "q", "a", "d")) == "hindi/3"
