"""`app.py` with the board's first ranking build slowed down or failing, as a big board on a busy machine, or a
board whose render raises, would start.

    BOARD_BUILD_DELAY_S=20 python -m tests.support.slow_board_app    # the first build takes 20 s more
    BOARD_BUILD_FAILS="disk on fire" python -m tests.support.slow_board_app   # every build raises

Everything else is the app's own start-up (`app.main`): only the ranking build of the board the page opens on
(`DEFAULT_BENCHMARK`'s, `scored_tables.ranking_frame`, which every view of it computes through `ranking_of`) is
wrapped; the other benchmarks' tabs build theirs as they would.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import app
from eval_backend.benchmarks.plugin import Benchmark
from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK
from leaderboard import scored_tables


class BoardBuildFailed(RuntimeError):
    """The failure this entry point injects into the board's ranking build."""


def main() -> None:
    build = scored_tables.ranking_frame
    delay_s = float(os.environ.get("BOARD_BUILD_DELAY_S", "0"))
    failure = os.environ.get("BOARD_BUILD_FAILS", "")
    first = threading.Event()

    def ranking_frame(runs: Any, benchmark: Benchmark, *args: Any, **kwargs: Any) -> Any:
        if benchmark.name == DEFAULT_BENCHMARK:
            if failure:
                raise BoardBuildFailed(failure)
            if not first.is_set():
                first.set()
                time.sleep(delay_s)
        return build(runs, benchmark, *args, **kwargs)

    scored_tables.ranking_frame = ranking_frame
    app.main()


if __name__ == "__main__":
    main()
