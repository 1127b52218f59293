"""Each dataset config is read from disk (or the Hub) once per run: counted on the loader itself."""

from __future__ import annotations

from collections import Counter

import pytest

import eval_backend.dataset_loader as dataset_loader
from eval_backend.run_folder import RunFolder
from tests.eval_backend.test_scorer_runs import run_qa, seed_answer
from tests.support.chat_server import StandInChatServer
from tests.support.qa_dataset import QA_ROWS, write_qa_dataset
from tests.support.qa_judge import qa_judge_reply
from tests.support.qa_runs import QaProfile, qa_model_reply


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """How often each (config, split) of a dataset is read, counted where every read goes through."""
    counted: Counter = Counter()
    load_rows = dataset_loader._load_rows

    def counting(benchmark, spec, config, split=None):  # type: ignore[no-untyped-def]
        counted[(config, split or benchmark.split)] += 1
        return load_rows(benchmark, spec, config, split)

    monkeypatch.setattr(dataset_loader, "_load_rows", counting)
    return counted


def test_a_qa_run_reads_each_config_once(tmp_path, reads) -> None:
    with StandInChatServer(qa_model_reply([QaProfile("acme/qa-7b", seed_answer)])) as model, \
            StandInChatServer(qa_judge_reply()) as judge:
        run_qa(RunFolder(tmp_path / "run"), write_qa_dataset(tmp_path / "qa"), model, judge)
    print("qa", dict(reads))
    assert set(reads.values()) == {1} and {config for config, _ in reads} == set(QA_ROWS)

