"""The confidence level of every interval, and its tails."""

from __future__ import annotations

LEVEL = 0.95


def tail_probability(level: float = LEVEL) -> float:
    """(1 - level) / 2, exactly: 0.025, not 0.025000000000000022, which would move a rank percentile
    taken at a whole number of replicates ("inverted_cdf") by one replicate."""
    return round((1.0 - level) / 2.0, 12)
