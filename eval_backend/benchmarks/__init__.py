"""The registry of benchmarks the engine can run; adding one is adding a module here."""

from eval_backend.benchmarks.base import Benchmark, ItemValidationError, SamplingDefaults
from eval_backend.benchmarks.indic_writing_bench import INDIC_WRITING_BENCH

BENCHMARKS: dict[str, Benchmark] = {INDIC_WRITING_BENCH.name: INDIC_WRITING_BENCH}
DEFAULT_BENCHMARK = INDIC_WRITING_BENCH.name

__all__ = ["BENCHMARKS", "DEFAULT_BENCHMARK", "Benchmark", "ItemValidationError", "SamplingDefaults"]
