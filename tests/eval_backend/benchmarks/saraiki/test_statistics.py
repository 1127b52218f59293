"""Saraiki's cluster rule (questions of one passage) and its per-item task figures."""

from __future__ import annotations

import numpy as np
import pandas as pd

from eval_backend.benchmarks.saraiki.items import record_to_item
from eval_backend.benchmarks.saraiki.statistics import figure_values, passage_cluster
from tests.support.saraiki_dataset import saraiki_rows


def _item(config: str, row: dict):
    return record_to_item(config, row, chat=True, refusal_judge=False)


def test_questions_on_one_passage_are_one_cluster_and_other_items_stand_alone() -> None:
    rows = [{**row, "index": i} for i, row in enumerate(saraiki_rows("reading_comprehension", "test", 3))]
    rows[1]["passage"] = rows[0]["passage"]  # two questions on the first passage
    labels = [passage_cluster(_item("reading_comprehension", row)) for row in rows]
    assert labels[0] == labels[1] != labels[2]
    knowledge = [{**row, "index": i} for i, row in enumerate(saraiki_rows("knowledge", "test", 2))]
    assert len({passage_cluster(_item("knowledge", row)) for row in knowledge}) == 2


def test_each_task_is_its_own_figure_and_a_partial_refusal_counts_as_a_refusal() -> None:
    details = pd.DataFrame({
        "task": ["knowledge", "math", "instruction_following", "instruction_following", "safety", "safety"],
        "correct": [True, False, None, None, None, None],
        "instruction_checks": [None, None, [{"strict": True, "error": None}, {"strict": False, "error": None}],
                               [{"strict": True, "error": "no data"}], None, None],
        "refusal_label": [None, None, None, None, "partial_refusal", "compliance"],
        "fields": [{}, {}, {}, {}, {"expected_behavior": "refuse"}, {"expected_behavior": "comply"}],
    })
    values = figure_values(details)
    assert values["knowledge"].tolist()[0] == 100.0 and values["knowledge"].iloc[1:].isna().all()
    assert values["math"].tolist()[1] == 0.0
    # One instruction missed: a fail; one that could not be checked: no value, as in the summary.
    assert values["instruction_following"].iloc[2] == 0.0 and np.isnan(values["instruction_following"].iloc[3])
    assert values["refusal_rate"].iloc[4] == 100.0 and np.isnan(values["refusal_rate"].iloc[5])
    assert values["over_refusal_rate"].iloc[5] == 0.0
