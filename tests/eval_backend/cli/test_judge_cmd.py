"""`python -m eval_backend judge` end to end: dataset folder, stand-in judge, run folder."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from statistics import mean

import pandas as pd
import pytest

from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.cli import main
from eval_backend.run_folder import RunFolder
from tests.support.chat_server import FaultPlan, StandInChatServer, default_score

REQUIRED_FIELDS = {
    "config", "index", "id", "variant", "domain", "subdomain", "criterion_index", "criterion",
    "score", "reason", "judge_model", "attempts", "usage", "response_sha256",
}


def answer(item: Item) -> str:
    return f"<think>notes for {item.id}</think>\n\nनिबंध {item.id}: an essay."


def write_responses(path: Path, items: list[Item], text=answer, seed_form: bool = False) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for item in items:
            line = {"index": item.index, "response": text(item)}
            if not seed_form:
                line["config"] = item.config
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    return path


def expected_item_score(item: Item, text: str) -> float:
    judged = text.split("</think>\n\n", 1)[-1]
    return mean(default_score(dict(criterion), judged) for criterion in item.checklist)


def expected_configs(items: list[Item], text=answer) -> dict[str, float]:
    configs = sorted({item.config for item in items})
    return {c: mean(expected_item_score(i, text(i)) for i in items if i.config == c) for c in configs}


def run_judge(dataset_dir: Path, responses: Path, out: Path, *extra: str) -> int:
    return main(["judge", "--dataset", str(dataset_dir), "--responses", str(responses), "--out-dir", str(out), *extra])


def judgment_lines(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "judgments.jsonl").read_text(encoding="utf-8").splitlines()]


def test_a_dataset_is_judged_into_a_complete_run_folder(tmp_path, dataset_dir, items, judge_env) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    assert run_judge(dataset_dir, responses, tmp_path / "run") == 0

    assert judge_env.stats.requests == len(items) * 5
    lines = judgment_lines(tmp_path / "run")
    assert len(lines) == len(items) * 5 and all(REQUIRED_FIELDS <= set(line) for line in lines)
    assert len({(l["config"], l["index"], l["criterion_index"]) for l in lines}) == len(lines)
    assert all(line["judge_model"] == "stand-in-judge" and line["attempts"] == 1 for line in lines)

    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    configs = expected_configs(items)
    assert summary["configs"] == pytest.approx(configs)
    assert summary["overall"] == pytest.approx(mean(configs.values()))
    assert summary["counts"]["scored_items"] == len(items) and summary["counts"]["failed_judgments"] == 0
    assert summary["usage"]["calls"] == len(items) * 5
    assert summary["provenance"]["dataset"] == str(dataset_dir)

    details = pd.read_parquet(tmp_path / "run" / "details.parquet")
    assert len(details) == len(items)
    first = details.set_index(["config", "index"]).loc[(items[0].config, items[0].index)]
    assert first["item_score"] == pytest.approx(expected_item_score(items[0], answer(items[0])))
    assert first["reasoning"] == f"<think>notes for {items[0].id}</think>\n\n"
    assert first["response"] == f"निबंध {items[0].id}: an essay."


def test_running_again_sends_nothing_and_a_changed_response_is_judged_anew(tmp_path, dataset_dir, items, judge_env) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    run_judge(dataset_dir, responses, tmp_path / "run")
    judge_env.clear()
    assert run_judge(dataset_dir, responses, tmp_path / "run") == 0
    assert judge_env.stats.requests == 0

    changed = lambda item: "a new answer" if item.key == items[1].key else answer(item)  # noqa: E731
    write_responses(responses, items, changed)
    assert run_judge(dataset_dir, responses, tmp_path / "run") == 0
    assert judge_env.stats.requests == 5
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["configs"] == pytest.approx(expected_configs(items, changed))


def test_garbage_first_answers_still_give_exact_scores_and_are_counted(tmp_path, dataset_dir, items, monkeypatch) -> None:
    plan = FaultPlan(first_attempt_fraction=0.3, fraction_kinds=("non_json", "score_11", "score_string"), seed=7)
    with StandInChatServer(faults=plan) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        responses = write_responses(tmp_path / "responses.jsonl", items)
        assert run_judge(dataset_dir, responses, tmp_path / "run") == 0
        assert server.stats.requests == len(items) * 5 + plan.total
    assert plan.total > 0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["configs"] == pytest.approx(expected_configs(items))
    assert summary["counts"]["extra_attempts"] == plan.total
    assert summary["counts"]["failed_judgments"] == 0


def test_a_judgment_that_keeps_failing_is_recorded_counted_and_the_run_goes_on(tmp_path, dataset_dir, items, monkeypatch) -> None:
    from tests.support.chat_server import judge_key

    target = items[0]
    plan = FaultPlan().script(judge_key(target.checklist[2]["name"], target.query), "non_json", "non_json", "score_11")
    with StandInChatServer(faults=plan) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        responses = write_responses(tmp_path / "responses.jsonl", items)
        assert run_judge(dataset_dir, responses, tmp_path / "run") == 1  # incomplete, as for every benchmark
    failed = [line for line in judgment_lines(tmp_path / "run") if line["score"] is None]
    assert len(failed) == 1
    assert failed[0]["criterion_index"] == 2 and failed[0]["attempts"] == 3
    assert failed[0]["raw_text"] and "score" in failed[0]["error"]
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["counts"]["failed_items"] == 1 and summary["counts"]["failed_judgments"] == 1
    assert summary["counts"]["scored_items"] == len(items) - 1
    others = [i for i in items if i.config == target.config and i.key != target.key]
    assert summary["configs"][target.config] == pytest.approx(mean(expected_item_score(i, answer(i)) for i in others))


def test_retry_failed_re_sends_only_the_failed_judgments_and_completes_the_run(
    tmp_path, dataset_dir, items, monkeypatch
) -> None:
    from tests.support.chat_server import judge_key, parse_judge_prompt, user_text

    target = items[0]
    plan = FaultPlan().script(judge_key(target.checklist[2]["name"], target.query), "non_json", "non_json", "non_json")
    with StandInChatServer(faults=plan) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        responses = write_responses(tmp_path / "responses.jsonl", items)
        assert run_judge(dataset_dir, responses, tmp_path / "run") == 1
        assert json.loads((tmp_path / "run" / "summary.json").read_text())["complete"] is False
        sent = len(server.requests)
        assert run_judge(dataset_dir, responses, tmp_path / "run") == 1
        assert len(server.requests) == sent  # a plain resume leaves a final failure alone
        assert run_judge(dataset_dir, responses, tmp_path / "run", "--retry-failed") == 0
        retried = [parse_judge_prompt(user_text(r.body)) for r in server.requests[sent:]]
    assert len(retried) == 1
    assert retried[0].criterion == dict(target.checklist[2]) and retried[0].query == target.query
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["complete"] is True and summary["coverage"]["failed"] == 0
    assert summary["configs"] == pytest.approx(expected_configs(items))


def test_the_model_and_revision_given_are_recorded(tmp_path, dataset_dir, items, judge_env) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items[:1])
    assert run_judge(dataset_dir, responses, tmp_path / "run", "--model", "org/name", "--revision", "abc123") == 0
    assert RunFolder(tmp_path / "run").read_request()["model"] == "org/name"
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert (summary["provenance"]["model"], summary["provenance"]["revision"]) == ("org/name", "abc123")


def test_the_seed_response_form_is_accepted_with_a_single_config(tmp_path, dataset_dir, items, judge_env) -> None:
    tamil = [item for item in items if item.config == "Tamil"]
    responses = write_responses(tmp_path / "tamil.jsonl", tamil, seed_form=True)
    assert run_judge(dataset_dir, responses, tmp_path / "run", "--configs", "Tamil") == 0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert list(summary["configs"]) == ["Tamil"] and summary["counts"]["items"] == len(tamil)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"config": "Hindi", "index": 0, "response": "a"}', "{oops"], r"responses.jsonl:2: not valid JSON"),
        (['{"config": "Hindi", "index": 99, "response": "a"}'], r"responses.jsonl:1: no item \(config 'Hindi', index 99\)"),
        (['{"config": "Hindi", "index": 0, "response": "a"}', '{"config": "Hindi", "index": 0, "response": "b"}'],
         r"responses.jsonl:2: duplicate response .* \(first on line 1\)"),
        (['{"index": 0, "response": "a"}'], r"responses.jsonl:1: no 'config' field"),
        (['{"config": "Hindi", "index": 0, "response": null}'], r"responses.jsonl:1: 'response' must be a string"),
    ],
)
def test_bad_responses_exit_2_naming_the_line_and_send_nothing(
    tmp_path, dataset_dir, judge_env, capsys, lines, message
) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run_judge(dataset_dir, responses, tmp_path / "run") == 2
    assert re.search(message, capsys.readouterr().err)
    assert judge_env.stats.requests == 0
    assert not (tmp_path / "run" / "judgments.jsonl").exists()


def test_score_recomputes_the_same_summary(tmp_path, dataset_dir, items, judge_env) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    run_judge(dataset_dir, responses, tmp_path / "run")
    before = json.loads((tmp_path / "run" / "summary.json").read_text())
    (tmp_path / "run" / "summary.json").unlink()
    assert main(["score", "--out-dir", str(tmp_path / "run")]) == 0
    after = json.loads((tmp_path / "run" / "summary.json").read_text())
    before["provenance"].pop("created_at"), after["provenance"].pop("created_at")
    assert after == before


def test_a_killed_run_resumes_without_repeating_finished_calls(tmp_path, dataset_dir, items) -> None:
    responses = write_responses(tmp_path / "responses.jsonl", items)
    out = tmp_path / "run"
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "JUDGE_MODEL": "stand-in-judge"}
    command = [sys.executable, "-m", "eval_backend", "judge", "--dataset", str(dataset_dir),
               "--responses", str(responses), "--out-dir", str(out), "--concurrency", "2"]
    with StandInChatServer(latency_s=0.05) as server:
        env["OPENAI_BASE_URL"] = server.base_url
        process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _count_lines(out / "judgments.jsonl") < 12:
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.wait()
        written_before_kill = _count_lines(out / "judgments.jsonl")
        assert 12 <= written_before_kill < len(items) * 5
        subprocess.run(command, env=env, check=True, stderr=subprocess.DEVNULL, timeout=120)
        sent = server.stats.requests
    lines = judgment_lines(out)
    keys = [(l["config"], l["index"], l["criterion_index"]) for l in lines]
    assert len(set(keys)) == len(items) * 5
    # Only calls in flight at the kill (at most the concurrency, 2) can have been sent twice.
    assert len(items) * 5 <= sent <= len(items) * 5 + 2
    summary = json.loads((out / "summary.json").read_text())
    assert summary["configs"] == pytest.approx(expected_configs(items))


def _count_lines(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("\n") if path.exists() else 0
