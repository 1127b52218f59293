"""Constructed benchmark results with a known truth, shaped like Indic WritingBench.

Each config (stratum) holds requests rendered three times (clusters of three); a request's
own difficulty is shared by its renderings, which is what makes them linked.
"""

from __future__ import annotations

import numpy as np

from eval_backend.statistics import Design, item_design

RENDERINGS = 3


def writing_design(configs: int, requests: int) -> Design:
    """`configs` strata of `requests` requests, each rendered `RENDERINGS` times, item by item."""
    strata = np.repeat(np.arange(configs), requests * RENDERINGS)
    clusters = np.repeat(np.arange(configs * requests), RENDERINGS)
    return item_design(strata, clusters)


def clustered_scores(
    design: Design, rng: np.random.Generator, mean: float, request_sd: float, rendering_sd: float
) -> np.ndarray:
    """Item scores = mean + the request's effect (shared by its renderings) + each rendering's noise."""
    request_effect = rng.normal(0.0, request_sd, design.n_clusters)[design.clusters]
    return mean + request_effect + rng.normal(0.0, rendering_sd, design.n_items)
