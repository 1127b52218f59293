"""The stand-in Hub (`hub_repo_server.StandInHubRepos`) with Hugging Face Jobs: each Job runs as a local process.

Speaks what ``huggingface_hub``'s own client sends and expects (`run_job`, `inspect_job`,
`list_jobs`, `fetch_job_logs`, `cancel_job`, `list_jobs_hardware`, `whoami`)::

    GET   /api/whoami-v2                          the token's user: NAMESPACE
    GET   /api/jobs/hardware                      flavors with prices per minute (HARDWARE)
    POST  /api/jobs/{namespace}                   start a Job (the JSON job spec); 401 without a token
    GET   /api/jobs/{namespace}[?label=k=v&...]   the namespace's Jobs, filtered by labels and stage
    GET   /api/jobs/{namespace}/{id}              one Job; 404 once it is lost
    GET   /api/jobs/{namespace}/{id}/logs[?tail]  its log so far, as server-sent events
    POST  /api/jobs/{namespace}/{id}/cancel       stop it: CANCELED

A Job's command runs with its env and secrets over a bare environment (PATH, and the checkout
on PYTHONPATH, as the image would have it), in a folder of its own (its disk); a leading
``python`` is this interpreter. `plan(...)` tells the next Job to fail, hang, be lost, or end well without running.
The Job is SCHEDULING for `scheduling_s`, then RUNNING, and ends COMPLETED (exit 0), ERROR
(any other exit, or its `timeoutSeconds` passed) or CANCELED. `specs` keeps every job spec received.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, urlsplit

from tests.support.hub_repo_server import StandInHubRepos
from tests.support.hub_server import HubResponse

__all__ = ["HARDWARE", "NAMESPACE", "StandInJob", "StandInJobsHub"]

NAMESPACE = "indic-board"
REPO_ROOT = Path(__file__).resolve().parents[2]
HARDWARE = (  # the Hub's list gives prices per minute; l4x4 is left out to test the settings table
    {"name": "cpu-basic", "prettyName": "CPU Basic", "cpu": "2 vCPU", "ram": "16 GB", "accelerator": None,
     "unitCostMicroUSD": 167, "unitCostUSD": 0.000167, "unitLabel": "minute"},
    {"name": "l4x1", "prettyName": "1x Nvidia L4", "cpu": "8 vCPU", "ram": "30 GB",
     "accelerator": {"type": "gpu", "model": "L4", "quantity": "1", "vram": "24 GB", "manufacturer": "Nvidia"},
     "unitCostMicroUSD": 13333, "unitCostUSD": 0.013333, "unitLabel": "minute"},
    {"name": "a100-large", "prettyName": "Nvidia A100 - large", "cpu": "12 vCPU", "ram": "142 GB",
     "accelerator": {"type": "gpu", "model": "A100", "quantity": "1", "vram": "80 GB", "manufacturer": "Nvidia"},
     "unitCostMicroUSD": 41667, "unitCostUSD": 0.041667, "unitLabel": "minute"},
    {"name": "h200x2", "prettyName": "2x Nvidia H200", "cpu": "46 vCPU", "ram": "512 GB",
     "accelerator": {"type": "gpu", "model": "H200", "quantity": "2", "vram": "282 GB", "manufacturer": "Nvidia"},
     "unitCostMicroUSD": 166667, "unitCostUSD": 0.166667, "unitLabel": "minute"},
)
Plan = Literal["run", "fail", "hang", "lose", "quiet"]
_ENDED = ("COMPLETED", "CANCELED", "ERROR", "DELETED")
_NS = r"(?P<ns>[^/]+)"
_ID = r"(?P<id>[0-9a-f]{24})"


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


@dataclass
class StandInJob:
    """One Job: its spec as received, its stage, its log lines (timestamp, text) and its process."""

    id: str
    namespace: str
    spec: dict[str, Any]
    plan: Plan
    disk: Path
    stage: str = "SCHEDULING"
    message: str | None = None
    created_at: str = field(default_factory=_now)
    started_at: str | None = None
    finished_at: str | None = None
    started: float | None = None
    ended: float | None = None
    log: list[tuple[str, str]] = field(default_factory=list)
    process: subprocess.Popen[str] | None = None
    lost: bool = False
    cancelled: bool = False

    def info(self, endpoint: str) -> dict[str, Any]:
        """The Job as the Hub's API gives it."""
        running = None if self.started is None else int((self.ended or time.monotonic()) - self.started)
        data: dict[str, Any] = {
            "id": self.id, "createdAt": self.created_at, "startedAt": self.started_at, "finishedAt": self.finished_at,
            "command": self.spec["command"], "arguments": self.spec.get("arguments", []),
            "environment": self.spec.get("environment", {}),
            "secrets": {name: None for name in self.spec.get("secrets", {})},  # the Hub never shows a secret's value
            "flavor": self.spec.get("flavor"), "labels": self.spec.get("labels"),
            "status": {"stage": self.stage, "message": self.message},
            "durations": {"schedulingSecs": 0, "runningSecs": running, "totalSecs": running},
            "owner": {"id": "0" * 24, "name": self.namespace, "type": "user"},
        }
        data.update({key: self.spec[key] for key in ("spaceId", "dockerImage") if key in self.spec})
        return data


class StandInJobsHub(StandInHubRepos):
    """A stand-in Hub with dataset repos and Jobs; `with StandInJobsHub(tmp_path) as hub:`."""

    def __init__(self, disks: Path, *, scheduling_s: float = 0.2) -> None:
        super().__init__()
        self.jobs: dict[str, StandInJob] = {}
        self.specs: list[dict[str, Any]] = []
        self.peak_running = 0
        """The most Jobs RUNNING at one time."""
        self.scheduling_s = scheduling_s
        self._disks = disks
        self._plans: list[Plan] = []
        self.route({"GET"}, r"/api/whoami-v2", self._whoami)
        self.route({"GET"}, r"/api/jobs/hardware", self._hardware)
        self.route({"POST"}, rf"/api/jobs/{_NS}", self._run_job)
        self.route({"GET"}, rf"/api/jobs/{_NS}", self._list_jobs)
        self.route({"GET"}, rf"/api/jobs/{_NS}/{_ID}", self._inspect_job)
        self.route({"GET"}, rf"/api/jobs/{_NS}/{_ID}/logs", self._logs)
        self.route({"POST"}, rf"/api/jobs/{_NS}/{_ID}/cancel", self._cancel_job)

    # -- what tests use -----------------------------------------------------------------------

    def plan(self, *plans: Plan) -> None:
        """What the next Jobs do instead of running their command: fail, hang, be lost, end quietly (or run)."""
        with self._lock:
            self._plans.extend(plans)

    def wait_all(self, timeout_s: float = 300.0) -> None:
        """Wait until every Job has ended (or is lost)."""
        deadline = time.monotonic() + timeout_s
        while any(job.stage not in _ENDED and not job.lost for job in list(self.jobs.values())):
            assert time.monotonic() < deadline, "stand-in Jobs still running"
            time.sleep(0.05)

    def lose(self, job_id: str) -> None:
        """The Job's machine goes away now: its process is killed (no chance to save anything) and the Hub forgets it."""
        self._lose(self.jobs[job_id])

    def running(self) -> list[StandInJob]:
        return [job for job in self.jobs.values() if job.stage == "RUNNING" and not job.lost]

    def stop(self) -> None:
        for job in list(self.jobs.values()):
            self._kill(job)
        super().stop()

    # -- endpoints ----------------------------------------------------------------------------

    def _whoami(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        if token is None:
            return HubResponse.error(401, None, "Invalid credentials in Authorization header")
        return HubResponse.json({"type": "user", "name": NAMESPACE, "auth": {"type": "access_token"}})

    def _hardware(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        return HubResponse.json(list(HARDWARE))

    def _run_job(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        if token is None:
            return HubResponse.error(401, None, "Invalid credentials in Authorization header")
        spec = json.loads(self._body())
        job_id = uuid.uuid4().hex[:24]
        disk = Path(tempfile.mkdtemp(prefix=f"job-{job_id[:6]}-", dir=self._disks))
        with self._lock:
            plan = self._plans.pop(0) if self._plans else "run"
            job = self.jobs[job_id] = StandInJob(job_id, match["ns"], spec, plan, disk)
            self.specs.append(spec)
        threading.Thread(target=self._execute, args=(job,), name=f"job-{job_id}", daemon=True).start()
        return HubResponse.json(job.info(self.url))

    def _list_jobs(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        query = parse_qsl(urlsplit(self._request.raw_path).query)
        labels = [value.partition("=")[::2] for key, value in query if key == "label"]
        stages = {value for key, value in query if key == "stage"}
        found = [
            job.info(self.url) for job in list(self.jobs.values())
            if job.namespace == match["ns"] and not job.lost
            and all((job.spec.get("labels") or {}).get(name) == value for name, value in labels)
            and (not stages or job.stage in stages)
        ]
        return HubResponse.json(found)

    def _inspect_job(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        job = self._job(match)
        return HubResponse.json(job.info(self.url)) if job else HubResponse.error(404, None, "Job not found")

    def _logs(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        job = self._job(match)
        if job is None:
            return HubResponse.error(404, None, "Job not found")
        lines = list(job.log)
        tail = dict(parse_qsl(urlsplit(self._request.raw_path).query)).get("tail")
        if tail is not None:
            lines = lines[-int(tail):]
        events = [(job.started_at or job.created_at, "===== Job started =====")] + lines if job.started else lines
        body = "".join(f"data: {json.dumps({'timestamp': at, 'data': text})}\n\n" for at, text in events)
        return HubResponse(200, body.encode(), {"Content-Type": "text/event-stream"})

    def _cancel_job(self, method: str, match: re.Match[str], token: str | None) -> HubResponse:
        job = self._job(match)
        if job is None:
            return HubResponse.error(404, None, "Job not found")
        job.cancelled = True
        if job.stage not in _ENDED:  # before the kill, so that the process's end does not read as an ERROR
            self._end(job, "CANCELED", None)
        self._kill(job)
        return HubResponse.json({})

    # -- running a Job ------------------------------------------------------------------------

    def _job(self, match: re.Match[str]) -> StandInJob | None:
        job = self.jobs.get(match["id"])
        return None if job is None or job.lost or job.namespace != match["ns"] else job

    def _execute(self, job: StandInJob) -> None:
        time.sleep(self.scheduling_s)
        if job.cancelled:
            return
        with self._lock:
            job.stage, job.started_at, job.started = "RUNNING", _now(), time.monotonic()
            self.peak_running = max(self.peak_running, len(self.running()))
        command = job.spec["command"] if job.plan == "run" else _PLANNED[job.plan]
        if job.plan == "lose":
            threading.Timer(0.5, self._lose, args=(job,)).start()
        timeout = job.spec.get("timeoutSeconds")
        timer = threading.Timer(timeout, self._time_out, args=(job,)) if timeout else None
        if timer:
            timer.start()
        env = {
            "PATH": os.environ["PATH"], "HOME": str(job.disk), "PYTHONPATH": str(REPO_ROOT),
            "HF_HOME": str(job.disk / "hf-home"), "TOKENIZERS_PARALLELISM": "false", "HF_HUB_DISABLE_TELEMETRY": "1",
            **({"NLTK_DATA": os.environ["NLTK_DATA"]} if "NLTK_DATA" in os.environ else {}),
            **job.spec.get("environment", {}), **job.spec.get("secrets", {}),
        }
        argv = [sys.executable if word == "python" and index == 0 else word for index, word in enumerate(command)]
        job.process = subprocess.Popen(argv, cwd=job.disk, env=env, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True, errors="replace")
        assert job.process.stdout is not None
        for line in job.process.stdout:
            job.log.append((_now(), line.rstrip("\n")))
        code = job.process.wait()
        if timer:
            timer.cancel()
        if job.stage not in _ENDED and not job.lost:
            self._end(job, "COMPLETED" if code == 0 else "ERROR", None if code == 0 else f"exit code {code}")

    def _end(self, job: StandInJob, stage: str, message: str | None) -> None:
        job.stage, job.message, job.finished_at, job.ended = stage, message, _now(), time.monotonic()

    def _time_out(self, job: StandInJob) -> None:
        if job.stage not in _ENDED:
            self._end(job, "ERROR", f"Job timeout of {job.spec['timeoutSeconds']}s exceeded")
            self._kill(job)

    def _lose(self, job: StandInJob) -> None:
        job.lost = True
        self._kill(job)

    @staticmethod
    def _kill(job: StandInJob) -> None:
        if job.process is not None and job.process.poll() is None:
            job.process.kill()
            job.process.wait(timeout=30)  # gone once the Hub says so


# A program that fails as a careless one would: it prints the judge's key (a secret) before dying.
_FAILING = ["python", "-c", "import os, sys; print('loading model'); "
            "print('judge key is ' + os.environ.get('OPENAI_API_KEY', '')); "
            "print('torch.OutOfMemoryError: CUDA out of memory', flush=True); sys.exit(3)"]
_QUIET = ["python", "-c", "print('done, without a word on the run')"]  # exits 0, pushes nothing
_HANGING = ["python", "-c", "import time; print('stuck', flush=True); time.sleep(3600)"]
_PLANNED = {"fail": _FAILING, "hang": _HANGING, "lose": _HANGING, "quiet": _QUIET}
