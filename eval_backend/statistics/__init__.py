"""Statistics of benchmark results: pure numpy functions on per-item scores and their design.

    design      Design (strata, clusters, Weighting), item_design(strata, clusters, weighting)
    headline    headline(scores, design): the benchmark's figure as a weighted sum of item scores
    resampling  cluster_counts / replicate_headlines: seeded cluster bootstrap within strata, on cluster sums
    intervals   Interval, cluster_bootstrap_interval(scores, design, replicates, seed)
    joint       joint_bootstrap(models x items, design): intervals, ranks and rank intervals from one draw
    ranks       competition_ranks, rank_intervals (2.5th-97.5th percentile of replicate ranks)
    paired      compare_paired(a, b, design) -> PairedComparison; pairwise_comparisons -> PairwiseMatrix
    sign_flip   the paired permutation test (signs flipped per cluster)
    multiple_comparisons  holm_adjusted (the correction of a table's rows, a matrix's pairs)
    verdict     Verdict, verdicts: one answer per comparison (adjusted p-value and interval both required)
    standard_error  clustered_standard_error, naive_standard_error, design_effect
    power       minimum_detectable_difference at 80 % power (Miller 2024)
    precision   precision(runs x items, design): clusters, design effect, detectable difference measured on runs

Nothing here reads files or knows a benchmark: the benchmark declares its clusters, the
caller builds the design and the score matrix.
"""

from eval_backend.statistics.design import Design, Weighting, item_design
from eval_backend.statistics.headline import headline
from eval_backend.statistics.intervals import Interval, cluster_bootstrap_interval
from eval_backend.statistics.joint import JointBootstrap, joint_bootstrap
from eval_backend.statistics.multiple_comparisons import CORRECTION, holm_adjusted
from eval_backend.statistics.paired import PairedComparison, PairwiseMatrix, compare_paired, pairwise_comparisons
from eval_backend.statistics.power import minimum_detectable_difference
from eval_backend.statistics.precision import Precision, precision
from eval_backend.statistics.ranks import competition_ranks, rank_intervals
from eval_backend.statistics.resampling import DEFAULT_REPLICATES, DEFAULT_SEED
from eval_backend.statistics.standard_error import clustered_standard_error, design_effect, naive_standard_error
from eval_backend.statistics.verdict import Verdict, verdict, verdicts

__all__ = [
    "CORRECTION",
    "DEFAULT_REPLICATES",
    "DEFAULT_SEED",
    "Design",
    "Interval",
    "JointBootstrap",
    "PairedComparison",
    "PairwiseMatrix",
    "Precision",
    "Verdict",
    "Weighting",
    "cluster_bootstrap_interval",
    "clustered_standard_error",
    "compare_paired",
    "competition_ranks",
    "design_effect",
    "headline",
    "holm_adjusted",
    "item_design",
    "joint_bootstrap",
    "minimum_detectable_difference",
    "naive_standard_error",
    "pairwise_comparisons",
    "precision",
    "rank_intervals",
    "verdict",
    "verdicts",
]
