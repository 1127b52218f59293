"""Holm's step-down correction for a family of p-values (the pairwise matrix's).

Holm controls the family-wise error rate (the chance of any false "significant" cell) at the
level chosen, with no assumption on how the tests depend on each other: the cells of a
pairwise matrix share models, so they are far from independent.
"""

from __future__ import annotations

import numpy as np

CORRECTION = "Holm (family-wise error rate)"


def holm_adjusted(p_values: np.ndarray) -> np.ndarray:
    """Holm-adjusted p-values, same shape: reject a hypothesis at level alpha when its value is <= alpha.

    The j-th smallest of m values becomes max over l <= j of min(1, (m - l + 1) * p_(l)). A NaN (a
    comparison with no p-value: too few clusters) is no hypothesis tested: it stays NaN and does not
    count in m.
    """
    values = np.asarray(p_values, dtype=float)
    flat = values.reshape(-1)
    tested = np.flatnonzero(~np.isnan(flat))
    order = tested[np.argsort(flat[tested], kind="stable")]
    factors = order.size - np.arange(order.size)
    stepped = np.minimum(1.0, np.maximum.accumulate(factors * flat[order])) if order.size else flat[order]
    adjusted = np.full_like(flat, np.nan)
    adjusted[order] = stepped
    return adjusted.reshape(values.shape)
