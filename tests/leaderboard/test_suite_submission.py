"""A model submitted once is evaluated on each benchmark it was submitted for and shows on every board.

The whole path, real at every step: the submission's checks and the queue (one request per
benchmark), the worker with the transformers backend on a tiny local model, the stand-in judge
answering both judges' prompts over HTTP, the run folders, and the board's readers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH
from eval_backend.settings import DataSettings, JudgeSettings, QueueSettings, Settings
from eval_backend.submissions import SubmissionForm, open_queue
from eval_backend.submissions.queue_store import Status
from eval_backend.submissions.service import submit
from eval_backend.submissions.worker import poll_once
from leaderboard.app_factory import benchmark_stores
from leaderboard.overview import headline_column, overview_frame
from leaderboard.scored_tables import ranking_frame
from tests.support.chat_server import Reply, StandInChatServer, judge_reply, user_text
from tests.support.hub_dataset import DatasetShape, write_writing_bench_dataset
from tests.support.qa_dataset import write_qa_dataset
from tests.support.qa_judge import parse_qa_judge_prompt, qa_judge_reply
from tests.support.tiny_model import build_tiny_chat_model


def either_judge(body: dict[str, Any]) -> Reply:
    """The QA judge's verdict for a QA judge prompt, else WritingBench's rubric score."""
    if parse_qa_judge_prompt(user_text(body)) is not None:
        return qa_judge_reply()(body)
    return judge_reply()(body)


@pytest.fixture
def judge() -> Iterator[StandInChatServer]:
    with StandInChatServer(either_judge) as server:
        yield server


def test_one_submission_runs_each_benchmark_apart_and_appears_on_both_boards(tmp_path: Path, judge) -> None:
    model = build_tiny_chat_model(tmp_path / "tiny-model")
    settings = Settings(
        data=DataSettings(
            data_dir=tmp_path / "data",
            dataset=str(write_writing_bench_dataset(tmp_path / "wb", DatasetShape(configs={"Hindi": 2}))),
            qa_dataset=str(write_qa_dataset(tmp_path / "qa")),
        ),
        judge=JudgeSettings(model="stand-in-judge", base_url=judge.base_url, api_key="stand-in", transport_retries=0),
        queue=QueueSettings(allow_local_models=True, backend_params={"backend": "transformers", "max_tokens": 4}),
    )
    form = SubmissionForm(str(model), precision="float32", benchmarks=(INDIC_WRITING_BENCH.name, INDIC_QA.name))
    with open_queue(settings) as store:
        queued = submit(form, None, store=store, settings=settings)
        assert sorted(request.benchmark for request in queued) == sorted(form.benchmarks)
        ended = [poll_once(store, settings, worker_id="w") for _ in queued]
        assert poll_once(store, settings, worker_id="w") is None  # nothing left: each benchmark ran once
    assert {request.benchmark: request.status for request in ended} == {
        INDIC_WRITING_BENCH.name: Status.FINISHED, INDIC_QA.name: Status.FINISHED}
    for request in ended:  # each in its own benchmark's tree
        assert Path(request.run_dir).parent.parent == settings.data.benchmark_runs_dir(request.benchmark)

    stores = benchmark_stores(settings)
    wb_runs, qa_runs = stores[INDIC_WRITING_BENCH.name].snapshot().runs, stores[INDIC_QA.name].snapshot().runs
    assert [run.model for run in wb_runs] == [str(model)] == [run.model for run in qa_runs]
    assert ranking_frame(qa_runs, INDIC_QA)["items"].tolist() == [9]
    overview = overview_frame({name: store.snapshot().runs for name, store in stores.items()})
    assert len(overview) == 1  # one model revision, one row
    row = overview.iloc[0]
    assert row[headline_column(INDIC_WRITING_BENCH)] == pytest.approx(wb_runs[0].summary["config_groups"]["indic"])
    assert row[headline_column(INDIC_QA)] == qa_runs[0].summary["metrics"]["judge"]
