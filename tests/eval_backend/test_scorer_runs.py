"""A benchmark of rule and judge scorers (the QA plug-in) through the engine's real phases, against stand-in servers.

Generation runs on the openai backend and the QA judge over HTTP; both are stand-ins on
127.0.0.1. The answers are chosen so that every verdict is known in advance.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.qa.plugin import INDIC_QA
from eval_backend.dataset_loader import DatasetSpec
from eval_backend.generation.options import GenerationOptions
from eval_backend.jsonl import read_jsonl
from eval_backend.pipeline import RunSpec, run_pipeline, score_folder
from eval_backend.run_folder import RunFolder, RunFolderError
from eval_backend.scorer_runs import read_verdicts, verdicts_path
from tests.support.chat_server import FaultPlan, StandInChatServer, user_text
from tests.support.qa_dataset import QA_ROWS, write_qa_dataset
from tests.support.qa_judge import qa_judge_reply
from tests.support.qa_runs import QaProfile, qa_judge_settings, qa_model_reply

QUESTIONS = sum(len(rows) for rows in QA_ROWS.values())
# The seed's own cases: a reordered answer passes word overlap only; a rejected mention passes
# exact substring but not the judge; a blank answer is wrong everywhere without a judge call.
SEED_CASES = {
    "Ruru Jataka": "Jataka Ruru",
    "Narmada valley": "the Narmada river valley",
    "amalak": "Amalaka",
    "Calcutta": "Calcutta is not the answer; it's Delhi",
    "गंगा": "गंगा नदी",
    "आगरा": "   ",
}


def seed_answer(question: str, golden: str) -> str:
    return SEED_CASES.get(golden, f"<think>Let me think.</think>\n\n{golden}")


def run_qa(folder: RunFolder, dataset: Path, model: StandInChatServer, judge: StandInChatServer, **judge_overrides):
    options = GenerationOptions.for_benchmark(INDIC_QA, "acme/qa-7b", backend="openai", base_url=model.base_url)
    spec = RunSpec(INDIC_QA, DatasetSpec(str(dataset)), folder)
    return run_pipeline(spec, {"model": "acme/qa-7b", "revision": "main"}, options,
                        qa_judge_settings(judge.base_url, **judge_overrides))


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return write_qa_dataset(tmp_path / "qa-dataset")


@pytest.fixture
def model() -> StandInChatServer:
    with StandInChatServer(qa_model_reply([QaProfile("acme/qa-7b", seed_answer)])) as server:
        yield server


def test_each_question_is_asked_once_greedily_in_one_chat_turn(tmp_path, dataset, model) -> None:
    with StandInChatServer(qa_judge_reply()) as judge:
        run_qa(RunFolder(tmp_path / "run"), dataset, model, judge)
    asked = [request.body for request in model.requests]
    assert len(asked) == QUESTIONS
    for body in asked:
        assert body["messages"] == [{"role": "user", "content": body["messages"][0]["content"]}]
        assert body["temperature"] == 0.0 and "extra_body" not in body and "top_k" not in body
        assert body["max_tokens"] == INDIC_QA.sampling.max_tokens


def test_the_summary_has_the_seeds_verdicts_per_language_and_domain(tmp_path, dataset, model) -> None:
    folder = RunFolder(tmp_path / "run")
    with StandInChatServer(qa_judge_reply()) as judge:
        summary = run_qa(folder, dataset, model, judge)
        # The judge saw the text after </think>, and was never asked about the blank answer.
        assert len(judge.requests) == QUESTIONS - 1
        assert all(request.body["temperature"] == 0.0 for request in judge.requests)

    details = pd.read_parquet(folder.details_path).set_index("answer")
    assert list(details.loc["Ruru Jataka", ["exact_correct", "overlap_correct", "agreement"]]) == [
        False, True, "overlap_only"]
    assert list(details.loc["amalak", ["exact_correct", "overlap_correct"]]) == [True, False]
    assert list(details.loc["Calcutta", ["exact_correct", "judge_correct"]]) == [True, False]
    assert details.loc["आगरा", "blank_response"] and not details.loc["आगरा", "judge_correct"]
    assert details.loc["आगरा", "judge_reason"] == "blank response"
    assert details.loc["देवनागरी", "reasoning"] == "<think>Let me think.</think>\n\n"
    assert details.loc["देवनागरी", "response"] == "देवनागरी"

    english = summary["by_language"]["english"]["metrics"]
    assert (english["exact"], english["overlap"], english["judge"]) == (50.0, 75.0, 25.0)
    assert english["overlap_only"] == 2  # the reordered and the inserted-word answers
    hindi = summary["by_language"]["hindi"]["metrics"]
    assert hindi["blank_responses"] == 1 and hindi["exact"] == pytest.approx(200 / 3)
    assert summary["by_domain"]["Art"]["metrics"]["exact"] == 50.0  # Ruru Jataka wrong, amalak right
    pooled = summary["metrics"]
    # Combined accuracy is the micro-average over every question, not a mean of languages.
    assert pooled["exact"] == pytest.approx(100 * 6 / QUESTIONS)
    assert pooled["judge"] == pytest.approx(100 * 5 / QUESTIONS)
    assert summary["combined"]["agreement"] == {"both": 5, "exact_only": 1, "overlap_only": 2, "neither": 1}
    assert summary["combined"]["judge"]["temperature"] == 0.0
    # The blank answer is no answer: scored by the policy (as the seed scores a blank), no judge asked.
    assert summary["counts"]["no_response_items"] == 1 and summary["counts"]["ruled_judgments"] == 0
    assert summary["counts"]["failed_judgments"] == 0
    assert summary["complete"] and summary["coverage"]["no_response"] == 1


def test_a_finished_run_resumes_with_no_call_and_rescoring_needs_no_judge(tmp_path, dataset, model) -> None:
    folder = RunFolder(tmp_path / "run")
    with StandInChatServer(qa_judge_reply()) as judge:
        first = run_qa(folder, dataset, model, judge)
        model.clear(), judge.clear()
        again = run_qa(folder, dataset, model, judge)
        assert model.requests == [] and judge.requests == []
    assert again["metrics"] == first["metrics"]
    lines = [line for _, line in read_jsonl(verdicts_path(INDIC_QA, folder))]
    assert len(lines) == QUESTIONS - 1
    assert score_folder(INDIC_QA, folder)["metrics"] == first["metrics"]


def test_a_failed_judgment_is_recorded_counted_and_sent_again_on_request(tmp_path, dataset, model) -> None:
    folder = RunFolder(tmp_path / "run")
    # Every attempt at judging the reordered answer is unparsable: a final, counted failure.
    faults = FaultPlan(key_fn=lambda body: "reordered" if "Jataka Ruru" in user_text(body) else "other")
    faults.script("reordered", *["non_json"] * 3)
    with StandInChatServer(qa_judge_reply(), faults=faults) as judge:
        summary = run_qa(folder, dataset, model, judge)
        failed = [record for record in read_verdicts(INDIC_QA, folder) if record.failed]
        assert len(failed) == 1 and failed[0].error_kind == "invalid_answer" and failed[0].raw_text
        assert summary["counts"]["failed_judgments"] == 1
        assert summary["combined"]["judge"]["failed"] == 1
        assert summary["metrics"]["judge"] == pytest.approx(100 * 5 / (QUESTIONS - 1))  # left out, not wrong

        judge.clear()
        assert run_qa(folder, dataset, model, judge)["counts"]["failed_judgments"] == 1
        assert judge.requests == []  # a final failure is not owed again on a plain resume
        spec = RunSpec(INDIC_QA, DatasetSpec(str(dataset)), folder)
        options = GenerationOptions.for_benchmark(INDIC_QA, "acme/qa-7b", backend="openai", base_url=model.base_url)
        retried = run_pipeline(spec, {"model": "acme/qa-7b"}, options, qa_judge_settings(judge.base_url),
                               retry_failed=True)
        assert len(judge.requests) == 1
    assert retried["counts"]["failed_judgments"] == 0


def test_a_judge_that_refuses_temperature_zero_is_asked_without_and_the_summary_says_so(
    tmp_path, dataset, model
) -> None:
    folder = RunFolder(tmp_path / "run")
    with StandInChatServer(qa_judge_reply(refuse_temperature=True)) as judge:
        summary = run_qa(folder, dataset, model, judge)
    assert summary["counts"]["failed_judgments"] == 0
    assert summary["combined"]["judge"]["temperature"] is None
    assert "refused" in summary["combined"]["judge"]["temperature_refused"]
    assert all(record.temperature is None for record in read_verdicts(INDIC_QA, folder))


def test_a_damaged_scores_file_is_named_with_its_line(tmp_path, dataset, model) -> None:
    folder = RunFolder(tmp_path / "run")
    with StandInChatServer(qa_judge_reply()) as judge:
        run_qa(folder, dataset, model, judge)
    path = verdicts_path(INDIC_QA, folder)
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0], '{"config": "english"}', *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(RunFolderError, match=rf"{path}:2: not a valid verdict"):
        score_folder(INDIC_QA, folder)


# --- the engine's trust rules on the QA plug-in ------------------------------------------------

LONG_QUESTION = (
    "नीचे दिए गए लंबे अनुच्छेद को ध्यान से पढ़िए और बताइए कि इसमें किस नदी का उल्लेख है। "
    + "यह अनुच्छेद भारत की नदियों, उनके उद्गम, उनकी सहायक नदियों और उनके किनारे बसे नगरों के बारे में है। " * 40
)
"""About 4,000 characters (1,000 tokens at the stand-in's four characters a token): it never fits."""
CONTEXT = 600
"""The stand-in model's context in tokens: every short question fits (its answer capped to the room
left), the long question alone does not."""


def dataset_with(root: Path, changes: dict[str, tuple[str, str, str]] | None = None, extra: bool = False) -> Path:
    """The QA dataset with `changes` (golden answer -> its corrected row) and, with `extra`, the long question."""
    rows = {config: [(changes or {}).get(row[1], row) for row in config_rows] for config, config_rows in QA_ROWS.items()}
    if extra:
        rows["hindi"] = [*rows["hindi"], (LONG_QUESTION, "गंगा", "Geography")]
    return write_qa_dataset(root, rows)


def strong_answer(question: str, golden: str) -> str:
    return f"The answer is {golden}."


@pytest.fixture
def strong_model() -> StandInChatServer:
    profile = QaProfile("acme/qa-7b", lambda question, golden: strong_answer(question, golden))
    with StandInChatServer(qa_model_reply([profile]), max_model_len=CONTEXT) as server:
        yield server


def test_a_question_that_never_fits_is_wrong_under_every_scorer_and_the_run_is_complete(
    tmp_path, strong_model
) -> None:
    folder = RunFolder(tmp_path / "run")
    with StandInChatServer(qa_judge_reply()) as judge:
        summary = run_qa(folder, dataset_with(tmp_path / "qa", extra=True), strong_model, judge)
        assert len(judge.requests) == QUESTIONS  # never asked about the question with no answer
    answered = QUESTIONS  # every short question answered right; the long one has no answer
    for metric in ("exact", "overlap", "judge"):  # counted wrong, in every denominator: not left out
        assert summary["metrics"][metric] == pytest.approx(100 * answered / (answered + 1))
    hindi = summary["by_language"]["hindi"]["metrics"]
    assert hindi["judge"] == pytest.approx(300 / 4) and hindi["n"] == 4
    assert summary["complete"] is True
    assert summary["coverage"] == {"expected": QUESTIONS + 1, "scored": QUESTIONS, "failed": 0, "no_response": 1,
                                   "pending": 0, "configs": 3, "dataset_configs": 3}
    details = pd.read_parquet(folder.details_path).set_index("question")
    unanswered = details.loc[LONG_QUESTION]
    assert "does not fit the context of 600" in unanswered["response_error"]
    assert not unanswered["exact_correct"] and not unanswered["judge_correct"]


def test_a_corrected_golden_answer_is_judged_again_once_and_nothing_is_generated_again(
    tmp_path, dataset, model
) -> None:
    folder = RunFolder(tmp_path / "run")
    with StandInChatServer(qa_judge_reply()) as judge:
        first = run_qa(folder, dataset, model, judge)
        assert first["by_language"]["hindi"]["metrics"]["judge"] == pytest.approx(200 / 3)
        # The script question's golden answer is corrected; the model's "देवनागरी" no longer matches.
        corrected = dataset_with(dataset, {"देवनागरी": ("हिंदी किस लिपि में लिखी जाती है?", "नागरी लिपि", "Language")})
        model.clear(), judge.clear()
        second = run_qa(folder, corrected, model, judge)
        assert model.requests == []  # the question did not change: its answer stands
        assert len(judge.requests) == 1 and "नागरी लिपि" in user_text(judge.requests[0].body)
        model.clear(), judge.clear()
        third = run_qa(folder, corrected, model, judge)
        assert model.requests == [] and judge.requests == []  # once, not at every run
    hindi = second["by_language"]["hindi"]["metrics"]
    assert (hindi["exact"], hindi["judge"]) == (pytest.approx(100 / 3), pytest.approx(100 / 3))
    assert third["metrics"] == second["metrics"] and second["complete"]


def test_a_limited_run_is_never_complete(tmp_path, dataset, model) -> None:
    folder = RunFolder(tmp_path / "run")
    options = GenerationOptions.for_benchmark(INDIC_QA, "acme/qa-7b", backend="openai", base_url=model.base_url)
    with StandInChatServer(qa_judge_reply()) as judge:
        spec = RunSpec(INDIC_QA, DatasetSpec(str(dataset)), folder, limit=1)
        summary = run_pipeline(spec, {"model": "acme/qa-7b", "limit": 1}, options, qa_judge_settings(judge.base_url))
    assert len(model.requests) == 3  # the first question of each language
    assert summary["complete"] is False and summary["provenance"]["limit"] == 1
    assert summary["coverage"]["expected"] == QUESTIONS and summary["coverage"]["pending"] == QUESTIONS - 3


def test_every_figure_has_a_bootstrap_interval_around_it_pooled_and_per_language(tmp_path, dataset, model) -> None:
    with StandInChatServer(qa_judge_reply()) as judge:
        summary = run_qa(RunFolder(tmp_path / "run"), dataset, model, judge)
    for metric in ("judge", "exact", "overlap"):
        low, high = summary["intervals"][metric]
        assert 0 <= low <= summary["metrics"][metric] <= high <= 100 and low < high
        for language, figures in summary["by_language"].items():
            low, high = summary["config_intervals"][language][metric]
            assert low <= figures["metrics"][metric] <= high
    assert "blank_responses" not in summary["intervals"]  # a count has no interval
