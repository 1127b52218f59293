"""How a benchmark's items are laid out for resampling: strata (configs) and clusters within them.

A stratum is a part of the benchmark whose size is fixed by design (a language config): a
bootstrap resamples within each stratum, never across. A cluster is a set of items that are
not independent (the three renderings of one WritingBench request, the questions of one
Saraiki passage): a bootstrap draws whole clusters, and a sign-flip test flips whole clusters.
An item that shares nothing is a cluster of one.

How the strata combine into the headline is the benchmark's rule (`Weighting`): the mean of
the stratum means (Indic WritingBench: each language counts alike) or the pooled mean of
every item (QA's micro-average).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Sequence

import numpy as np

MIN_CLUSTERS = 2
"""Clusters a stratum needs for a resampled figure to have any spread (see `Design.no_spread_reason`)."""


class Weighting(StrEnum):
    """How stratum means combine into the headline."""

    EQUAL_STRATA = "equal_strata"
    """The mean of the stratum means: each config counts alike, whatever its size."""
    POOLED = "pooled"
    """The mean over every item (a micro-average): each item counts alike."""


@dataclass(frozen=True, eq=False)
class Design:
    """Per item, its stratum and its cluster (both 0-based codes); clusters never span strata.

    Build one with `item_design`; `cluster_strata[c]` is the stratum of cluster `c`.
    """

    strata: np.ndarray
    clusters: np.ndarray
    cluster_strata: np.ndarray
    weighting: Weighting

    @property
    def n_items(self) -> int:
        return int(self.strata.size)

    @property
    def n_strata(self) -> int:
        return int(self.cluster_strata.max()) + 1 if self.cluster_strata.size else 0

    @property
    def n_clusters(self) -> int:
        return int(self.cluster_strata.size)

    def no_spread_reason(self) -> str | None:
        """Why resampling this design says nothing of a figure's spread, or None when it can.

        A bootstrap redraws clusters within each stratum, and a stratum of one cluster always redraws
        that cluster; a sign flip of a single cluster flips the whole difference. So a figure needs a
        stratum of at least two clusters for an interval, and two clusters for a p-value: with none, every
        replicate is the point estimate (an interval of width 0) and no verdict may be read from it.
        """
        if self.n_clusters < MIN_CLUSTERS:
            return (f"rests on {self.n_clusters} cluster{'' if self.n_clusters == 1 else 's'} of items: "
                    "one cluster says nothing of its own spread, so there is no interval, p-value or verdict")
        if not (np.bincount(self.cluster_strata) >= MIN_CLUSTERS).any():
            return (f"rests on a single cluster of items in each of its {self.n_strata} configs, and clusters are "
                    "resampled within their config: there is no interval, p-value or verdict")
        return None

    def subset(self, mask: np.ndarray) -> Design:
        """The design of the items where `mask` is true (a language, a variant, the items two runs share)."""
        mask = np.asarray(mask, dtype=bool)
        return _coded(self.strata[mask], self.clusters[mask], self.weighting)

    def unclustered(self) -> Design:
        """The same strata with every item a cluster of its own: the naive design."""
        return _coded(self.strata, np.arange(self.n_items), self.weighting)


def item_design(
    strata: Sequence[object], clusters: Sequence[object] | None = None, weighting: Weighting = Weighting.EQUAL_STRATA
) -> Design:
    """The design of items labelled by stratum (a config name) and cluster (any label; None: each item alone).

    Two items are in one cluster when they have the same stratum and the same cluster label,
    so a label reused in another config is another cluster.
    """
    strata_codes = _codes(strata)
    cluster_labels = np.arange(len(strata_codes)) if clusters is None else _codes(clusters)
    if cluster_labels.size != strata_codes.size:
        raise ValueError(f"{strata_codes.size} strata labels but {cluster_labels.size} cluster labels")
    return _coded(strata_codes, cluster_labels, weighting)


def _codes(labels: Sequence[object]) -> np.ndarray:
    """0-based codes of labels, in order of first appearance."""
    codes: dict[object, int] = {}
    return np.fromiter((codes.setdefault(label, len(codes)) for label in labels), dtype=np.int64, count=len(labels))


def _coded(strata: np.ndarray, clusters: np.ndarray, weighting: Weighting) -> Design:
    """A design from integer strata and cluster labels, recoded to 0..K-1 and 0..C-1."""
    _, strata_codes = np.unique(strata, return_inverse=True)
    pairs = np.stack([strata_codes, np.asarray(clusters, dtype=np.int64)], axis=1)
    unique_pairs, cluster_codes = np.unique(pairs, axis=0, return_inverse=True)
    return Design(
        strata=strata_codes.astype(np.int64),
        clusters=cluster_codes.reshape(-1).astype(np.int64),
        cluster_strata=unique_pairs[:, 0].astype(np.int64) if unique_pairs.size else np.zeros(0, np.int64),
        weighting=weighting,
    )
