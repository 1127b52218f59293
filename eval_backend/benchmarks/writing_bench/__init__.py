"""Indic WritingBench v1 (seed 000) as one package: everything that is WritingBench's own.

    records         Item, ItemMeta (its items.jsonl line), Judgment (its judgments.jsonl line)
    items           the dataset's configs, variants and rubric bands; record_to_item validates a row
    judge           the seed's judge prompts; the rubric judge, one call per criterion
    verdict         the judge's strict JSON verdict (an integer score 1-10 and a reason)
    judgment_lines  judgments.jsonl: a `Judgment` per criterion
    scoring         the seed's aggregate (item, config, overall, Indic average, breakdowns)
    details         its details.parquet row
    statistics      its cluster rule (renderings of one request) and its figures per item
    board           its board declarations
    plugin          the `Benchmark` record the registry (`eval_backend.benchmarks.registry`) holds

Nothing is imported here, so a module of the package imports on its own without the others.
"""
