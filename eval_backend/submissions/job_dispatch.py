"""The worker in `WORKER_DISPATCH=hf-jobs` mode: each claimed request runs as a Hugging Face Job.

Every tick (the scheduler's poll) the dispatcher

1. on its first tick, takes over the RUNNING requests that have a Job (a restarted Space
   re-attaches to its Jobs in flight: they ran on while it was away);
2. requeues stalled requests, as the in-process worker does;
3. cancels the Job of every request cancelled (or given up) meanwhile, and records its cost;
4. follows each Job it holds: the Hub's stage and running time (so the price so far), the run's
   phase and progress from the Job's log, a heartbeat; a Job that ended settles its request:
   FINISHED once its run folder is pulled from the results repo, else FAILED with the reason and
   the Job's last log lines (secrets masked);
5. claims PENDING requests while fewer than HF_JOBS_MAX_CONCURRENT Jobs run, and starts a Job for
   each, unless a Job of this board for that request is still in flight (then it is re-attached:
   never two Jobs for one request).
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any

from huggingface_hub import HfApi, JobInfo
from huggingface_hub.errors import HfHubHTTPError

from eval_backend.hub_client import hub_api
from eval_backend.hub_sync import HUB_ERRORS, describe, mirror_request, pull_results
from eval_backend.redaction import redact
from eval_backend.run_folder import RunFolder
from eval_backend.settings import Settings
from eval_backend.submissions.job_flavors import FlavorTooSmall, choose_flavor, price_of, price_per_hour
from eval_backend.submissions.job_progress import JobOutcome, last_progress, outcome_of
from eval_backend.submissions.job_spec import JobsNotConfigured, job_image, job_launch, request_labels
from eval_backend.submissions.outage import patient
from eval_backend.submissions.queue_store import Phase, QueueRequest, QueueStore, Status, timestamp
from eval_backend.submissions.worker import fail_if_unreadable, requeue_stalled

logger = logging.getLogger(__name__)

ENDED_STAGES = frozenset({"COMPLETED", "CANCELED", "ERROR", "DELETED", "LOST"})
"""The Hub's terminal stages, and LOST: a Job the Hub no longer knows."""
PROGRESS_LOG_LINES = 200


class JobDispatcher:
    """Starts and follows the Jobs of one Space's queue; call `tick` every poll (never two at once)."""

    def __init__(self, store: QueueStore, settings: Settings, *, worker_id: str, api: HfApi | None = None) -> None:
        if not settings.hub.results_enabled:
            raise JobsNotConfigured(  # a Job's result comes back only through the results repo
                "WORKER_DISPATCH=hf-jobs needs HF_TOKEN and RESULTS_REPO: "
                "Jobs push their runs there and the Space pulls them"
            )
        job_image(settings)  # refused now, not at the first claim
        self._store = patient(store, settings.queue.reconnect_max_s)  # a database outage is waited out
        self._settings = settings
        self._jobs = settings.jobs
        self._worker_id = worker_id
        self._api = api or hub_api(settings.hub)
        self._namespace: str | None = settings.jobs.namespace
        self._hardware: list[Any] | None = None
        self._adopted = False

    # -- one tick -------------------------------------------------------------------------------

    def tick(self) -> None:
        """Adopt, requeue, cancel, follow, then start what the cap allows."""
        if not self._adopted:
            for adopted in self._store.adopt_jobs(self._worker_id):
                logger.info("request #%d: re-attached to Job %s", adopted.id, adopted.job_id)
                self._store.append_log(adopted.id, f"{timestamp()} re-attached to Job {adopted.job_id}\n")
            self._adopted = True
        requeue_stalled(self._store, self._settings)
        self._cancel_abandoned()
        for request in self._held():
            self._follow(request)
        while len(self._in_flight()) < self._jobs.max_concurrent:
            request = self._store.claim(self._worker_id)
            if request is not None and fail_if_unreadable(self._store, request, self._worker_id):
                mirror_request(self._store.get(request.id), self._settings)
                continue
            if request is None or not self._launch(request):
                break  # the queue is empty, or the Hub refuses Jobs now: next tick

    def _held(self) -> list[QueueRequest]:
        return [row for row in self._in_flight() if row.worker_id == self._worker_id]

    def _in_flight(self) -> list[QueueRequest]:
        """RUNNING requests with a Job: what counts against HF_JOBS_MAX_CONCURRENT."""
        return [row for row in self._store.list_requests(Status.RUNNING) if row.job_id]

    # -- starting -------------------------------------------------------------------------------

    def _launch(self, request: QueueRequest) -> bool:
        """Start the request's Job, or re-attach to its Job still in flight; a request that cannot have one fails.

        False when the Hub could not be asked: the request is back in the queue, for the next tick.
        """
        mirror_request(request, self._settings)
        try:
            job = self._job_in_flight(request)
            if job is None:
                job = self._start(request)
                note = f"started Job {job.id} on {job.flavor}"
            else:
                note = f"re-attached to Job {job.id}, still {job.status.stage}"
        except (FlavorTooSmall, JobsNotConfigured) as exc:
            self._store.fail(request.id, self._worker_id, str(exc))
        except HUB_ERRORS as exc:  # the Hub away or refusing: try again later, no attempt spent
            logger.warning("request #%d: cannot start its Job: %s", request.id, describe(exc))
            self._store.release_claim(request.id, self._worker_id, redact(f"cannot start its Job: {describe(exc)}"))
            return False
        else:
            self._store.set_job(request.id, self._worker_id, job.id, job.url, str(job.flavor))
            self._store.append_log(request.id, f"{timestamp()} {note}: {job.url}\n")
            logger.info("request #%d: %s", request.id, note)
        mirror_request(self._store.get(request.id), self._settings)
        return True

    def _start(self, request: QueueRequest) -> JobInfo:
        choice = choose_flavor(request.parameters, request.precision, self._jobs)
        launch = job_launch(request, self._settings, choice, self._hourly(choice.flavor))
        return self._api.run_job(
            image=launch.image, command=list(launch.command), env=dict(launch.env), secrets=dict(launch.secrets),
            flavor=launch.flavor, timeout=launch.timeout_s, labels=dict(launch.labels), namespace=self._owner(),
        )

    def _job_in_flight(self, request: QueueRequest) -> JobInfo | None:
        """This board's Job for the request that has not ended (a restart between start and record), if any."""
        labels = request_labels(request, self._settings)
        jobs = self._api.list_jobs(labels=labels, namespace=self._owner())
        return next((job for job in jobs if job.status.stage not in ENDED_STAGES), None)

    # -- following ------------------------------------------------------------------------------

    def _follow(self, request: QueueRequest) -> None:
        try:
            job = self._api.inspect_job(job_id=str(request.job_id), namespace=self._owner())
        except HfHubHTTPError as exc:
            if _status(exc) != 404:
                self._store.heartbeat(request.id, self._worker_id)  # the Hub away is not the Job's failure
                logger.warning("request #%d: cannot read Job %s: %s", request.id, request.job_id, describe(exc))
                return
            self._store.update_job(request.id, "LOST", request.job_wall_s, request.job_price_usd)
            self._settle_failed(request, f"Job {request.job_id} is gone from the Hub (deleted or lost) before it "
                                         "pushed a result", [])
            return
        except HUB_ERRORS as exc:
            self._store.heartbeat(request.id, self._worker_id)
            logger.warning("request #%d: cannot read Job %s: %s", request.id, request.job_id, describe(exc))
            return
        wall_s = self._record_cost(request, job)
        lines = self._log_tail(request, PROGRESS_LOG_LINES)
        if job.status.stage in ENDED_STAGES:
            self._settle(request, job, lines)
            return
        progress = last_progress(lines)
        if progress is None:
            self._store.heartbeat(request.id, self._worker_id)
        else:
            self._store.update_progress(
                request.id, self._worker_id, Phase(progress.phase), progress.done, progress.total
            )
        if wall_s is not None and wall_s > self._jobs.timeout_s + self._settings.queue.stale_after_s:
            # The Hub did not stop it at its timeout: the request fails, and the next tick cancels the Job.
            reason = f"Job {job.id} ran {wall_s:.0f} s, past HF_JOBS_TIMEOUT_S={self._jobs.timeout_s}; cancelled"
            self._settle_failed(request, reason, lines)

    def _settle(self, request: QueueRequest, job: JobInfo, lines: list[str]) -> None:
        outcome = outcome_of(lines)
        if job.status.stage == "COMPLETED" and outcome is not None and outcome.pushed:
            self._settle_pushed(request, job)
            return
        self._settle_failed(request, _failure_reason(job, outcome), lines)

    def _settle_pushed(self, request: QueueRequest, job: JobInfo) -> None:
        """The Job says it pushed: pull the run folder, so the board shows it, and finish the request."""
        folder = RunFolder.for_model(
            self._settings.data.benchmark_runs_dir(request.benchmark), request.model_id, request.revision
        )
        try:
            pull_results(self._settings)
        except HUB_ERRORS as exc:  # the Hub away: the Job is done, look again next tick
            self._store.heartbeat(request.id, self._worker_id)
            logger.warning("request #%d: cannot pull Job %s's run yet: %s", request.id, job.id, describe(exc))
            return
        if not folder.summary_path.is_file():
            reason = (f"Job {job.id} completed and said it pushed, but {self._settings.hub.results_repo} "
                      f"has no run folder for {request.model_id} at {request.revision}")
            self._settle_failed(request, reason, [])
            return
        self._store.set_run_dir(request.id, self._worker_id, str(folder.path))
        self._store.finish(request.id, self._worker_id)
        self._store.append_log(request.id, f"{timestamp()} Job {job.id} completed; its run was pulled from "
                                           f"{self._settings.hub.results_repo}\n")
        logger.info("request #%d finished by Job %s", request.id, job.id)
        mirror_request(self._store.get(request.id), self._settings)

    def _settle_failed(self, request: QueueRequest, reason: str, lines: list[str]) -> None:
        tail = lines[-self._jobs.log_lines:]
        text = redact(reason + ("; its last log lines:\n" + "\n".join(tail) if tail else ""))
        self._store.fail(request.id, self._worker_id, text)
        self._store.append_log(request.id, redact("\n".join(tail)) + "\n" if tail else "")
        logger.warning("request #%d failed: %s", request.id, redact(reason))
        mirror_request(self._store.get(request.id), self._settings)

    # -- cancelling -----------------------------------------------------------------------------

    def _cancel_abandoned(self) -> None:
        """Cancel the Jobs of requests no longer running (cancelled by an admin, or given up) and record their cost."""
        for status in (Status.CANCELLED, Status.FAILED):
            for request in self._store.list_requests(status):
                if request.job_id and request.job_stage not in ENDED_STAGES:
                    self._cancel(request)

    def _cancel(self, request: QueueRequest) -> None:
        try:
            self._api.cancel_job(job_id=str(request.job_id), namespace=self._owner())
            job = self._api.inspect_job(job_id=str(request.job_id), namespace=self._owner())
        except HfHubHTTPError as exc:
            if _status(exc) == 404:
                self._store.update_job(request.id, "LOST", request.job_wall_s, request.job_price_usd)
            else:
                logger.warning("request #%d: cannot cancel Job %s yet: %s", request.id, request.job_id, describe(exc))
            return
        except HUB_ERRORS as exc:
            logger.warning("request #%d: cannot cancel Job %s yet: %s", request.id, request.job_id, describe(exc))
            return
        self._record_cost(request, job, "CANCELED")
        self._store.append_log(request.id, f"{timestamp()} cancelled Job {request.job_id}\n")
        logger.info("request #%d is %s: cancelled its Job %s", request.id, request.status, request.job_id)
        mirror_request(self._store.get(request.id), self._settings)

    # -- the Hub --------------------------------------------------------------------------------

    def _owner(self) -> str:
        """HF_JOBS_NAMESPACE, else the token's user (asked once)."""
        if self._namespace is None:
            self._namespace = str(self._api.whoami()["name"])
        return self._namespace

    def _hourly(self, flavor: str) -> float | None:
        if self._hardware is None:
            try:
                self._hardware = list(self._api.list_jobs_hardware())
            except HUB_ERRORS as exc:  # prices from the settings table instead
                logger.warning("cannot read the Hub's Jobs hardware list: %s", describe(exc))
                return price_per_hour(flavor, (), self._jobs)
        return price_per_hour(flavor, self._hardware, self._jobs)

    def _record_cost(self, request: QueueRequest, job: JobInfo, stage_until_ended: str | None = None) -> float | None:
        """Record the Job's stage, running time and price so far; returns the running time.

        A Job just cancelled may still read RUNNING for a moment: `stage_until_ended` is recorded instead.
        """
        wall_s = _running_s(job)
        stage = str(job.status.stage)
        if stage_until_ended and stage not in ENDED_STAGES:
            stage = stage_until_ended
        self._store.update_job(request.id, stage, wall_s, price_of(wall_s, self._hourly(str(job.flavor))))
        return wall_s

    def _log_tail(self, request: QueueRequest, lines: int) -> list[str]:
        try:
            return list(self._api.fetch_job_logs(job_id=str(request.job_id), namespace=self._owner(), tail=lines))
        except HUB_ERRORS as exc:
            logger.warning("request #%d: cannot read Job %s's log: %s", request.id, request.job_id, describe(exc))
            return []


def _failure_reason(job: JobInfo, outcome: JobOutcome | None) -> str:
    """Why a Job that ended left no result, in one line."""
    stage = job.status.stage
    said = f": {job.status.message}" if job.status.message else ""
    if outcome is not None and outcome.problem:
        return f"Job {job.id} ended {stage}{said} without pushing a result: {outcome.problem}"
    if stage == "CANCELED":
        return f"Job {job.id} was cancelled on the Hub{said}"
    return f"Job {job.id} ended {stage}{said} without pushing a result"


def _running_s(job: JobInfo) -> float | None:
    """Seconds the Job has run: the Hub's count, else from its start and end times."""
    if job.durations is not None and job.durations.running_secs is not None:
        return float(job.durations.running_secs)
    if job.started_at is None:
        return None
    end = job.finished_at or datetime.now(timezone.utc)
    return max(0.0, (end - job.started_at).total_seconds())


def _status(exc: HfHubHTTPError) -> int | None:
    return exc.response.status_code if exc.response is not None else None
