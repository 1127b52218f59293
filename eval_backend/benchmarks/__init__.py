"""The benchmarks: their one shape (`plugin`), what they share, one package each, and the registry.

    plugin          Benchmark, SuiteItem, RuleScorer, JudgeScorer, Metric, ScoredItem
    registry        BENCHMARKS by name, DEFAULT_BENCHMARK
    writing_bench/  Indic WritingBench v1      qa/  the short-answer QA benchmark      saraiki/  Saraiki

Nothing is imported here: importing any module of a benchmark loads this package first, and a
registry here would import every benchmark back into it (an import circle).
"""
