"""Holm's step-down adjustment, against values worked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from eval_backend.statistics import holm_adjusted


def test_holm_against_a_hand_worked_family() -> None:
    # Sorted 0.01, 0.03, 0.04, 0.2 times 4, 3, 2, 1 = 0.04, 0.09, 0.08, 0.2; running maximum 0.04, 0.09, 0.09, 0.2.
    adjusted = holm_adjusted(np.array([0.01, 0.04, 0.03, 0.2]))
    assert adjusted.tolist() == pytest.approx([0.04, 0.09, 0.09, 0.2])


def test_adjusted_values_never_exceed_one() -> None:
    assert holm_adjusted(np.array([0.5, 0.6])).tolist() == [1.0, 1.0]
