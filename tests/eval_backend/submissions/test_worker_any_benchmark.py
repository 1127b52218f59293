"""The queue's worker runs any registered benchmark through the real runner: a benchmark declared only
in tests (the toy translation set) is claimed, generated, judged live or through the Batch API
(`JUDGE_MODE`, as a deployment sets it), scored with coverage and intervals, FINISHED and published."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from eval_backend.run_folder import RunFolder
from eval_backend.submissions import NewRequest, QueueStore, Status
from eval_backend.submissions.worker import poll_once
from tests.eval_backend.submissions.conftest import make_settings
from tests.eval_backend.test_dataset_reads import reads  # noqa: F401  (fixture)
from tests.eval_backend.test_toy_benchmark import translator
from tests.support.batch_server import StandInBatchServer
from tests.support.chat_server import StandInChatServer
from tests.support.toy_translation import ROWS, registered, toy_judge_reply, write_toy_dataset

MODEL = "acme/" + "translator-with-a-long-name-" * 3 + "1b"  # a long model id, as the Hub allows


@pytest.mark.parametrize("judge_mode", ["live", "batch"])
def test_a_queued_toy_submission_runs_to_finished_with_coverage_and_intervals(
    judge_mode: str, store: QueueStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    published: list[Path] = []
    monkeypatch.setattr("eval_backend.submissions.worker.push_run", lambda folder, _: published.append(folder.path))
    monkeypatch.setenv("TOY_DATASET", str(write_toy_dataset(tmp_path / "toy")))
    monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
    monkeypatch.setenv("JUDGE_TRANSPORT_RETRIES", "0")
    monkeypatch.setenv("JUDGE_MODE", judge_mode)
    monkeypatch.setenv("JUDGE_BATCH_POLL_S", "0.01")
    judge_server = StandInBatchServer if judge_mode == "batch" else StandInChatServer
    with registered(), StandInChatServer(translator) as model, judge_server(toy_judge_reply()) as judge:
        monkeypatch.setenv("OPENAI_BASE_URL", judge.base_url)
        monkeypatch.setenv("GENERATION_BASE_URL", model.base_url)
        request = store.add(NewRequest(MODEL, "b" * 40, "main", "float32", False, "alice", {"backend": "openai"},
                                       benchmark="toy_translation"))
        ended = poll_once(store, make_settings(tmp_path / "data"), worker_id="w")
        assert len(model.requests) == 7
        if judge_mode == "batch":
            assert len(judge.created) == 1 and len(judge.lines) == 7 and judge.live_calls == []

    assert (ended.id, ended.status, ended.error) == (request.id, Status.FINISHED, None)
    folder = RunFolder(Path(str(ended.run_dir)))
    assert published == [folder.path]
    summary = json.loads(folder.summary_path.read_text(encoding="utf-8"))
    assert summary["complete"] is True and summary["provenance"]["judge_mode"] == judge_mode
    assert summary["coverage"]["expected"] == summary["coverage"]["scored"] == 7
    assert summary["metrics"]["adequacy"] == pytest.approx(100.0 * 4 / 7)  # the Hindi four are right
    # Each language is a stratum and its verdicts are uniform, so adequacy's interval is the point;
    # chrF varies within the Tamil items, so its interval has width.
    assert summary["intervals"]["adequacy"] == pytest.approx([100.0 * 4 / 7] * 2)
    low, high = summary["intervals"]["chrf"]
    assert low < summary["metrics"]["chrf"] < high
    assert set(summary["config_intervals"]) == {"hindi", "tamil"}


def test_a_queued_run_reads_each_dataset_config_once(
    store: QueueStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads: Counter
) -> None:
    monkeypatch.setattr("eval_backend.submissions.worker.push_run", lambda folder, _: None)
    monkeypatch.setenv("TOY_DATASET", str(write_toy_dataset(tmp_path / "toy")))
    monkeypatch.setenv("JUDGE_MODEL", "stand-in-judge")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
    with registered(), StandInChatServer(translator) as model, StandInChatServer(toy_judge_reply()) as judge:
        monkeypatch.setenv("OPENAI_BASE_URL", judge.base_url)
        monkeypatch.setenv("GENERATION_BASE_URL", model.base_url)
        store.add(NewRequest(MODEL, "b" * 40, "main", "float32", False, "alice", {"backend": "openai"},
                             benchmark="toy_translation"))
        assert poll_once(store, make_settings(tmp_path / "data"), worker_id="w").status is Status.FINISHED
    assert reads == {(config, "test"): 1 for config in ROWS}
