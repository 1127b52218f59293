"""The whole board's file: written when the results change, served by the app and mirrored to the results repo.

`BoardFile.current` is what the "download the board" button holds: every run's row (`leaderboard.board_table`)
as parquet, written once per content, so the button and the results repo's `board` config serve the same bytes.
A new table is pushed to the Hub on a thread of its own (the page never waits for the Hub), one push at a time.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from eval_backend.hub_sync.board_push import push_board
from eval_backend.settings import Settings
from leaderboard.board_table import board_table
from leaderboard.context import AppContext
from leaderboard.exports import export_bytes

logger = logging.getLogger(__name__)

BOARD_FILE_NAME = "indic-leaderboard-board.parquet"


class BoardFile:
    """The board's parquet file of the current results, and its mirror on the Hub."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._pushes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board-push")
        self._lock = threading.Lock()
        self._handed: Path | None = None  # the last file handed to the Hub push (a new one is pushed once)
        self.last_push: Future[bool] | None = None

    def current(self, context: AppContext) -> Path:
        """The board of the current results as parquet (written if it is new), handed to the Hub when new."""
        path = export_bytes(board_table(context).to_parquet(index=False), context.downloads_dir, BOARD_FILE_NAME)
        if self.settings.hub.results_enabled:
            with self._lock:
                if path != self._handed:
                    self._handed = path
                    self.last_push = self._pushes.submit(self._push, path)
        return path

    def _push(self, path: Path) -> bool:
        """Push `path`; when that fails, it is handed again on the next call (push_board logs why)."""
        try:
            pushed = push_board(path, self.settings)
        except Exception:  # the board keeps serving whatever the mirror does
            logger.exception("pushing the board to the Hub failed")
            pushed = False
        if not pushed:
            with self._lock:
                if self._handed == path:
                    self._handed = None
        return pushed
