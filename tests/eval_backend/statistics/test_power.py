"""The minimum detectable difference: 2.80 paired standard errors at alpha 0.05 and 80 % power."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import clustered_standard_error, minimum_detectable_difference
from eval_backend.statistics.power import detectable_multiple
from tests.eval_backend.statistics.simulated import clustered_scores, writing_design


def test_the_multiple_is_z_975_plus_z_80() -> None:
    assert detectable_multiple() == pytest.approx(1.959964 + 0.841621, abs=1e-5)


def test_it_rests_on_the_paired_clustered_error_of_the_shared_items() -> None:
    design = writing_design(configs=2, requests=30)
    rng = np.random.default_rng(9)
    b = clustered_scores(design, rng, 6.0, 1.5, 0.5)
    a = b + 0.2 + rng.normal(0.0, 0.5, design.n_items)
    a_missing = a.copy()
    a_missing[0] = np.nan
    shared = np.isfinite(a_missing)
    expected = detectable_multiple() * clustered_standard_error((a - b)[shared], design.subset(shared))
    assert minimum_detectable_difference(a_missing, b, design) == pytest.approx(expected)
    # Pairing removes the requests' difficulty: far below what one model's own error would suggest.
    assert minimum_detectable_difference(a, b, design) < detectable_multiple() * clustered_standard_error(b, design) / 2
