"""The registry of benchmarks the engine can run; adding one is adding a module here.

Two kinds share the engine: a rubric-judged `Benchmark` (Indic WritingBench, base.py) and a
`ScoredBenchmark` plug-in scored per response by rules and judges (plugin.py: the QA
benchmark, and the next ones). `--benchmark NAME` and the queue pick one by its `name`.
"""

from eval_backend.benchmarks.base import Benchmark, ItemValidationError
from eval_backend.benchmarks.indic_writing_bench import INDIC_WRITING_BENCH
from eval_backend.benchmarks.plugin import JudgeScorer, Metric, RuleScorer, ScoredBenchmark, ScoredItem, SuiteItem
from eval_backend.benchmarks.prompting import Prompt, SamplingDefaults
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import SARAIKI

AnyBenchmark = Benchmark | ScoredBenchmark

BENCHMARKS: dict[str, AnyBenchmark] = {
    benchmark.name: benchmark for benchmark in (INDIC_WRITING_BENCH, INDIC_QA, SARAIKI)
}
DEFAULT_BENCHMARK = INDIC_WRITING_BENCH.name

__all__ = [
    "BENCHMARKS",
    "DEFAULT_BENCHMARK",
    "AnyBenchmark",
    "Benchmark",
    "ItemValidationError",
    "JudgeScorer",
    "Metric",
    "Prompt",
    "RuleScorer",
    "SamplingDefaults",
    "ScoredBenchmark",
    "ScoredItem",
    "SuiteItem",
]
