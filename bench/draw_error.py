"""Whether two intervals drawn with different numbers of bootstrap draws agree within Monte-Carlo error.

A reference commit drew every interval with 1,000 replicates; the engine now draws per figure, at least
as many (`eval_backend/statistics/draws.py`), so an endpoint may move by its Monte-Carlo error: about
2.67 s / sqrt(1,000) for a bootstrap sd s, s taken as the interval's width / 3.92. Two endpoints agree
when they are within 4 standard deviations of their difference (both errors at most the 1,000 draws' one),
plus the float rounding of a quantile taken at another position.
"""

from __future__ import annotations

import math
from typing import Sequence

from eval_backend.statistics.draws import quantile_error_factor

REFERENCE_DRAWS = 1_000


def intervals_agree(mine: Sequence[float] | None, theirs: Sequence[float] | None) -> bool:
    """Both None, or both [low, high] with each end within Monte-Carlo error of the other's."""
    if mine is None or theirs is None:
        return mine is None and theirs is None
    spread = abs(theirs[1] - theirs[0]) / 3.92
    tolerance = 4 * math.sqrt(2) * quantile_error_factor() * spread / math.sqrt(REFERENCE_DRAWS) + 1e-9
    return all(abs(a - b) <= tolerance for a, b in zip(mine, theirs))
