"""One round of mirroring, for a timer (or a webhook): retry pending pushes, mirror the queue, pull results."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

from eval_backend.hub_sync._hub import HUB_ERRORS, describe
from eval_backend.hub_sync._ledger import Ledger
from eval_backend.hub_sync.requests_mirror import mirror_queue
from eval_backend.hub_sync.results_pull import PullReport, pull_results
from eval_backend.hub_sync.results_push import push_pending
from eval_backend.settings import Settings
from eval_backend.submissions.queue_store import open_queue, queue_path

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SyncReport:
    """What one round did; `errors` holds one line per step that could not reach the Hub."""

    pushed: list[str] = field(default_factory=list)
    still_pending: list[str] = field(default_factory=list)
    requests_mirrored: int = 0
    pull: PullReport = field(default_factory=PullReport)
    errors: list[str] = field(default_factory=list)


def sync_once(settings: Settings) -> SyncReport:
    """Retry the outbox, mirror changed queue rows, then pull; never raises for a Hub failure (it is reported)."""
    report = SyncReport()
    if not settings.hub.enabled:
        return report
    if settings.hub.results_enabled:
        _retry_outbox(settings, report)
    if settings.hub.requests_enabled and (settings.queue.queue_url or queue_path(settings).exists()):
        with open_queue(settings) as store:
            report = replace(report, requests_mirrored=mirror_queue(store, settings))
    if settings.hub.results_enabled:
        try:
            report = replace(report, pull=pull_results(settings))
        except HUB_ERRORS as exc:
            logger.warning("pulling results from %s failed: %s", settings.hub.results_repo, describe(exc))
            report.errors.append(f"pull: {describe(exc)}")
    return report


def _retry_outbox(settings: Settings, report: SyncReport) -> None:
    ledger = Ledger(settings.data.data_dir)
    for pending in ledger.all_pending():
        if push_pending(pending.run, settings, ledger):
            report.pushed.append(pending.run)
        elif ledger.pending(pending.run) is not None:
            report.still_pending.append(pending.run)
