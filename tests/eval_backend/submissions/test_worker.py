"""The worker: one claim-run-record cycle, its heartbeat, progress and log tail, and a killed worker's resume."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from eval_backend.benchmarks.chat_mode import ChatMode
from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARK
from eval_backend.benchmarks.writing_bench.records import ItemMeta
from eval_backend.coverage import Coverage
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.options import GenerationOptions
from eval_backend.pipeline import PhaseProgress, RunSpec, run_pipeline
from eval_backend.records import ResponseRecord, Usage, to_json_dict
from eval_backend.run_folder import RunFolder, RunFolderBusy
from eval_backend.scorer_runs import scored_items, summarize
from eval_backend.settings import DataSettings, QueueSettings, Settings
from eval_backend.submissions import NewRequest, Phase, QueueRequest, QueueStore, Status, SubmissionForm
from eval_backend.submissions.service import submit
from eval_backend.submissions.worker import Runner, poll_once, worker_loop
from tests.eval_backend.submissions.conftest import make_settings
from tests.eval_backend.test_scorer_runs import CONTEXT, dataset_with, run_qa, strong_answer
from tests.eval_backend.test_scorer_runs_saraiki import run_saraiki, silent_on_instructions_and_safety
from tests.support.built_once import built_once
from tests.support.chat_server import StandInChatServer
from tests.support.held_replies import HeldReplies
from tests.support.qa_judge import qa_judge_reply
from tests.support.qa_runs import QaProfile, qa_judge_settings, qa_model_reply
from tests.support.queue_backends import QueueBackend, on_backend
from tests.support.saraiki_dataset import saraiki_rows, write_saraiki_dataset, write_split
from tests.support.tiny_model import build_tiny_chat_model

REPO_ROOT = Path(__file__).resolve().parents[3]
BACKEND = {"backend": "transformers", "max_tokens": 8}
pipeline_logger = logging.getLogger("eval_backend.pipeline")  # as the pipeline logs

Progress = Callable[[PhaseProgress], None]


def queued(store: QueueStore, model: str = "org/model") -> QueueRequest:
    return store.add(NewRequest(model, "b" * 40, "main", "float32", False, "alice", BACKEND))


def finished_summary(overall: float | None) -> dict[str, Any]:
    """What a runner returns for a complete run: every expected item scored."""
    return {"overall": overall, "complete": True, "coverage": to_json_dict(Coverage(expected=1, scored=1)),
            "counts": {"items": 1, "scored_items": 1, "pending_items": 0}}


def wait_for(condition: Callable[[], Any], what: str, timeout_s: float = 120.0) -> Any:
    """Poll `condition` until it is truthy; fail naming `what` if it never is."""
    deadline = time.monotonic() + timeout_s
    while not (result := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
    return result


def test_an_empty_queue_runs_nothing(store: QueueStore, tmp_path: Path) -> None:
    assert poll_once(store, make_settings(tmp_path), worker_id="w") is None


def test_a_successful_run_records_progress_log_and_finish(store: QueueStore, tmp_path: Path) -> None:
    request = queued(store)
    settings = make_settings(tmp_path, heartbeat_interval_s=60)
    seen: list[QueueRequest] = []

    def runner(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Progress) -> Any:
        pipeline_logger.info("generating for %s", row.model_id)
        for done in range(3):
            on_progress(PhaseProgress("generating", done, 2))
        on_progress(PhaseProgress("judging", 4, 10))
        seen.append(store.get(row.id))
        on_progress(PhaseProgress("scoring", 1, 1))
        return finished_summary(7.5)

    ended = poll_once(store, settings, worker_id="w", runner=runner)
    assert ended is not None and ended.id == request.id
    assert (ended.status, ended.phase, ended.progress_done, ended.progress_total) == (Status.FINISHED, Phase.SCORING, 1, 1)
    assert (seen[0].phase, seen[0].progress_done, seen[0].progress_total) == (Phase.JUDGING, 4, 10)
    runs_dir = settings.data.benchmark_runs_dir("indic_writing_bench")
    assert ended.run_dir == str(RunFolder.for_model(runs_dir, "org/model", "b" * 40).path)
    assert "generating for org/model" in ended.log_tail and "request #1 finished -> " in ended.log_tail
    assert ended.error is None and ended.finished_at is not None


def test_a_run_with_pending_or_failed_items_is_not_finished_and_says_what_is_missing(
    store: QueueStore, tmp_path: Path
) -> None:
    request = queued(store)
    items = [ItemMeta("Hindi", n, f"Hindi-{n}", "Hindi", "native", "d", "s", "p", ()) for n in range(3)]
    answered = {items[0].key: ResponseRecord("Hindi", 0, None, error="prompt too long")}  # the floor
    benchmark = BENCHMARKS[DEFAULT_BENCHMARK]
    results = scored_items(benchmark, items, answered, [], "j")
    incomplete, _ = summarize(benchmark, results, Usage(), {}, expected={"Hindi": 3})

    def runner(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Progress) -> Any:
        return incomplete

    ended = poll_once(store, make_settings(tmp_path), worker_id="w", runner=runner)
    assert (ended.id, ended.status) == (request.id, Status.FAILED)
    assert ended.error == (
        "incomplete run: 1 of 3 items scored (0 with a failed judgment, 2 pending, 1 without an answer)"
    )


def test_a_failing_run_is_failed_with_its_error_and_the_worker_goes_on(store: QueueStore, tmp_path: Path) -> None:
    first, second = queued(store, "org/broken"), queued(store, "org/fine")

    def runner(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Progress) -> Any:
        if row.model_id == "org/broken":
            raise RuntimeError("CUDA out of memory")
        return finished_summary(None)

    handled = worker_loop(store, make_settings(tmp_path, poll_interval_s=0.01), once=False, runner=runner,
                          stop=_stop_when_empty(store))
    assert handled == 2
    failed = store.get(first.id)
    assert (failed.status, failed.error, failed.attempts) == (Status.FAILED, "RuntimeError: CUDA out of memory", 1)
    assert "Traceback" in failed.log_tail and "CUDA out of memory" in failed.log_tail
    assert store.get(second.id).status is Status.FINISHED


def _stop_when_empty(store: QueueStore) -> Any:
    """A stop event that is set once nothing is PENDING (for worker_loop in tests)."""
    class _Stop:
        def is_set(self) -> bool:
            return not store.list_requests(Status.PENDING)

        def wait(self, timeout: float) -> bool:
            return self.is_set()

    return _Stop()


def test_the_heartbeat_beats_while_the_run_works(store: QueueStore, tmp_path: Path) -> None:
    request = queued(store)

    def runner(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Progress) -> Any:
        claimed_beat = store.get(row.id).heartbeat_at
        wait_for(lambda: store.get(row.id).heartbeat_at != claimed_beat, "a heartbeat", timeout_s=30)
        return finished_summary(None)

    ended = poll_once(store, make_settings(tmp_path, heartbeat_interval_s=0.05), worker_id="w", runner=runner)
    assert ended is not None and ended.status is Status.FINISHED and ended.id == request.id


def test_a_request_cancelled_while_running_stays_cancelled(store: QueueStore, tmp_path: Path) -> None:
    request = queued(store)

    def runner(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Progress) -> Any:
        store.cancel(row.id)
        return finished_summary(None)

    ended = poll_once(store, make_settings(tmp_path), worker_id="w", runner=runner)
    assert ended is not None and ended.id == request.id and ended.status is Status.CANCELLED


def test_a_stalled_request_is_taken_again_by_the_next_poll(store: QueueStore, tmp_path: Path) -> None:
    request = queued(store)
    store.claim("dead-worker")
    time.sleep(0.01)
    ran: list[int] = []

    def runner(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Progress) -> Any:
        ran.append(row.attempts)
        return finished_summary(None)

    ended = poll_once(store, make_settings(tmp_path, stale_after_s=0.001), worker_id="w", runner=runner)
    assert ended is not None and ended.id == request.id and ended.status is Status.FINISHED
    assert ran == [2]


def _keys(path: Path, fields: tuple[str, ...]) -> list[tuple[Any, ...]]:
    return [tuple(json.loads(line)[name] for name in fields) for line in path.read_text().splitlines() if line.strip()]


# One backend: the point is a worker process killed and its folder resumed; the stale takeover's store calls are
# tested on both backends in test_queue_store.py, and test_many_workers.py kills a worker on PostgreSQL.
@on_backend("sqlite")
def test_a_killed_worker_request_is_resumed_without_redoing_finished_work(
    store: QueueStore, queue_backend: QueueBackend, tmp_path: Path, tiny_model: Path, dataset_dir: Path,
    judge_env: StandInChatServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    held = judge_env.reply = HeldReplies(answered=2)  # the worker is killed between two judgments, however slow
    monkeypatch.setenv("JUDGE_CONCURRENCY", "1")
    queue = {"allow_local_models": True, "backend_params": BACKEND, "run_limit": 1, "heartbeat_interval_s": 0.2,
             "stale_after_s": 2.0}
    settings = make_settings(tmp_path / "data", dataset=dataset_dir, **queue)
    [request] = submit(SubmissionForm(str(tiny_model), precision="float32"), None, store=store, settings=settings)
    env = {
        **os.environ, "DATA_DIR": str(tmp_path / "data"), "WB_DATASET": str(dataset_dir), "ALLOW_LOCAL_MODELS": "true",
        "WORKER_BACKEND_PARAMS": json.dumps(BACKEND), "WORKER_RUN_LIMIT": "1", "WORKER_HEARTBEAT_S": "0.2",
        **queue_backend.env(),
    }
    worker = subprocess.Popen([sys.executable, "-m", "eval_backend", "worker", "--once"], cwd=REPO_ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        folder = RunFolder.for_model(settings.data.benchmark_runs_dir(request.benchmark), request.model_id, request.revision)
        wait_for(lambda: folder.judgments_path.exists() and folder.judgments_path.read_text().count("\n") >= 2,
                 "the first judgments", timeout_s=180)
    finally:
        worker.send_signal(signal.SIGKILL)
        stderr = worker.communicate()[1].decode(errors="replace")
    killed = store.get(request.id)
    assert killed.status is Status.RUNNING and killed.phase is Phase.JUDGING, stderr
    responses_before = folder.responses_path.read_text()
    judgments_before = _keys(folder.judgments_path, ("config", "index", "criterion_index"))
    assert len(judgments_before) < 15

    held.release()
    ended = wait_for(lambda: poll_once(store, settings, worker_id="next-worker"), "the stale request to be taken again")
    assert (ended.id, ended.status, ended.attempts) == (request.id, Status.FINISHED, 2)
    assert "PENDING: worker" in ended.log_tail and "stopped responding" in ended.log_tail
    assert folder.responses_path.read_text() == responses_before  # nothing generated again
    judgments = _keys(folder.judgments_path, ("config", "index", "criterion_index"))
    assert judgments[: len(judgments_before)] == judgments_before
    assert len(judgments) == len(set(judgments)) == 15  # 3 items x 5 criteria, none judged twice
    assert len(judge_env.requests) <= 15 + 1  # at most the one call in flight at the kill was lost
    assert json.loads(folder.summary_path.read_text())["counts"]["scored_items"] == 3


# Session fixtures, not per module: the module's tests (several kill a worker) would all be kept on one xdist worker.
@pytest.fixture(scope="session")
def saraiki_knowledge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Saraiki benchmark with one task, `knowledge`: two items, each with its five shots from `dev`."""
    root = tmp_path_factory.mktemp("saraiki")
    write_split(root, "knowledge", "test", saraiki_rows("knowledge", "test", 2))
    write_split(root, "knowledge", "dev", saraiki_rows("knowledge", "dev", 5))
    return root


@pytest.fixture(scope="session")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A chat model and a base model (no chat template), with room for five shots of Saraiki text."""
    return built_once(tmp_path_factory, "saraiki-chat-and-base-models", _chat_and_base_models)


def _chat_and_base_models(root: Path) -> dict[str, Path]:
    return {kind: build_tiny_chat_model(root / kind, max_position_embeddings=4096, **template)
            for kind, template in (("chat", {}), ("base", {"chat_template": None}))}


# One backend: the point is the chat mode from the form to the run folder, which the store passes through as a
# column tested on both backends in test_queue_store.py.
@on_backend("postgres")
@pytest.mark.parametrize(
    ("model", "choice", "mode"),
    [("base", "auto", ChatMode.RAW), ("chat", "auto", ChatMode.CHAT), ("chat", "raw", ChatMode.RAW)],
)
def test_the_submitted_chat_mode_is_the_mode_the_saraiki_run_asks_in_and_records(
    store: QueueStore, tmp_path: Path, saraiki_knowledge: Path, models: dict[str, Path], judge_env: StandInChatServer,
    model: str, choice: str, mode: ChatMode,
) -> None:
    settings = Settings(
        data=DataSettings(data_dir=tmp_path / "data", saraiki_dataset=str(saraiki_knowledge)),
        queue=QueueSettings(allow_local_models=True, backend_params={"backend": "transformers"}),
    )
    form = SubmissionForm(str(models[model]), precision="float32", benchmarks=("saraiki",), chat_mode=choice)
    [request] = submit(form, None, store=store, settings=settings)
    assert request.chat_mode is mode

    ended = poll_once(store, settings, worker_id="w")
    assert ended is not None and ended.status is Status.FINISHED, ended and ended.error
    folder = RunFolder(Path(str(ended.run_dir)))
    chat = mode is ChatMode.CHAT
    assert json.loads(folder.request_path.read_text(encoding="utf-8"))["generation"]["chat"] is chat
    items = [json.loads(line) for line in (folder.path / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(items) == 2 and {item["chat"] for item in items} == {chat}
    assert json.loads(folder.summary_path.read_text(encoding="utf-8"))["chat"] is chat  # the board's Prompts column


@on_backend("sqlite")
def test_the_license_and_open_weights_of_the_request_reach_request_json(
    store: QueueStore, tmp_path: Path, saraiki_knowledge: Path, models: dict[str, Path], judge_env: StandInChatServer,
) -> None:
    settings = Settings(data=DataSettings(data_dir=tmp_path / "data", saraiki_dataset=str(saraiki_knowledge)))
    store.add(NewRequest(str(models["chat"]), "local-0123", "local", "float32", False, "alice",
                         {"backend": "transformers"}, benchmark="saraiki", license="apache-2.0", open_weights=True))
    ended = poll_once(store, settings, worker_id="w")
    assert ended is not None and ended.status is Status.FINISHED, ended and ended.error
    request = json.loads(RunFolder(Path(str(ended.run_dir))).request_path.read_text(encoding="utf-8"))
    assert (request["license"], request["open_weights"]) == ("apache-2.0", True)  # what the board's filters read


def test_a_request_whose_folder_another_process_holds_goes_back_unspent_and_the_rest_of_the_queue_goes_first(
    store: QueueStore, tmp_path: Path
) -> None:
    held, free = queued(store, "org/held"), queued(store, "org/free")
    polls = {"left": 20}  # a bound, so that a worker stuck on the held request ends the test instead of hanging it

    def runner(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Progress) -> Any:
        if row.model_id == "org/held":
            raise RunFolderBusy(f"run folder {folder.path} is in use by pid 1 on elsewhere")
        return finished_summary(7.0)

    class _Stop:
        def is_set(self) -> bool:
            polls["left"] -= 1
            return polls["left"] < 0 or store.get(free.id).status is Status.FINISHED

        def wait(self, timeout: float) -> bool:
            return self.is_set()

    worker_loop(store, make_settings(tmp_path, poll_interval_s=0.01), runner=runner, stop=_Stop())  # type: ignore[arg-type]
    assert store.get(free.id).status is Status.FINISHED
    given_back = store.get(held.id)
    assert (given_back.status, given_back.attempts) == (Status.PENDING, 0)
    assert "requeued without using an attempt" in (given_back.error or "")


def test_a_qa_run_with_a_question_that_never_fits_is_finished(store: QueueStore, tmp_path: Path) -> None:
    request = store.add(NewRequest("acme/qa-7b", "b" * 40, "main", "float32", False, "alice", benchmark="indic_qa"))
    dataset = dataset_with(tmp_path / "qa", extra=True)
    profile = QaProfile("acme/qa-7b", strong_answer)
    with StandInChatServer(qa_model_reply([profile]), max_model_len=CONTEXT) as model, \
            StandInChatServer(qa_judge_reply()) as judge:
        ended = poll_once(store, make_settings(tmp_path / "data"), worker_id="w",
                          runner=lambda row, folder, _, on_progress: run_qa(folder, dataset, model, judge))
    assert (ended.id, ended.status, ended.error) == (request.id, Status.FINISHED, None)
    summary = json.loads(RunFolder(Path(str(ended.run_dir))).summary_path.read_text(encoding="utf-8"))
    assert summary["complete"] and summary["coverage"]["no_response"] == 1


def test_a_saraiki_run_with_unanswered_items_is_finished(store: QueueStore, tmp_path: Path) -> None:
    request = store.add(NewRequest("acme/saraiki-7b", "b" * 40, "main", "float32", False, "alice", benchmark="saraiki"))
    dataset = write_saraiki_dataset(tmp_path / "saraiki", test_rows=4)
    with StandInChatServer(silent_on_instructions_and_safety) as model:
        ended = poll_once(store, make_settings(tmp_path / "data"), worker_id="w",
                          runner=lambda row, folder, _, on_progress: run_saraiki(folder, dataset, model))
    assert (ended.id, ended.status, ended.error) == (request.id, Status.FINISHED, None)
    summary = json.loads(RunFolder(Path(str(ended.run_dir))).summary_path.read_text(encoding="utf-8"))
    assert summary["complete"] and summary["coverage"]["no_response"] == 6


def test_a_limited_run_is_finished_but_never_published_and_a_complete_one_is(
    store: QueueStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    published: list[Path] = []
    monkeypatch.setattr("eval_backend.submissions.worker.push_run", lambda folder, _: published.append(folder.path))
    dataset = dataset_with(tmp_path / "qa")
    profile = QaProfile("acme/qa-7b", strong_answer)
    with StandInChatServer(qa_model_reply([profile])) as model, StandInChatServer(qa_judge_reply()) as judge:
        def runner(limit: int | None) -> Runner:
            def run(row: QueueRequest, folder: RunFolder, _: Settings, on_progress: Progress) -> Any:
                options = GenerationOptions.for_benchmark(INDIC_QA, row.model_id, backend="openai",
                                                          base_url=model.base_url)
                spec = RunSpec(INDIC_QA, DatasetSpec(str(dataset)), folder, limit=limit)
                return run_pipeline(spec, {"model": row.model_id, "limit": limit}, options,
                                    qa_judge_settings(judge.base_url))
            return run

        for revision, limit in (("a" * 40, 1), ("b" * 40, None)):
            store.add(NewRequest("acme/qa-7b", revision, revision, "float32", False, "alice", benchmark="indic_qa"))
            settings = make_settings(tmp_path / "data", run_limit=limit)
            ended = poll_once(store, settings, worker_id="w", runner=runner(limit))
            assert ended.status is Status.FINISHED, ended.error
            summary = json.loads(RunFolder(Path(str(ended.run_dir))).summary_path.read_text(encoding="utf-8"))
            assert summary["complete"] is (limit is None)
    assert published == [RunFolder(Path(str(ended.run_dir))).path]  # the complete run only
