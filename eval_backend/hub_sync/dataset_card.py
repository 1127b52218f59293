"""The results repo's README.md: one `datasets` config per evaluated model revision, and a short card.

Each config's only split is `train` (the `datasets` default, so `split="train"` is all a user
needs); its one data file is that run's `details.parquet`::

    load_dataset(RESULTS_REPO, "acme__strong-7b__<revision>", split="train")
"""

from __future__ import annotations

from typing import Iterable

from huggingface_hub import DatasetCardData

from eval_backend.hub_sync.layout import RUNS_PREFIX, repo_run, split_repo_path

DETAILS_FILE = "details.parquet"
SPLIT = "train"


def config_name(run: str) -> str:
    """A repo run folder as a config: `org__name/revision` -> `org__name__revision`, and
    `indic_qa/org__name/revision` -> `indic_qa__org__name__revision` (config names cannot hold a `/`)."""
    return run.replace("/", "__")


def runs_with_details(repo_paths: Iterable[str]) -> list[str]:
    """The repo's run folders (under `runs/`, see layout.py) whose details.parquet is among these repo paths."""
    runs = set()
    for path in repo_paths:
        found = split_repo_path(path)
        if found is not None and found[1] == DETAILS_FILE:
            runs.add(repo_run(found[0]))
    return sorted(runs)


def render_card(repo_id: str, runs: Iterable[str]) -> str:
    """README.md for the results repo listing `runs` (each `org__name/revision`) as configs."""
    runs = sorted(set(runs))
    metadata = DatasetCardData(
        pretty_name="Indic WritingBench per-item judgments",
        configs=[
            {"config_name": config_name(run), "data_files": [{"split": SPLIT, "path": f"{RUNS_PREFIX}/{run}/{DETAILS_FILE}"}]}
            for run in runs
        ],
    )
    rows = "\n".join(f"| `{config_name(run)}` | `{RUNS_PREFIX}/{run}/` |" for run in runs)
    example = config_name(runs[0]) if runs else "<config>"
    return f"""---
{metadata.to_yaml()}
---

# Indic WritingBench results

Written by the Indic benchmarks leaderboard: one folder per evaluated model revision and
benchmark, Indic WritingBench's under `{RUNS_PREFIX}/<org>__<name>/<revision>/` and each other
benchmark's under `{RUNS_PREFIX}/<benchmark>/<org>__<name>/<revision>/`, with `request.json` (what
was asked), `summary.json` (the scores the leaderboard shows), `responses.jsonl`, the judge's
verdicts (`judgments.jsonl`: one per item and criterion; `scores.jsonl` for the other
benchmarks) and `{DETAILS_FILE}` (one row per item: its fields, the response, each score and reason).

Each model revision's details are a config with a single `{SPLIT}` split:

```python
from datasets import load_dataset

details = load_dataset("{repo_id}", "{example}", split="{SPLIT}")
```

| config | run folder |
|---|---|
{rows}
"""
