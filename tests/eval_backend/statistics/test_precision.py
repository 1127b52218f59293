"""Precision measured on runs: the design effect of linked renderings and the detectable difference of a pair."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import item_design, precision
from tests.eval_backend.statistics.simulated import clustered_scores, writing_design


def test_the_measured_design_effect_of_three_renderings_is_one_plus_two_times_their_correlation() -> None:
    # Intra-request correlation 1.5^2 / (1.5^2 + 0.5^2) = 0.9: a design effect of 2.8, pooled over 8 runs.
    design = writing_design(configs=4, requests=200)
    rng = np.random.default_rng(11)
    runs = np.stack([clustered_scores(design, rng, 6.0, request_sd=1.5, rendering_sd=0.5) for _ in range(8)])
    measured = precision(runs, design)
    assert (measured.runs, measured.items, measured.clusters) == (8, 2400, 800)
    assert measured.design_effect == pytest.approx(2.8, abs=0.2)
    assert measured.width_ratio == pytest.approx(np.sqrt(2.8), abs=0.07)


def test_items_standing_alone_have_no_design_effect() -> None:
    design = item_design(["Hindi"] * 300)
    runs = np.random.default_rng(3).normal(50.0, 10.0, size=(5, 300))
    assert precision(runs, design).design_effect == pytest.approx(1.0)


def test_the_detectable_difference_is_2_8_paired_standard_errors_of_neighbouring_runs() -> None:
    # Every run shares the items' difficulty (cancelled in a paired difference) and adds its own noise
    # (sd 1 per item): a paired difference has variance 2 / N, so the detectable difference is 2.8 sqrt(2 / N).
    design = writing_design(configs=2, requests=300)
    rng = np.random.default_rng(4)
    difficulty = rng.normal(0.0, 3.0, design.n_items)
    runs = np.stack([offset + difficulty + rng.normal(0.0, 1.0, design.n_items) for offset in (5.0, 5.2, 5.5, 6.0)])
    measured = precision(runs, design)
    assert measured.detectable_difference == pytest.approx(2.8 * np.sqrt(2.0 / design.n_items), rel=0.1)


def test_one_run_has_no_pair_to_measure() -> None:
    measured = precision(np.array([[1.0, 2.0, 3.0]]), item_design(["Hindi"] * 3))
    assert measured.detectable_difference is None and measured.runs == 1
