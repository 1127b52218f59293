"""Per-query download files are bounded in count and bytes: a visitor sending a new search every second
does not fill the disk; the least recently used file goes first, the one just asked for stays."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from leaderboard import exports
from leaderboard.exports import MAX_KEPT_FOLDERS, export_view_csv


def view(n: int) -> pd.DataFrame:
    return pd.DataFrame({"model": [f"org/model-{n}"], "score": [n / 10]})


def test_new_queries_keep_at_most_the_bound_of_files_the_newest_first(tmp_path: Path) -> None:
    paths = [export_view_csv(view(n), tmp_path, f"query-{n}", "board.csv") for n in range(MAX_KEPT_FOLDERS + 60)]

    assert len(list(tmp_path.iterdir())) <= MAX_KEPT_FOLDERS
    assert paths[-1].exists() and paths[-1].read_text(encoding="utf-8-sig").startswith("model,score")
    assert not paths[0].exists()


def test_a_file_asked_for_again_is_kept_over_older_ones(tmp_path: Path) -> None:
    first = export_view_csv(view(0), tmp_path, "query-0", "board.csv")
    for n in range(1, MAX_KEPT_FOLDERS + 10):
        if n % 50 == 0:
            os.utime(first.parent, (1e10, 1e10))  # asked for again, later than the others were written
            assert export_view_csv(view(0), tmp_path, "query-0", "board.csv") == first
        export_view_csv(view(n), tmp_path, f"query-{n}", "board.csv")
    assert first.exists()


def test_download_files_are_bounded_in_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exports, "MAX_KEPT_BYTES", 50_000)
    big = pd.DataFrame({"model": ["org/" + "ਸ" * 3000] * 4})
    for n in range(20):
        export_view_csv(big.assign(n=n), tmp_path, f"big-{n}", "board.csv")
    total = sum(path.stat().st_size for path in tmp_path.rglob("*") if path.is_file())
    assert total <= 50_000 + max(path.stat().st_size for path in tmp_path.rglob("*.csv"))
