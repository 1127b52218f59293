"""Inside a Hugging Face Job: run one queued request, push its run folder, say how it ended.

The Job has the request's row (`--request`), the Space's evaluation settings and its secrets
(`job_spec`), and no queue: it reports through its log (`job_progress`), and delivers through the
results repo, from which the Space pulls the run folder. Before it starts, the run folder is
pulled from the results repo when a Job before it pushed it, whole or as a checkpoint
(`job_checkpoint`), so what that Job generated and judged is not paid for again (the run folder's
resume rules).
"""

from __future__ import annotations

import logging
import time
from typing import Callable

from huggingface_hub.errors import RepositoryNotFoundError

from eval_backend.hub_sync import pull_results, push_run
from eval_backend.pipeline import PhaseProgress
from eval_backend.run_folder import RunFolder
from eval_backend.settings import Settings
from eval_backend.submissions.job_checkpoint import checkpoints, drop_checkpoint, restore_checkpoint
from eval_backend.submissions.job_flavors import price_of
from eval_backend.submissions.job_progress import JobOutcome, progress_line
from eval_backend.submissions.queue_store import QueueRequest
from eval_backend.submissions.worker import run_outcome, run_request

logger = logging.getLogger(__name__)

PROGRESS_EVERY_S = 5.0


class _ThrottledProgress:
    """Writes a progress line on each new phase, at a phase's end, and at most every few seconds between."""

    def __init__(self, emit: Callable[[str], None]) -> None:
        self._emit = emit
        self._phase: str | None = None
        self._last = 0.0

    def __call__(self, progress: PhaseProgress) -> None:
        now = time.monotonic()
        if progress.phase != self._phase or progress.done >= progress.total or now - self._last >= PROGRESS_EVERY_S:
            self._phase, self._last = progress.phase, now
            self._emit(progress_line(progress))


def run_in_job(
    request: QueueRequest, settings: Settings, *, flavor: str, hourly_usd: float | None, emit: Callable[[str], None]
) -> JobOutcome:
    """Run `request` into its run folder and push it; the outcome says whether the Space will find it."""
    runs_dir = settings.data.benchmark_runs_dir(request.benchmark)
    folder = RunFolder.for_model(runs_dir, request.model_id, request.revision)
    if settings.hub.results_enabled:
        _resume(folder, settings)
    started = time.monotonic()
    if settings.hub.results_enabled:
        with checkpoints(folder, settings, settings.jobs.checkpoint_s):
            summary = run_request(request, folder, settings, _ThrottledProgress(emit))
    else:
        summary = run_request(request, folder, settings, _ThrottledProgress(emit))
    wall_s = round(time.monotonic() - started, 1)
    folder.write_request({
        **folder.read_request(),
        "job": {"flavor": flavor, "price_per_hour_usd": hourly_usd, "wall_s": wall_s,
                "price_usd": price_of(wall_s, hourly_usd)},
    })
    problem, publishable = run_outcome(summary, settings)
    if problem:
        return JobOutcome(False, problem)
    if not publishable:
        return JobOutcome(False, "the run is limited (WORKER_RUN_LIMIT), so it is never published")
    if not settings.hub.results_enabled:
        return JobOutcome(False, "the Job has no HF_TOKEN secret or RESULTS_REPO to push the run to")
    if not push_run(folder, settings):
        return JobOutcome(False, f"pushing the run folder to {settings.hub.results_repo} failed (see the log above)")
    drop_checkpoint(folder, settings)
    logger.info("request #%d: pushed %s to %s", request.id, folder.path, settings.hub.results_repo)
    return JobOutcome(True)


def _resume(folder: RunFolder, settings: Settings) -> None:
    """Bring what earlier Jobs did for this run: the pushed run folder, else its checkpoint."""
    try:
        pull_results(settings)
        restore_checkpoint(folder, settings)
    except RepositoryNotFoundError:  # nothing pushed yet: the first push creates the repo
        logger.info("%s does not exist yet: nothing to resume from", settings.hub.results_repo)
