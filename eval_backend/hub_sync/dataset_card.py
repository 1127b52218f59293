"""The results repo's README.md: one `datasets` config per evaluated model revision, and a short card.

Each config's only split is `train` (the `datasets` default, so `split="train"` is all a user
needs); its one data file is that run's `details.parquet`::

    load_dataset(RESULTS_REPO, "acme__strong-7b__<revision>", split="train")
"""

from __future__ import annotations

from typing import Iterable

from huggingface_hub import DatasetCardData

RUNS_PREFIX = "runs"
DETAILS_FILE = "details.parquet"
SPLIT = "train"


def config_name(run: str) -> str:
    """`org__name/revision` -> `org__name__revision` (config names cannot hold a `/`)."""
    return run.replace("/", "__")


def runs_with_details(repo_paths: Iterable[str]) -> list[str]:
    """The run folders (`org__name/revision`) whose details.parquet is among these repo paths."""
    runs = set()
    for path in repo_paths:
        parts = path.split("/")
        if len(parts) == 4 and parts[0] == RUNS_PREFIX and parts[3] == DETAILS_FILE:
            runs.add(f"{parts[1]}/{parts[2]}")
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

Written by the Indic WritingBench leaderboard: one folder per evaluated model revision under
`{RUNS_PREFIX}/<org>__<name>/<revision>/` with `request.json` (what was asked), `summary.json`
(the scores the leaderboard shows), `responses.jsonl`, `judgments.jsonl` (one judge verdict per
item and criterion) and `{DETAILS_FILE}` (one row per item: prompt metadata, response, item
score, and each criterion's score and reason).

Each model revision's details are a config with a single `{SPLIT}` split:

```python
from datasets import load_dataset

details = load_dataset("{repo_id}", "{example}", split="{SPLIT}")
```

| config | run folder |
|---|---|
{rows}
"""
