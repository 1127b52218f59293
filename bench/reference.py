"""A past revision's files beside the working tree, for benches that compare it with today's code."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def extract_revision(root: Path, revision: str, paths: list[str]) -> Path:
    """`paths` of `revision` extracted into a new folder `root` with `git archive`.

    The working tree is never checked out or touched, so a bench can run while work goes on.
    """
    root.mkdir()
    archive = subprocess.run(["git", "archive", revision, *paths], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    return root


def own_writing_bench_tables(tree: Path) -> bool:
    """Whether the tree's board builds WritingBench's own tables (`leaderboard/writing_bench_tables.py`, before
    issue #39) rather than WritingBench's ranking as every benchmark's: the two need different bench code."""
    return (tree / "leaderboard" / "writing_bench_tables.py").exists()
