"""Scoring an Indic WritingBench run folder: read what is on disk, write summary.json and details.parquet."""

from __future__ import annotations

import dataclasses
from typing import Any

from eval_backend.benchmarks import Benchmark
from eval_backend.details import write_details
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.summary_provenance import run_provenance, scoring_judge
from eval_backend.writing_bench_details import details_frame
from eval_backend.writing_bench_scoring import Summary, item_results, summarize, total_usage


def score_run_folder(benchmark: Benchmark, folder: RunFolder, judge_model: str | None = None) -> Summary:
    """Recompute the summary and the details table from the folder's files alone.

    `judge_model` defaults to the judge of the latest judgment line, so re-scoring a
    folder needs no settings. Coverage is measured against the dataset's item counts that
    request.json recorded at prepare time; a folder from before they were recorded is
    measured against its own items and the benchmark's known configs.
    """
    items = folder.read_items()
    if not items:
        raise RunFolderError(f"{folder.items_path}: no items; judge or run the model first")
    judgments = folder.read_judgments()
    judge_model = scoring_judge(judge_model, [j.judge_model for j in judgments], folder.judgments_path)
    request = folder.read_request() if folder.request_path.exists() else {}
    results = item_results(benchmark, items, folder.read_responses(), judgments, judge_model)
    provenance = run_provenance(request, judge_model)
    summary = summarize(
        benchmark,
        results,
        total_usage(j for j in judgments if j.judge_model == judge_model),
        provenance,
        expected=request.get("expected_items"),
        dataset_configs=request.get("dataset_configs") or benchmark.known_configs,
    )
    folder.write_summary(summary_to_dict(summary))
    write_details(details_frame(benchmark, results, provenance), folder.details_path)
    return summary


def summary_to_dict(summary: Summary) -> dict[str, Any]:
    """summary.json's content."""
    return dataclasses.asdict(summary)
