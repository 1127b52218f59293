"""The registry of benchmarks the engine can run; adding one is adding a module here.

Every benchmark is one `Benchmark` record (plugin.py), scored per response by its rules
and judges: Indic WritingBench (its rubric judge fanned out over the criteria), the QA benchmark
and Saraiki. `--benchmark NAME` and the queue pick one by its `name`.
"""

from eval_backend.benchmarks.indic_writing_bench import INDIC_WRITING_BENCH
from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.plugin import Benchmark, JudgeScorer, Metric, RuleScorer, ScoredItem, SuiteItem
from eval_backend.benchmarks.prompting import Prompt, SamplingDefaults
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import SARAIKI

BENCHMARKS: dict[str, Benchmark] = {
    benchmark.name: benchmark for benchmark in (INDIC_WRITING_BENCH, INDIC_QA, SARAIKI)
}
DEFAULT_BENCHMARK = INDIC_WRITING_BENCH.name

__all__ = [
    "BENCHMARKS",
    "DEFAULT_BENCHMARK",
    "INDIC_QA",
    "ItemValidationError",
    "JudgeScorer",
    "Metric",
    "Prompt",
    "RuleScorer",
    "SamplingDefaults",
    "Benchmark",
    "ScoredItem",
    "SuiteItem",
]
