"""End to end: a submission becomes a FINISHED row with a summary through the in-app scheduler, untouched."""

from __future__ import annotations

import json
from pathlib import Path

from eval_backend.run_folder import RunFolder
from eval_backend.submissions import NewRequest, Phase, QueueStore, Status, SubmissionForm
from eval_backend.submissions.scheduler import start_scheduler
from eval_backend.submissions.service import submit
from tests.eval_backend.submissions.conftest import make_settings
from tests.eval_backend.submissions.test_worker import BACKEND, wait_for
from tests.support.chat_server import StandInChatServer


def test_the_in_app_worker_can_be_switched_off(tmp_path: Path, store: QueueStore) -> None:
    assert start_scheduler(make_settings(tmp_path, worker_enabled=False), store) is None


def test_a_submission_runs_to_finished_with_a_summary(
    tmp_path: Path, store: QueueStore, tiny_model: Path, dataset_dir: Path, judge_env: StandInChatServer
) -> None:
    queue = {"allow_local_models": True, "backend_params": BACKEND, "run_limit": 1, "poll_interval_s": 0.2,
             "heartbeat_interval_s": 0.5}
    settings = make_settings(tmp_path / "data", dataset=dataset_dir, **queue)
    # A request that cannot run (max_tokens 0), queued first: its failure must not stop the scheduler.
    broken = store.add(NewRequest("org/broken", "c" * 40, "main", "float32", False, "admin", {"max_tokens": 0}))
    [request] = submit(SubmissionForm(str(tiny_model), precision="float32"), "alice", store=store, settings=settings)

    scheduler = start_scheduler(settings, store)
    assert scheduler is not None
    try:
        wait_for(lambda: store.get(request.id).status not in (Status.PENDING, Status.RUNNING), "the run to end",
                 timeout_s=240)
    finally:
        scheduler.shutdown(wait=True)

    failed = store.get(broken.id)
    assert failed.status is Status.FAILED and "max_tokens must be positive, got 0" in failed.error
    finished = store.get(request.id)
    assert finished.status is Status.FINISHED, finished.log_tail
    assert (finished.phase, finished.progress_done, finished.progress_total) == (Phase.SCORING, 1, 1)
    folder = RunFolder.for_model(settings.data.benchmark_runs_dir(finished.benchmark), finished.model_id, finished.revision)
    assert finished.run_dir == str(folder.path)
    summary = json.loads(folder.summary_path.read_text())
    assert summary["counts"]["scored_items"] == 3 and summary["overall"] is not None
    recorded = folder.read_request()
    assert (recorded["submitter"], recorded["queue_request_id"], recorded["precision"]) == ("alice", request.id, "float32")
    assert recorded["generation"]["max_tokens"] == 8 and recorded["generation"]["backend"] == "transformers"
    assert finished.parameters and recorded["parameters"] == finished.parameters  # the board's size column
    assert "finished" in finished.log_tail and finished.started_at < finished.finished_at
