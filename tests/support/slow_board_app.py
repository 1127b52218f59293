"""`app.py` with the board's first table build slowed down or failing, as a big board on a busy machine, or a
board whose render raises, would start.

    BOARD_BUILD_DELAY_S=20 python -m tests.support.slow_board_app    # the first build takes 20 s more
    BOARD_BUILD_FAILS="disk on fire" python -m tests.support.slow_board_app   # every build raises

Everything else is the app's own start-up (`app.main`): only the board table's build is wrapped.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import app
from leaderboard import writing_bench_tables


class BoardBuildFailed(RuntimeError):
    """The failure this entry point injects into the board's table build."""


def main() -> None:
    build = writing_bench_tables.table_for_runs
    delay_s = float(os.environ.get("BOARD_BUILD_DELAY_S", "0"))
    failure = os.environ.get("BOARD_BUILD_FAILS", "")
    first = threading.Event()

    def table_for_runs(*args: Any, **kwargs: Any) -> Any:
        if failure:
            raise BoardBuildFailed(failure)
        if not first.is_set():
            first.set()
            time.sleep(delay_s)
        return build(*args, **kwargs)

    writing_bench_tables.table_for_runs = table_for_runs
    app.main()


if __name__ == "__main__":
    main()
