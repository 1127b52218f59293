"""The board's render: the empty state on a fresh data folder, the view and its CSV otherwise."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from leaderboard.results import ResultsStore
from leaderboard.tables import TableCache
from leaderboard.tabs.leaderboard_tab import EMPTY_STATE, render_board
from tests.support.run_folders import EvaluatedData


def test_a_fresh_data_folder_shows_how_to_add_results(tmp_path: Path) -> None:
    board = render_board(ResultsStore(tmp_path / "runs"), TableCache(), tmp_path / "downloads", ["languages"], "")
    assert board.empty_state["visible"] is True
    assert board.download["visible"] is False
    assert "python -m eval_backend judge" in EMPTY_STATE


def test_the_board_and_its_csv_show_the_same_rows(evaluated: EvaluatedData, tmp_path: Path) -> None:
    board = render_board(ResultsStore(evaluated.runs_dir), TableCache(), tmp_path, ["variants"], "acme")
    shown = board.table["value"]
    exported = pd.read_csv(board.download["value"])
    assert list(shown["Model"]) == list(exported["model"]) == ["acme/strong-7b", "acme/reasoner-3b"]
    assert "native" in shown.columns and "Hindi" not in shown.columns
    assert board.empty_state["visible"] is False and board.problems["visible"] is False
