"""The registry of benchmarks the engine can run; adding one is adding its package and a line here.

Every benchmark is one `Benchmark` record (`eval_backend.benchmarks.plugin`), scored per response
by its rules and judges: Indic WritingBench (its rubric judge fanned out over the criteria), the
QA benchmark and Saraiki. `--benchmark NAME` and the queue pick one by its `name`. The registry
is a module of its own, so a benchmark's modules never import it back through `benchmarks/__init__`.
"""

from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import SARAIKI
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH

BENCHMARKS: dict[str, Benchmark] = {
    benchmark.name: benchmark for benchmark in (INDIC_WRITING_BENCH, INDIC_QA, SARAIKI)
}
DEFAULT_BENCHMARK = INDIC_WRITING_BENCH.name
