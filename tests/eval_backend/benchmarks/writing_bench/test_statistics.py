"""Indic WritingBench's cluster rule: renderings with the same rubric in one config are one cluster."""

from __future__ import annotations

import pandas as pd

from eval_backend.benchmarks.writing_bench.items import record_to_item
from eval_backend.benchmarks.writing_bench.statistics import figure_values, rendering_cluster
from eval_backend.statistics import item_design
from tests.support.hub_dataset import make_rows


def _items(config: str, link_renderings: bool) -> list:
    """Six rows of one config: indexes 0-2 and 3-5 are the three renderings (native, code-mixed, romanized)
    of two requests; linked, each rendering carries its request's rubric, as the published dataset does."""
    rows = make_rows(config, 6)
    if link_renderings:
        for row in rows:
            row["checklist"] = rows[row["index"] - row["index"] % 3]["checklist"]
    return [record_to_item(config, row) for row in rows]


def test_the_renderings_of_one_request_are_one_cluster() -> None:
    items = _items("Hindi", link_renderings=True)
    assert [item.variant for item in items[:3]] == ["native", "code_mixed", "romanized"]
    labels = [rendering_cluster(item) for item in items]
    assert labels[0] == labels[1] == labels[2] != labels[3] == labels[4] == labels[5]
    assert item_design([item.config for item in items], labels).n_clusters == 2


def test_items_with_rubrics_of_their_own_stand_alone() -> None:
    items = _items("Hindi", link_renderings=False)
    assert len({rendering_cluster(item) for item in items}) == 6


def test_the_same_rubric_in_another_config_is_another_cluster() -> None:
    hindi = _items("Hindi", link_renderings=True)
    tamil = [record_to_item("Tamil", {**row, "checklist": [dict(e) for e in hindi[0].checklist]})
             for row in make_rows("Tamil", 3)]
    items = hindi[:3] + tamil
    design = item_design([item.config for item in items], [rendering_cluster(item) for item in items])
    assert design.n_clusters == 2


def test_the_indic_average_counts_the_indic_configs_and_no_failed_item() -> None:
    details = pd.DataFrame({"config": ["Hindi", "Tamil", "english_original"], "item_score": [7.0, None, 5.0]})
    values = figure_values(details)
    assert values["indic"].tolist()[0] == 7.0 and values["indic"].isna().tolist() == [False, True, True]
    assert values["overall"].tolist()[2] == 5.0
