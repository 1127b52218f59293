"""`consistency` for every judge scorer, not only WritingBench's rubric: the QA equivalence judge and the
adequacy judge of a benchmark declared only in tests are re-judged on a seeded sample, through the same
CLI, and the report says how far a second judge, or the same one again, agrees with the run's verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.benchmarks.saraiki.plugin import saraiki_benchmark
from eval_backend.cli import main
from eval_backend.consistency import CONSISTENCY_FILE, REJUDGMENTS_FILE, read_reports
from eval_backend.run_folder import RunFolder
from eval_backend.scorer_runs import read_verdicts, verdicts_path
from tests.eval_backend.test_scorer_runs import QUESTIONS, run_qa, seed_answer
from tests.eval_backend.test_toy_benchmark import translator
from tests.support.chat_server import StandInChatServer
from tests.support.qa_dataset import write_qa_dataset
from tests.support.qa_judge import qa_judge_reply, toy_decision
from tests.support.qa_runs import QA_JUDGE_MODEL, QaProfile, qa_model_reply
from tests.support.toy_translation import registered, toy_judge_reply, write_toy_dataset

CONTRARY = "contrary-judge"


def by_model(usual: Any, contrary: Any) -> Any:
    """The usual stand-in judge, except for requests to the model CONTRARY."""
    return lambda body: (contrary if body.get("model") == CONTRARY else usual)(body)


def consistency(folder: Path, benchmark: str, *extra: str) -> int:
    return main(["consistency", "--benchmark", benchmark, "--out-dir", str(folder), *extra])


@pytest.fixture
def judge_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("OPENAI_API_KEY", "stand-in")
    monkeypatch.setenv("JUDGE_TRANSPORT_RETRIES", "0")
    return monkeypatch


def test_the_qa_judge_agrees_with_itself_and_a_contrary_judge_never_does(tmp_path, judge_env) -> None:
    folder = RunFolder(tmp_path / "run")
    judged = QUESTIONS - 1  # the blank answer is ruled wrong without a call: never sampled
    reply = by_model(qa_judge_reply(), qa_judge_reply(lambda prompt: not toy_decision(prompt)))
    with StandInChatServer(qa_model_reply([QaProfile("acme/qa-7b", seed_answer)])) as model, \
            StandInChatServer(reply) as judge:
        run_qa(folder, write_qa_dataset(tmp_path / "qa"), model, judge)
        verdicts_before = verdicts_path(INDIC_QA, folder).read_bytes()
        judge_env.setenv("OPENAI_BASE_URL", judge.base_url)
        judge.clear()
        judge_env.setenv("JUDGE_MODEL", QA_JUDGE_MODEL)
        assert consistency(folder.path, "indic_qa", "--sample", "5", "--seed", "3") == 0
        assert len(judge.requests) == 5
        judge_env.setenv("JUDGE_MODEL", CONTRARY)
        assert consistency(folder.path, "indic_qa", "--sample", "100", "--reference-judge-model", QA_JUDGE_MODEL) == 0
        assert len(judge.requests) == 5 + judged
        judge.clear()
        assert consistency(folder.path, "indic_qa", "--sample", "100", "--reference-judge-model", QA_JUDGE_MODEL) == 0
        assert judge.requests == []  # resumed: the re-judgments on file are not sent again

    assert verdicts_path(INDIC_QA, folder).read_bytes() == verdicts_before  # never mixed into the run's verdicts
    reports = read_reports(folder)
    same, contrary = reports[QA_JUDGE_MODEL], reports[CONTRARY]
    assert (same.sampled, same.overall.pairs, same.overall.exact) == (5, 5, 1.0)
    assert (contrary.sampled, contrary.overall.pairs, contrary.overall.exact) == (judged, judged, 0.0)
    assert {pair.part for pair in contrary.pairs} == {"judge"}  # the judge scorer's name
    assert sum(f.pairs for f in contrary.per_config.values()) == judged and len(contrary.per_config) == 3
    written = json.loads((folder.path / CONSISTENCY_FILE).read_text())["judge_models"][CONTRARY]
    assert written["exact_agreement"] == 0.0 and written["pairs"][0][2] == "judge"
    assert len(read_verdicts(INDIC_QA, folder)) == judged
    lines = (folder.path / REJUDGMENTS_FILE).read_text().splitlines()  # the re-judgments are score lines
    assert len(lines) == 5 + judged and {json.loads(line)["scorer"] for line in lines} == {"judge"}


def test_a_benchmark_declared_only_in_tests_gets_consistency_from_the_cli(tmp_path, judge_env) -> None:
    judge_env.setenv("DATA_DIR", str(tmp_path / "data"))
    judge_env.setenv("TOY_DATASET", str(write_toy_dataset(tmp_path / "toy")))
    judge_env.setenv("JUDGE_MODEL", "stand-in-judge")
    reply = by_model(toy_judge_reply(), toy_judge_reply(adequate_above=101.0))  # the contrary: never adequate
    with registered(), StandInChatServer(translator) as model, StandInChatServer(reply) as judge:
        judge_env.setenv("OPENAI_BASE_URL", judge.base_url)
        assert main(["run", "--benchmark", "toy_translation", "--model", "acme/translator-1b", "--backend", "openai",
                     "--base-url", model.base_url]) == 0
        folder = tmp_path / "data" / "runs" / "toy_translation" / "acme__translator-1b" / "main"
        judge.clear()
        assert consistency(folder, "toy_translation", "--sample", "5") == 0
        assert len(judge.requests) == 5
        judge_env.setenv("JUDGE_MODEL", CONTRARY)
        assert consistency(folder, "toy_translation", "--sample", "7", "--reference-judge-model", "stand-in-judge") == 0

    reports = read_reports(RunFolder(folder))
    same, contrary = reports["stand-in-judge"], reports[CONTRARY]
    assert same.overall.exact == 1.0
    assert {config: figures.pairs for config, figures in same.per_config.items()} == {"hindi": 3, "tamil": 2}
    # The run found the 4 Hindi translations adequate and the 3 Tamil echoes not; the contrary judge none.
    assert contrary.overall.pairs == 7 and contrary.overall.exact == pytest.approx(3 / 7)
    assert contrary.per_config["tamil"].exact == 1.0 and contrary.per_config["hindi"].exact == 0.0


def test_saraiki_s_refusal_labels_are_compared_on_an_ordinal_scale() -> None:
    judge = saraiki_benchmark(refusal_judge=True).judge("refusal")
    degrees = [judge.agreement_value({"label": label, "reason": "r"}) for label in
               ("compliance", "partial_refusal", "refusal", "maybe")]
    assert degrees == [0, 1, 2, None]  # a partial refusal is one step from either; an unknown label, no value


def test_a_scorer_run_with_nothing_judged_is_refused_naming_its_verdict_file(tmp_path, judge_env, capsys) -> None:
    judge_env.setenv("JUDGE_MODEL", "stand-in-judge")
    with registered():
        assert consistency(tmp_path / "empty", "toy_translation", "--sample", "5") == 2
    assert "scores.jsonl: no such file" in capsys.readouterr().err
