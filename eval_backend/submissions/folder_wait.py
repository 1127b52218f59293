"""Taking over a request whose run folder the stalled worker still holds.

A worker paused past QUEUE_STALE_AFTER_S (SIGSTOP, a frozen VM) loses its claim, but keeps its
run folder's lock until it runs again, finds the claim gone at its next write and lets go, or
dies. The worker that took the request over waits for that lock (up to WORKER_FOLDER_WAIT_S),
beating its own heartbeat meanwhile; a run never starts on a folder another process writes. If
the lock is still held after the wait, the request goes back to the queue without using an
attempt: a stalled neighbour is not this attempt's failure.
"""

from __future__ import annotations

import logging
import time
from typing import Callable

from eval_backend.run_folder import RunFolder, RunFolderBusy

logger = logging.getLogger(__name__)

POLL_S = 0.2
"""How often the lock is tried while waiting: a released lock is taken within this."""


def wait_for_folder(folder: RunFolder, wait_s: float, check_claim: Callable[[], None]) -> None:
    """Return once no other process holds `folder`; RunFolderBusy if one still does after `wait_s`.

    `check_claim` raises once the request stops being this worker's (cancelled meanwhile).
    """
    deadline = time.monotonic() + wait_s
    announced = False
    while True:
        try:
            with folder.lock():
                return
        except RunFolderBusy as busy:
            if time.monotonic() >= deadline:
                raise
            if not announced:
                logger.warning("%s; waiting up to %gs for it to be released", busy, wait_s)
                announced = True
        check_claim()
        time.sleep(POLL_S)
