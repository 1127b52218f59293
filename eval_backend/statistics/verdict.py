"""One answer to "is A better than B?" per comparison, from one rule applied to a family of comparisons.

A comparison carries two pieces of evidence: the paired permutation test's p-value and the paired
bootstrap interval. Read apart they can disagree on small groups (an interval that excludes 0 at
p = 0.25), so the verdict requires both: a difference is significant when its p-value, Holm-adjusted
over every comparison of the family (a table's rows, a matrix's pairs), is at most ALPHA **and** its
95 % interval excludes 0. A comparison without a p-value (too few clusters) gets no verdict, says
why, and is no hypothesis of the family. Which model is better follows the figure's direction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from eval_backend.statistics.multiple_comparisons import CORRECTION, holm_adjusted
from eval_backend.statistics.paired import PairedComparison

ALPHA = 0.05
A_BETTER, B_BETTER = "A better", "B better"
NO_DIFFERENCE = "no significant difference"
NO_VERDICT = "no verdict"
RULE = (f"significant when the paired permutation test's p-value, adjusted by {CORRECTION} over the "
        f"family's comparisons, is at most {ALPHA:g} and the paired 95 % bootstrap interval excludes 0")


@dataclass(frozen=True)
class Verdict:
    """A comparison's answer: `label` (A_BETTER, B_BETTER, NO_DIFFERENCE or NO_VERDICT), its adjusted p-value
    (None without a p-value), the size of the family it was adjusted over, and why there is no verdict."""

    label: str
    adjusted_p: float | None
    family_size: int
    reason: str | None = None

    @property
    def significant(self) -> bool:
        return self.label in (A_BETTER, B_BETTER)


def verdicts(comparisons: Sequence[PairedComparison], higher_is_better: Sequence[bool],
             alpha: float = ALPHA) -> list[Verdict]:
    """Each comparison's verdict, the p-values Holm-adjusted over those of `comparisons` that have one."""
    adjusted = holm_adjusted(np.array([comparison.p_value for comparison in comparisons], dtype=float))
    family = int(np.count_nonzero(~np.isnan(adjusted)))
    return [verdict(comparison, float(p), direction, family, alpha)
            for comparison, p, direction in zip(comparisons, adjusted, higher_is_better)]


def verdict(comparison: PairedComparison, adjusted_p: float, higher_is_better: bool, family_size: int,
            alpha: float = ALPHA) -> Verdict:
    """The verdict of one comparison whose p-value, adjusted over a family of `family_size`, is `adjusted_p`."""
    if comparison.no_verdict is not None or np.isnan(adjusted_p):
        return Verdict(NO_VERDICT, None, family_size, comparison.no_verdict or "no p-value")
    low, high = comparison.difference.low, comparison.difference.high
    if adjusted_p > alpha or not (low > 0 or high < 0):
        return Verdict(NO_DIFFERENCE, adjusted_p, family_size)
    return Verdict(A_BETTER if (low > 0) == higher_is_better else B_BETTER, adjusted_p, family_size)
