"""The pipeline over a run folder: the dataset pinned per run, coverage measured against it,
and a changed dataset redoing exactly the items that changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval_backend.coverage import Coverage
from eval_backend.dataset_loader import DatasetSpec, load_items, resolve_revision
from eval_backend.generation.options import GenerationOptions
from eval_backend.pipeline import RunSpec, run_pipeline
from eval_backend.run_folder import RunFolder
from tests.eval_backend.conftest import BENCHMARK, fast_judge_settings
from tests.support.chat_server import FaultPlan, StandInChatServer, chat_reply, judge_key, parse_judge_prompt, user_text
from tests.support.hub_dataset import make_rows, write_readme, write_rows

REQUEST = {"model": "org/model", "revision": "main"}


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root = tmp_path / "dataset"
    write_rows(root, "Hindi", make_rows("Hindi", 3))
    write_rows(root, "Tamil", make_rows("Tamil", 2))
    write_readme(root, ["Hindi", "Tamil"])
    return root


def run(spec: RunSpec, model_server: StandInChatServer, judge_server: StandInChatServer):
    options = GenerationOptions(model="org/model", backend="openai", base_url=model_server.base_url)
    return run_pipeline(spec, REQUEST, options, fast_judge_settings(judge_server))


def test_a_changed_dataset_redoes_exactly_the_changed_items(
    dataset: Path, tmp_path: Path, judge_server: StandInChatServer
) -> None:
    spec = RunSpec(BENCHMARK, DatasetSpec(str(dataset)), RunFolder(tmp_path / "run"))
    with StandInChatServer(chat_reply()) as model_server:
        first = run(spec, model_server, judge_server)
        assert first["complete"] and (len(model_server.requests), len(judge_server.requests)) == (5, 25)
        old_revision = spec.folder.read_request()["dataset_revision"]

        rows = make_rows("Hindi", 3)
        rows[0]["query"] = "A new query for item 0. " + rows[0]["query"]  # re-generate and re-judge
        rows[2]["checklist"][3]["criteria_description"] = "A stricter criterion."  # re-judge only
        write_rows(dataset, "Hindi", rows)
        write_readme(dataset, ["Hindi", "Tamil"])
        model_sent, judge_sent = len(model_server.requests), len(judge_server.requests)
        second = run(spec, model_server, judge_server)

        regenerated = model_server.requests[model_sent:]
        assert len(regenerated) == 1 and "A new query for item 0." in str(regenerated[0].body["messages"])
        rejudged = [parse_judge_prompt(user_text(r.body)) for r in judge_server.requests[judge_sent:]]
        assert len(rejudged) == 10
        assert {prompt.query.startswith("A new query") for prompt in rejudged} == {True, False}
        request = spec.folder.read_request()
        assert request["dataset_revision"] == resolve_revision(DatasetSpec(str(dataset))) != old_revision
        assert second["complete"] and second["coverage"]["scored"] == 5


def test_request_json_pins_the_revision_and_summary_measures_coverage_against_the_dataset(
    dataset: Path, tmp_path: Path, judge_server: StandInChatServer
) -> None:
    spec = RunSpec(BENCHMARK, DatasetSpec(str(dataset)), RunFolder(tmp_path / "run"), configs=["Hindi"], limit=2)
    with StandInChatServer(chat_reply()) as model_server:
        summary = run(spec, model_server, judge_server)
    request = spec.folder.read_request()
    assert request["dataset_revision"] == resolve_revision(DatasetSpec(str(dataset)))
    assert request["dataset_configs"] == ["Hindi", "Tamil"] and request["expected_items"] == {"Hindi": 3}
    written = spec.folder.read_summary()
    assert written["complete"] is False
    assert written["coverage"] == {
        "expected": 3, "scored": 2, "failed": 0, "no_response": 0, "pending": 1, "configs": 1, "dataset_configs": 2,
    }
    assert Coverage(**summary["coverage"]).partial


def test_with_retry_failed_a_judgment_that_failed_for_good_is_sent_once_more(
    dataset: Path, tmp_path: Path
) -> None:
    spec = RunSpec(BENCHMARK, DatasetSpec(str(dataset)), RunFolder(tmp_path / "run"), configs=["Tamil"])
    target = load_items(BENCHMARK, spec.dataset, ["Tamil"])[1]
    plan = FaultPlan().script(judge_key(target.checklist[4]["name"], target.query), *["non_json"] * 3)
    with StandInChatServer(faults=plan) as judge_server, StandInChatServer(chat_reply()) as model_server:
        once = run(spec, model_server, judge_server)
        assert once["coverage"]["failed"] == 1 and not once["complete"]
        sent = len(judge_server.requests)
        options = GenerationOptions(model="org/model", backend="openai", base_url=model_server.base_url)
        again = run_pipeline(spec, REQUEST, options, fast_judge_settings(judge_server), retry_failed=True)
        assert len(judge_server.requests) == sent + 1
    assert again["complete"] and again["coverage"]["scored"] == 2
