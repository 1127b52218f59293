"""Designs: clusters never span strata; subsets and the naive design keep the strata."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import item_design


def test_a_cluster_label_reused_in_another_config_is_another_cluster() -> None:
    design = item_design(["Hindi", "Hindi", "Tamil", "Tamil", "Tamil"], ["r1", "r1", "r1", "r2", "r2"])
    assert design.n_strata == 2
    assert design.n_clusters == 3
    assert design.clusters[0] == design.clusters[1] != design.clusters[2]
    assert design.cluster_strata[design.clusters].tolist() == design.strata.tolist()


def test_without_cluster_labels_every_item_stands_alone() -> None:
    design = item_design(["a", "a", "b"])
    assert design.n_clusters == 3


def test_a_subset_drops_empty_strata_and_clusters() -> None:
    design = item_design(["Hindi", "Hindi", "Tamil", "Tamil"], ["r1", "r1", "r2", "r3"])
    subset = design.subset(np.array([True, True, False, True]))
    assert (subset.n_items, subset.n_strata, subset.n_clusters) == (3, 2, 2)
    assert design.unclustered().n_clusters == 4


def test_labels_must_match_in_number() -> None:
    with pytest.raises(ValueError, match="3 strata labels but 2 cluster labels"):
        item_design(["a", "a", "b"], ["x", "y"])
