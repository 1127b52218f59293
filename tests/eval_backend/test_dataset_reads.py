"""How often a run reads each dataset config from disk (or the Hub), counted on the loader itself.

A QA or Saraiki run reads each config once: its items.jsonl holds the items whole, so the judge
phase takes them from there. A WritingBench run reads each config twice: once to prepare and generate,
and once, config by config, while it is judged (its queries are not held in between).
"""

from __future__ import annotations

from collections import Counter

import pytest

import eval_backend.dataset_loader as dataset_loader
from eval_backend.run_folder import RunFolder
from tests.eval_backend.cli.test_judge_cmd import run_judge, write_responses
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



def test_a_writing_bench_run_reads_each_config_once_to_prepare_and_once_to_judge(
    tmp_path, dataset_dir, items, judge_env, reads
) -> None:
    """The rubric's items.jsonl holds no queries, and holding every config's queries through the judge
    phase would cost ~200 MB at full size: each config is read again, alone, while it is judged."""
    responses = write_responses(tmp_path / "responses.jsonl", items)
    assert run_judge(dataset_dir, responses, tmp_path / "run") == 0
    assert reads == {(config, "test"): 2 for config in {item.config for item in items}}
