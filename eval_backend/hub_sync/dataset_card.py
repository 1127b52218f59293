"""The results repo's README.md: one `datasets` config per evaluated model revision, and a short card.

Each config's only split is `train` (the `datasets` default, so `split="train"` is all a user
needs); its one data file is that run's `details.parquet`::

    load_dataset(RESULTS_REPO, "acme__strong-7b__<revision>", split="train")

The `board` config is the whole board, one row per run of every benchmark (`board_push.py` writes it)::

    load_dataset(RESULTS_REPO, "board", split="train")
"""

from __future__ import annotations

from typing import Any, Iterable

from huggingface_hub import DatasetCard, DatasetCardData

from eval_backend.hub_sync.layout import RUNS_PREFIX, repo_run, split_repo_path

DETAILS_FILE = "details.parquet"
SPLIT = "train"
BOARD_CONFIG = "board"
BOARD_PATH = "board/board.parquet"
"""The whole board's table in the repo, the data file of config `board`."""


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


def board_entry() -> dict[str, Any]:
    """The card's `configs:` entry of the whole board."""
    return {"config_name": BOARD_CONFIG, "data_files": [{"split": SPLIT, "path": BOARD_PATH}]}


def with_board(card_text: str) -> str:
    """The repo's README.md with the board's config entry in it; every other entry and the text kept as they are."""
    card = DatasetCard(card_text)
    configs = [entry for entry in card.data.configs or [] if entry.get("config_name") != BOARD_CONFIG]
    card.data.configs = [board_entry(), *configs]
    return str(card)


def render_card(repo_id: str, runs: Iterable[str], board: bool = False) -> str:
    """README.md for the results repo listing `runs` (each `org__name/revision`) as configs, and the whole board's
    config when `board` (its file is in the repo)."""
    runs = sorted(set(runs))
    metadata = DatasetCardData(
        pretty_name="Indic WritingBench per-item judgments",
        configs=[
            *([board_entry()] if board else []),
            *({"config_name": config_name(run), "data_files": [{"split": SPLIT, "path": f"{RUNS_PREFIX}/{run}/{DETAILS_FILE}"}]}
              for run in runs),
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
board = load_dataset("{repo_id}", "{BOARD_CONFIG}", split="{SPLIT}")  # every run of every benchmark, one row each
```

| config | run folder |
|---|---|
{rows}
"""
