"""`run_pipeline`, as the queue's worker calls it: phases reported in order, resumable, idempotent."""

from __future__ import annotations

from eval_backend.generation.options import GenerationOptions
from eval_backend.pipeline import PhaseProgress, RunSpec, run_pipeline
from tests.eval_backend.conftest import fast_judge_settings
from tests.support.chat_server import StandInChatServer, chat_reply


def test_phases_report_in_order_and_a_second_call_sends_nothing(
    run_spec: RunSpec, judge_server: StandInChatServer
) -> None:
    spec = RunSpec(run_spec.benchmark, run_spec.dataset, run_spec.folder, configs=["Tamil"], limit=2)
    judge = fast_judge_settings(judge_server)
    seen: list[PhaseProgress] = []
    with StandInChatServer(chat_reply()) as model_server:
        options = GenerationOptions(model="org/model", backend="openai", base_url=model_server.base_url)
        summary = run_pipeline(spec, {"model": "org/model", "revision": "main"}, options, judge, seen.append)

        assert summary["counts"]["scored_items"] == 2
        phases = [p.phase for p in seen]
        assert phases == sorted(phases, key=["generating", "judging", "scoring"].index)
        assert PhaseProgress("generating", 2, 2) in seen
        assert PhaseProgress("judging", 10, 10) in seen
        assert seen[-1] == PhaseProgress("scoring", 1, 1)
        request = spec.folder.read_request()
        assert request["model"] == "org/model" and request["generation"]["backend"] == "openai"
        assert "base_url" not in request["generation"]

        sent = (len(model_server.requests), len(judge_server.requests))
        again = run_pipeline(spec, {"model": "org/model", "revision": "main"}, options, judge)
        assert (len(model_server.requests), len(judge_server.requests)) == sent == (2, 10)
        assert again["overall"] == summary["overall"]
