"""A summary's intervals: each figure's cluster bootstrap by the benchmark's declared clusters, per config too."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from eval_backend.benchmarks.item_statistics import ItemStatistics
from eval_backend.benchmarks.metric import Metric
from eval_backend.figure_intervals import figure_interval, summary_intervals
from eval_backend.statistics import Weighting, cluster_bootstrap_interval, item_design
from tests.eval_backend.statistics.simulated import clustered_scores, writing_design

TRUE_MEAN = 6.0
DATASETS = 200
COVERAGE_ENDPOINT_ERROR = 0.05
"""The endpoints' Monte-Carlo error allowed here, ten times the summary's (0.005): coverage is a property of the
interval (which clusters it resamples), not of how many draws pin its endpoints, which test_draws.py checks. Same
seed, summary's setting -> this one: coverage 0.935 -> 0.93 (by requests) and 0.765 -> 0.75 (naive), CPU 13.3 s ->
0.4 s and 17.1 s -> 3.7 s."""


def _coverage(clustered: bool) -> float:
    """Share of 200 simulated WritingBench-shaped datasets whose summary interval holds the true mean.

    Each dataset is bootstrapped on its own, as a run's summary is (each with its own resampling,
    unlike the joint bootstrap's shared draw in tests/eval_backend/statistics/test_intervals.py).
    """
    design = writing_design(configs=3, requests=40)
    configs = [f"config {stratum}" for stratum in design.strata]
    labels = [f"request {c}" for c in design.clusters] if clustered else [f"item {i}" for i in range(design.n_items)]
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(DATASETS):
        scores = clustered_scores(design, rng, TRUE_MEAN, request_sd=1.5, rendering_sd=0.5)
        low, high = figure_interval(scores, configs, labels, Weighting.EQUAL_STRATA, COVERAGE_ENDPOINT_ERROR)
        covered += low <= TRUE_MEAN <= high
    return covered / DATASETS


def test_the_summary_interval_by_requests_covers_the_truth_about_95_percent_of_the_time() -> None:
    # The binomial sd at 95 % over 200 datasets is 1.5 points; a percentile bootstrap on 40 clusters a
    # config runs a point or so under nominal.
    assert 0.90 <= _coverage(clustered=True) <= 0.99


def test_the_summary_interval_treating_renderings_as_independent_falls_short() -> None:
    # Intra-request correlation 0.9: a design effect of 2.8, so a naive 95 % interval covers about 76 %.
    assert _coverage(clustered=False) < 0.85


def test_a_figure_interval_is_the_engine_s_cluster_bootstrap_of_the_items_with_a_value() -> None:
    values = [7.0, None, 5.0, 9.0, float("nan"), 4.0, 6.0]
    configs = ["Hindi", "Hindi", "Hindi", "Tamil", "Tamil", "Tamil", "Tamil"]
    clusters = ["a", "a", "b", "a", "b", "c", "c"]  # "a" in Tamil is another cluster than in Hindi
    design = item_design(["Hindi", "Hindi", "Tamil", "Tamil", "Tamil"], ["a", "b", "a", "c", "c"])
    expected = cluster_bootstrap_interval(np.array([7.0, 5.0, 9.0, 4.0, 6.0]), design)
    assert figure_interval(values, configs, clusters, Weighting.EQUAL_STRATA) == (expected.low, expected.high)


def test_a_figure_on_one_cluster_or_none_has_no_interval() -> None:
    assert figure_interval([7.0, 8.0], ["Hindi"] * 2, ["one request"] * 2, Weighting.POOLED) is None
    assert figure_interval([None, None], ["Hindi"] * 2, ["a", "b"], Weighting.POOLED) is None


def _values(details: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"right": 100.0 * details["right"], "math": details["math"]}, index=details.index)


STATISTICS = ItemStatistics(
    figures=(Metric("right", "Right", "%", weighting=Weighting.POOLED), Metric("math", "Math", "%", weighting=Weighting.POOLED)),
    values=_values, columns=("right", "math"),
)


def test_every_figure_has_an_interval_over_its_configs_and_in_each_config_it_has_values_in() -> None:
    details = pd.DataFrame({
        "config": ["hindi"] * 4 + ["tamil"] * 4,
        "right": [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0],
        "math": [np.nan] * 4 + [3.0, 5.0, 4.0, 8.0],
    })
    clusters = ["p1", "p1", "p2", "p3", "q1", "q2", "q3", "q4"]
    found = summary_intervals(STATISTICS, details, clusters)
    assert set(found["intervals"]) == {"right", "math"}
    assert set(found["config_intervals"]) == {"hindi", "tamil"}
    assert set(found["config_intervals"]["hindi"]) == {"right"}  # no math item in Hindi
    pooled = item_design(details["config"].tolist(), clusters, Weighting.POOLED)
    expected = cluster_bootstrap_interval(100.0 * details["right"].to_numpy(), pooled)
    assert found["intervals"]["right"] == pytest.approx((expected.low, expected.high))
    hindi = cluster_bootstrap_interval(np.array([100.0, 0.0, 100.0, 100.0]), item_design(["hindi"] * 4, clusters[:4]))
    assert found["config_intervals"]["hindi"]["right"] == pytest.approx((hindi.low, hindi.high))
