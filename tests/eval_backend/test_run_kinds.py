"""The engine's one table of benchmark records: every registered benchmark has its run kind."""

from __future__ import annotations

import dataclasses

import pytest

from eval_backend.benchmarks import BENCHMARKS, DEFAULT_BENCHMARK, INDIC_QA
from eval_backend.run_kinds import RUN_KINDS, run_kind


def test_every_registered_benchmark_has_a_run_kind() -> None:
    assert {benchmark.kind for benchmark in BENCHMARKS.values()} <= set(RUN_KINDS)
    assert INDIC_QA.judged_from_folder and not BENCHMARKS[DEFAULT_BENCHMARK].judged_from_folder


def test_a_kind_the_engine_cannot_run_is_named_with_its_benchmark() -> None:
    with pytest.raises(ValueError, match=r"benchmark 'indic_qa' is of kind 'pairwise'.*eval_backend/run_kinds\.py"):
        run_kind(dataclasses.replace(INDIC_QA, kind="pairwise"))
