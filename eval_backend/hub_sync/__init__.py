"""Mirroring to Hugging Face Hub dataset repos: results (run folders, per-item details as a dataset) and the queue.

Off unless `HF_TOKEN` and `RESULTS_REPO` / `REQUESTS_REPO` are set; then nothing here touches
the network. The local run folders and the SQLite queue stay the source of truth while work is
going on; the repos are their durable copy.
"""

from eval_backend.hub_sync._hub import HUB_ERRORS, describe
from eval_backend.hub_sync.dataset_card import SPLIT, config_name
from eval_backend.hub_sync.requests_mirror import (
    MirrorFormatError,
    mirror_queue,
    mirror_request,
    restore_queue_if_missing,
)
from eval_backend.hub_sync.results_pull import PullReport, pull_results
from eval_backend.hub_sync.results_push import push_run
from eval_backend.hub_sync.sync import SyncReport, sync_once

__all__ = [
    "HUB_ERRORS",
    "MirrorFormatError",
    "PullReport",
    "SPLIT",
    "SyncReport",
    "config_name",
    "describe",
    "mirror_queue",
    "mirror_request",
    "pull_results",
    "push_run",
    "restore_queue_if_missing",
    "sync_once",
]
