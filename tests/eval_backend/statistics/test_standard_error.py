"""Analytic standard errors: naive equals s / sqrt(n); the design effect of linked renderings."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import clustered_standard_error, design_effect, item_design, naive_standard_error
from tests.eval_backend.statistics.simulated import clustered_scores, writing_design


def test_the_naive_error_of_one_config_is_the_textbook_one() -> None:
    scores = np.array([3.0, 5.0, 6.0, 8.0, 9.0])
    expected = scores.std(ddof=1) / np.sqrt(scores.size)
    assert naive_standard_error(scores, item_design(["Hindi"] * 5)) == pytest.approx(expected)


def test_singleton_clusters_change_nothing() -> None:
    scores = np.array([3.0, 5.0, 6.0, 8.0])
    design = item_design(["a", "a", "b", "b"])
    assert clustered_standard_error(scores, design) == pytest.approx(naive_standard_error(scores, design))


def test_the_design_effect_of_three_renderings_is_one_plus_two_times_their_correlation() -> None:
    # Intra-cluster correlation 1.5^2 / (1.5^2 + 0.5^2) = 0.9: the design effect is 1 + 2 * 0.9 = 2.8.
    # 4 configs x 500 requests estimate it within about 0.2 (seeded).
    design = writing_design(configs=4, requests=500)
    scores = clustered_scores(design, np.random.default_rng(2), 6.0, request_sd=1.5, rendering_sd=0.5)
    assert design_effect(scores, design) == pytest.approx(2.8, abs=0.25)


def test_many_rows_get_the_standard_error_each_would_get_alone() -> None:
    design = writing_design(configs=3, requests=20)
    rng = np.random.default_rng(5)
    rows = np.stack([clustered_scores(design, rng, 5.0, request_sd=1.0, rendering_sd=0.5) for _ in range(4)])
    together = clustered_standard_error(rows, design)
    assert together == pytest.approx([clustered_standard_error(row, design) for row in rows])
    assert together.shape == (4,)
