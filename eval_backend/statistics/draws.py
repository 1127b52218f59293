"""How many bootstrap draws: enough that an interval's endpoints do not depend on the seed.

A percentile endpoint taken from B replicates moves with the seed: for a bootstrap distribution
close to normal with standard deviation s, the Monte-Carlo standard deviation of its t-quantile is
sqrt(t (1 - t)) / phi(z_t) * s / sqrt(B) (the quantile's asymptotic variance), 2.67 s / sqrt(B) at
the 2.5th percentile. A fixed 1,000 draws gives 0.017-0.028 on a WritingBench figure whose s is
0.2-0.3, visible against differences of a tenth of a point. So the draws are set by the figure:
DEFAULT_REPLICATES first, their spread measured, then as many more as bring the endpoints' Monte-Carlo
error under `endpoint_error` (in the figure's unit: 0.005 on the 1-10 scale, 0.05 percentage points),
at most MAX_REPLICATES. A wide interval (few clusters, a small language) takes more draws, and each
of them costs little there; a board's joint bootstrap over 1,313 clusters needs a few thousand.
The extra draws are seeded from the seed, so the same seed gives the same interval.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Callable

import numpy as np

from eval_backend.statistics.design import Design
from eval_backend.statistics.level import LEVEL, tail_probability
from eval_backend.statistics.resampling import DEFAULT_REPLICATES, replicate_headlines

ENDPOINT_ERROR = 0.005
"""The Monte-Carlo standard deviation an endpoint may have, in the figure's unit (0.005 on the 1-10 scale)."""
PERCENT_ENDPOINT_ERROR = 0.05
"""The same on a percentage scale (0.05 percentage points): a figure declares which (`Metric.endpoint_error`)."""
MAX_REPLICATES = 64_000
"""Draws at most, whatever the spread: bounds the time and memory of one interval."""
BLOCK = 4_096
"""Replicates drawn at once after the first DEFAULT_REPLICATES: (4,096 x clusters) weights, 43 MB at 1,313 clusters."""
_EXTRA_STREAM = 100
"""The extra blocks draw from seed sequence [seed, 100 + block], apart from the sign flips' [seed, 1]."""


def quantile_error_factor(level: float = LEVEL) -> float:
    """sqrt(t (1 - t)) / phi(z_t): an endpoint's Monte-Carlo sd is this times the spread over sqrt(draws)."""
    tail = tail_probability(level)
    normal = NormalDist()
    return math.sqrt(tail * (1.0 - tail)) / normal.pdf(normal.inv_cdf(tail))


def replicates_needed(spread: float, endpoint_error: float = ENDPOINT_ERROR, level: float = LEVEL) -> int:
    """The draws that bring an endpoint's Monte-Carlo sd under `endpoint_error`, for a bootstrap sd of `spread`.

    At least DEFAULT_REPLICATES, at most MAX_REPLICATES, a whole number of blocks past the first draws.
    """
    if not endpoint_error > 0:
        raise ValueError(f"endpoint_error must be above 0, got {endpoint_error}")
    wanted = (quantile_error_factor(level) * spread / endpoint_error) ** 2 if math.isfinite(spread) else 0.0
    if wanted <= DEFAULT_REPLICATES:
        return DEFAULT_REPLICATES
    blocks = math.ceil((min(wanted, MAX_REPLICATES) - DEFAULT_REPLICATES) / BLOCK)
    return min(DEFAULT_REPLICATES + blocks * BLOCK, MAX_REPLICATES)


def enough_replicate_headlines(
    scores: np.ndarray, design: Design, seed: int, endpoint_error: float = ENDPOINT_ERROR, level: float = LEVEL,
    spread_of: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """`replicate_headlines` with as many draws as `replicates_needed` says for the widest of their spreads.

    `spread_of` maps the replicate headlines to the quantities whose endpoints are taken (a matrix's pairwise
    differences); by default the headlines themselves.
    """
    first = replicate_headlines(scores, design, DEFAULT_REPLICATES, seed)
    measured = first if spread_of is None else spread_of(first)
    spread = float(np.max(np.std(measured, axis=0))) if np.size(measured) else 0.0
    needed = replicates_needed(spread, endpoint_error, level)
    blocks = [first]
    for number, start in enumerate(range(DEFAULT_REPLICATES, needed, BLOCK)):
        size = min(BLOCK, needed - start)
        blocks.append(replicate_headlines(scores, design, size, [seed, _EXTRA_STREAM + number]))
    return np.concatenate(blocks, axis=0)
