"""WORKER_DISPATCH=hf-jobs end to end: the dispatcher starts real `huggingface_hub` Jobs on the stand-in Jobs API.

Each Job is a local process running `python -m eval_backend job-run` (the tiny model, the
stand-in judge), pushing to the stand-in Hub's results repo, from which the Space pulls it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping

import huggingface_hub.constants
import pytest

from eval_backend.run_folder import RunFolder
from eval_backend.settings import (
    AppSettings,
    DataSettings,
    HubSettings,
    JobsSettings,
    JudgeSettings,
    QueueSettings,
    Settings,
)
from eval_backend.submissions import NewRequest, QueueRequest, QueueStore, Status
from eval_backend.submissions.job_dispatch import JobDispatcher
from leaderboard.results import ResultsStore
from tests.support.chat_server import StandInChatServer
from tests.support.held_replies import HeldReplies
from tests.support.hub_dataset import DatasetShape, write_writing_bench_dataset
from tests.support.jobs_server import NAMESPACE, REPO_ROOT, StandInJobsHub
from tests.support.queue_backends import QueueBackend, on_backend

BACKEND = {"backend": "transformers", "max_tokens": 8}
HF_TOKEN = "hf_space_token_0123456789abcdef"
JUDGE_KEY = "sk-judge-key-0123456789abcdef"
SPACE = "indic-board/leaderboard"
RESULTS = "indic-board/results"
SEVEN_B = 7_000_000_000  # 28 GB at float32: a100-large in the default table


@pytest.fixture(scope="session")  # not per module: the module's tests would all be kept on one xdist worker
def small_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two items (Hindi, Tamil): five judge calls each, so a Job's run takes seconds."""
    shape = DatasetShape(configs={"Hindi": 1, "Tamil": 1})
    return write_writing_bench_dataset(tmp_path_factory.mktemp("dataset"), shape)


@pytest.fixture
def jobs_hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[StandInJobsHub]:
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    (tmp_path / "disks").mkdir()
    with StandInJobsHub(tmp_path / "disks") as hub:
        yield hub


@dataclass(frozen=True)
class Space:
    """A Space in hf-jobs mode under test: its queue, the stand-in Hub with Jobs, judge, dataset and model."""

    store: QueueStore
    data: Path
    hub: StandInJobsHub
    judge: StandInChatServer
    dataset: Path
    model: Path

    def settings(self, judge: Mapping[str, Any] = MappingProxyType({}), **jobs: Any) -> Settings:
        return Settings(
            data=DataSettings(data_dir=self.data, dataset=str(self.dataset)),
            judge=JudgeSettings(base_url=self.judge.base_url, api_key=JUDGE_KEY, model="stand-in-judge",
                                max_backoff_s=0.05, **judge),
            queue=QueueSettings(allow_local_models=True, backend_params=BACKEND, stale_after_s=60.0),
            hub=HubSettings(hf_token=HF_TOKEN, results_repo=RESULTS, hf_endpoint=self.hub.url),
            app=AppSettings(space_id=SPACE),
            jobs=JobsSettings(dispatch="hf-jobs", data_dir="job-data", **jobs),
        )

    def dispatcher(self, worker_id: str = "space-1", **jobs: Any) -> JobDispatcher:
        return JobDispatcher(self.store, self.settings(**jobs), worker_id=worker_id)

    def add(self, revision: str = "local-0001") -> QueueRequest:
        """A queued request for the tiny model; its recorded size (7 B at float32: 28 GB) is what picks the flavor."""
        return self.store.add(NewRequest(str(self.model), revision, "local", "float32", False, "alice", BACKEND,
                                         parameters=SEVEN_B))


@pytest.fixture
def space(store: QueueStore, tmp_path: Path, jobs_hub: StandInJobsHub, judge_server: StandInChatServer,
          small_dataset: Path, tiny_model: Path) -> Space:
    return Space(store, tmp_path / "space", jobs_hub, judge_server, small_dataset, tiny_model)


def tick_until(dispatcher: JobDispatcher, done: Callable[[], Any], what: str, timeout_s: float = 300.0) -> Any:
    """Tick the dispatcher (as the scheduler does) until `done()` is truthy."""
    deadline = time.monotonic() + timeout_s
    while True:
        dispatcher.tick()
        if result := done():
            return result
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def ended(store: QueueStore, request_id: int) -> Callable[[], QueueRequest | None]:
    def check() -> QueueRequest | None:
        row = store.get(request_id)
        return row if row.status in (Status.FINISHED, Status.FAILED, Status.CANCELLED) else None
    return check


@on_backend("postgres")
def test_a_submission_runs_as_a_job_ends_finished_on_the_board_and_a_retry_resumes_it_paying_no_judge_call_twice(
    space: Space
) -> None:
    settings = space.settings()
    request = space.add()
    dispatcher = JobDispatcher(space.store, settings, worker_id="space-1")

    final = tick_until(dispatcher, ended(space.store, request.id), "the request to end")

    assert (final.status, final.error) == (Status.FINISHED, None), final.log_tail
    [spec] = space.hub.specs
    assert spec["spaceId"] == SPACE and spec["flavor"] == "a100-large" and spec["timeoutSeconds"] == 6 * 3600
    assert spec["command"][:4] == ["python", "-m", "eval_backend", "job-run"]
    assert spec["secrets"] == {"HF_TOKEN": HF_TOKEN, "OPENAI_API_KEY": JUDGE_KEY}
    plain = json.dumps([spec["command"], spec["environment"], spec.get("labels")])
    assert HF_TOKEN not in plain and JUDGE_KEY not in plain
    assert spec["environment"]["RESULTS_REPO"] == RESULTS and "REQUESTS_REPO" not in spec["environment"]
    job = space.hub.jobs[str(final.job_id)]
    assert final.job_url == f"{space.hub.url}/jobs/{NAMESPACE}/{job.id}" and final.job_flavor == "a100-large"
    assert final.job_stage == "COMPLETED" and final.job_wall_s is not None
    assert final.job_price_usd == pytest.approx(final.job_wall_s / 60 * 0.041667, abs=1e-4)  # the Hub's price list
    folder = RunFolder(Path(str(final.run_dir)))
    assert folder.path.is_relative_to(settings.data.runs_dir)  # pulled into the Space's own data folder
    recorded = json.loads(folder.request_path.read_text(encoding="utf-8"))
    assert recorded["job"]["flavor"] == "a100-large" and recorded["job"]["price_per_hour_usd"] == pytest.approx(2.50002)
    assert recorded["job"]["wall_s"] > 0 and recorded["queue_request_id"] == request.id
    snapshot = ResultsStore(settings.data.benchmark_runs_dir(request.benchmark)).snapshot()
    assert [run.model for run in snapshot.runs] == [str(space.model)] and not snapshot.problems
    assert len(space.judge.requests) == 10  # two items, five criteria each
    assert "started Job" in final.log_tail and "completed" in final.log_tail

    # The retry reuses this finished run instead of running a first Job of its own (seconds each).
    with space.store._transaction() as conn:  # an outcome lost after the push: the admin runs the request again
        conn.execute("UPDATE requests SET status = 'FAILED' WHERE id = ?", (request.id,))
    space.store.retry(request.id)

    again = tick_until(dispatcher, ended(space.store, request.id), "the second Job")

    assert again.status is Status.FINISHED and len(space.hub.specs) == 2
    assert len(space.judge.requests) == 10  # the second Job resumed the pushed folder: nothing judged again


@on_backend("sqlite")
def test_three_submissions_with_a_cap_of_two_run_two_jobs_then_the_third(space: Space) -> None:
    settings = space.settings(max_concurrent=2)
    requests = [space.add(f"local-000{n}") for n in range(3)]
    dispatcher = JobDispatcher(space.store, settings, worker_id="space-1")

    dispatcher.tick()
    assert [space.store.get(row.id).status for row in requests] == [Status.RUNNING, Status.RUNNING, Status.PENDING]
    assert len(space.hub.specs) == 2
    for row in requests:
        final = tick_until(dispatcher, ended(space.store, row.id), f"request #{row.id} to end")
        assert final.status is Status.FINISHED, final.error
    assert len(space.hub.specs) == 3 and space.hub.peak_running == 2
    first_end = min(job.ended for job in list(space.hub.jobs.values())[:2] if job.ended)
    third = list(space.hub.jobs.values())[2]
    assert third.started is not None and third.started >= first_end  # started only once one of the two had ended


@on_backend("sqlite")
def test_a_failing_job_fails_the_request_with_its_last_log_lines_and_no_secret(space: Space) -> None:
    space.hub.plan("fail")
    request = space.add()
    dispatcher = space.dispatcher("s")

    final = tick_until(dispatcher, ended(space.store, request.id), "the failing Job's request to end")

    assert final.status is Status.FAILED and final.job_stage == "ERROR"
    assert f"Job {final.job_id} ended ERROR: exit code 3 without pushing a result" in str(final.error)
    assert "CUDA out of memory" in str(final.error) and "CUDA out of memory" in final.log_tail
    assert JUDGE_KEY not in str(final.error) and JUDGE_KEY not in final.log_tail
    assert "judge key is" in str(final.error)  # the line is there, its secret masked


@on_backend("postgres")
def test_a_job_past_its_timeout_fails_the_request_saying_so(space: Space) -> None:
    space.hub.plan("hang")
    request = space.add()
    settings = space.settings(timeout_s=2)
    dispatcher = JobDispatcher(space.store, settings, worker_id="s")

    final = tick_until(dispatcher, ended(space.store, request.id), "the hanging Job's request to end", timeout_s=60)

    assert final.status is Status.FAILED and final.job_stage == "ERROR"
    assert "Job timeout of 2s exceeded" in str(final.error) and "stuck" in str(final.error)
    assert space.hub.specs[0]["timeoutSeconds"] == 2


@on_backend("sqlite")
def test_cancelling_the_request_cancels_its_job_and_records_what_it_cost(space: Space) -> None:
    space.hub.plan("hang")
    request = space.add()
    dispatcher = space.dispatcher("s")
    tick_until(dispatcher, lambda: space.hub.running(), "the Job to run")
    time.sleep(1.1)  # a second of running time, so the price is above zero

    space.store.cancel(request.id)
    dispatcher.tick()

    job = space.hub.jobs[str(space.store.get(request.id).job_id)]
    assert job.stage == "CANCELED" and job.process is not None and job.process.poll() is not None
    final = space.store.get(request.id)
    assert final.status is Status.CANCELLED and final.job_stage == "CANCELED"
    assert final.job_wall_s is not None and final.job_wall_s >= 1 and final.job_price_usd is not None
    assert f"cancelled Job {job.id}" in final.log_tail
    dispatcher.tick()
    assert len(space.hub.specs) == 1  # nothing started again


@on_backend("postgres")
@pytest.mark.parametrize(
    ("plan", "reason"),
    [("lose", "is gone from the Hub (deleted or lost) before it pushed a result"),
     ("quiet", "ended COMPLETED without pushing a result")],
)
def test_a_job_that_ends_without_a_pushed_result_fails_the_request_with_the_reason(
    space: Space, plan: Any, reason: str
) -> None:
    space.hub.plan(plan)
    request = space.add()
    dispatcher = space.dispatcher("s")

    final = tick_until(dispatcher, ended(space.store, request.id), f"the {plan} Job's request to end", timeout_s=60)

    assert final.status is Status.FAILED and reason in str(final.error)
    assert f"Job {final.job_id}" in str(final.error)


@on_backend("sqlite")
def test_a_restarted_space_re_attaches_to_the_job_in_flight_and_never_starts_a_second(space: Space) -> None:
    settings = space.settings()
    request = space.add()
    JobDispatcher(space.store, settings, worker_id="space-before").tick()  # starts the Job, then the Space goes away
    assert space.store.get(request.id).worker_id == "space-before"

    after = JobDispatcher(space.store, settings, worker_id="space-after")
    final = tick_until(after, ended(space.store, request.id), "the re-attached request to end")

    assert final.status is Status.FINISHED, final.error
    assert len(space.hub.specs) == 1 and "re-attached to Job" in final.log_tail
    assert len(space.judge.requests) == 10  # each judge call paid once


@on_backend("postgres")
def test_a_requeued_request_whose_job_still_runs_is_re_attached_not_started_again(space: Space) -> None:
    space.hub.plan("hang")
    settings = space.settings()
    request = space.add()
    JobDispatcher(space.store, settings, worker_id="space-before").tick()
    tick_until(JobDispatcher(space.store, settings, worker_id="watch"), lambda: space.hub.running(), "the Job to run")
    [requeued] = space.store.requeue_stale(0.0, 3)  # the Space was away past the stale limit: the request is PENDING
    assert requeued.status is Status.PENDING

    JobDispatcher(space.store, settings, worker_id="space-after").tick()

    row = space.store.get(request.id)
    assert (row.status, row.worker_id, row.job_id) == (Status.RUNNING, "space-after", requeued.job_id)
    assert len(space.hub.specs) == 1 and "re-attached to Job" in row.log_tail


def checkpointed_judgments(hub: StandInJobsHub) -> int:
    """The judgments in the results repo's checkpoint (`in-progress/`), 0 before the first is committed."""
    if ("dataset", RESULTS) not in hub.repos or hub.repos[("dataset", RESULTS)].resolve("main") is None:
        return 0
    files = hub.dataset_files(RESULTS)
    return sum(data.count(b"\n") for path, data in files.items()
               if path.startswith("in-progress/") and path.endswith("/judgments.jsonl"))


@on_backend("sqlite")
def test_a_job_lost_mid_run_is_resumed_by_the_next_from_its_checkpoint_paying_no_judge_call_twice(
    space: Space
) -> None:
    held = space.judge.reply = HeldReplies(answered=3)  # the Job is lost between two judgments, however slow
    settings = space.settings(judge={"concurrency": 1}, checkpoint_s=0.2)
    request = space.add()
    dispatcher = JobDispatcher(space.store, settings, worker_id="s")
    tick_until(dispatcher, held.holding, "the first judgments")
    tick_until(dispatcher, lambda: checkpointed_judgments(space.hub) >= 3, "a checkpoint after them")
    space.hub.lose(str(space.store.get(request.id).job_id))
    lost = tick_until(dispatcher, ended(space.store, request.id), "the lost Job's request to end")
    assert lost.status is Status.FAILED and "gone from the Hub" in str(lost.error)
    paid = len(space.judge.requests)
    assert paid < 10

    held.release()
    space.store.retry(request.id)
    final = tick_until(dispatcher, ended(space.store, request.id), "the second Job")

    assert final.status is Status.FINISHED, final.error
    assert len(space.judge.requests) <= 10 + 1  # at most the one call in flight when the Job was lost
    files = space.hub.dataset_files(RESULTS)
    assert not [path for path in files if path.startswith("in-progress/")]  # dropped once the run was pushed
    assert [path for path in files if path.endswith("summary.json")]


@on_backend("postgres")
def test_the_worker_command_in_hf_jobs_mode_starts_jobs_and_runs_nothing_itself(
    space: Space, queue_backend: QueueBackend
) -> None:
    space.hub.plan("hang")
    request = space.add()
    env = {
        "PATH": os.environ["PATH"], "HOME": str(space.data), "HF_HOME": str(space.data / "hf"), **queue_backend.env(),
        "WORKER_DISPATCH": "hf-jobs", "SPACE_ID": SPACE, "HF_TOKEN": HF_TOKEN, "RESULTS_REPO": RESULTS,
        "HF_ENDPOINT": space.hub.url, "DATA_DIR": str(space.data), "OPENAI_API_KEY": JUDGE_KEY,
    }
    done = subprocess.run([sys.executable, "-m", "eval_backend", "worker", "--once"], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)

    assert done.returncode == 0, done.stderr
    [spec] = space.hub.specs
    row = space.store.get(request.id)
    assert row.status is Status.RUNNING and row.job_id in space.hub.jobs and spec["flavor"] == "a100-large"
    assert spec["secrets"] == {"HF_TOKEN": HF_TOKEN, "OPENAI_API_KEY": JUDGE_KEY}
    assert JUDGE_KEY not in done.stderr and HF_TOKEN not in done.stderr


@on_backend("sqlite")
def test_a_hub_refusing_to_start_jobs_leaves_the_request_pending_unspent_until_it_accepts(space: Space) -> None:
    space.hub.plan("hang")
    request = space.add()
    dispatcher = space.dispatcher("s")
    space.hub.fail(rf"^/api/jobs/{NAMESPACE}(\?|$)", status=402, times=1)  # e.g. the namespace has no credits left

    dispatcher.tick()

    refused = space.store.get(request.id)
    assert (refused.status, refused.attempts, refused.job_id) == (Status.PENDING, 0, None)
    assert "cannot start its Job" in str(refused.error) and space.hub.specs == []
    dispatcher.tick()
    assert space.store.get(request.id).status is Status.RUNNING and len(space.hub.specs) == 1
