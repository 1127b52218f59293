"""`python -m eval_backend consistency`: re-judge a seeded, stratified sample and measure agreement.

The stand-in judge has a known noise: each call moves the true score by ±1 with probability p.
Two independent calls then agree exactly with probability (1-p)² + p²/2, within ±1 with
probability 1 - p²/2, and differ by 2p - p² on average, so the noise level can be read back
from the report: p = 1 - sqrt(1 - mean |difference|).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from statistics import pvariance
from typing import Iterator

import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.writing_bench.records import Item
from eval_backend.cli import main
from eval_backend.consistency import CONSISTENCY_FILE, REJUDGMENTS_FILE, read_reports, stratified_sample
from eval_backend.dataset_loader import DatasetSpec, discover_configs, load_items
from eval_backend.run_folder import RunFolder
from tests.support.chat_server import StandInChatServer, noisy_judge_reply
from tests.support.hub_dataset import DatasetShape, write_writing_bench_dataset
from tests.support.run_folders import quality_score

NOISE = 0.4
SHAPE = DatasetShape(configs={"Hindi": 40, "Tamil": 20, "Bengali": 20})  # 400 criteria
JUDGE = "stand-in-judge"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Item]]:
    folder = write_writing_bench_dataset(tmp_path_factory.mktemp("consistency-dataset"), SHAPE)
    spec = DatasetSpec(str(folder))
    return folder, load_items(BENCHMARKS["indic_writing_bench"], spec, discover_configs(spec))


@pytest.fixture
def noisy_judge(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandInChatServer]:
    """Every model but `clean-judge` has noise NOISE."""
    reply = noisy_judge_reply(quality_score, noise=NOISE, seed=3, noisy_models={JUDGE})
    with StandInChatServer(reply) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
        monkeypatch.setenv("JUDGE_MODEL", JUDGE)
        yield server


def quality(item: Item) -> int:
    return 3 + item.index % 6  # with the criterion's nudge of -1..+1, true scores are 2..9: no clamping


@pytest.fixture
def judged_run(dataset: tuple[Path, list[Item]], noisy_judge: StandInChatServer, tmp_path: Path) -> RunFolder:
    dataset_dir, items = dataset
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(
        json.dumps({"config": i.config, "index": i.index, "response": f"[quality={quality(i)}] about {i.id}"}) + "\n"
        for i in items), encoding="utf-8")
    out = tmp_path / "run"
    assert main(["judge", "--dataset", str(dataset_dir), "--responses", str(responses), "--out-dir", str(out)]) == 0
    return RunFolder(out)


def consistency(folder: RunFolder, *extra: str) -> int:
    return main(["consistency", "--out-dir", str(folder.path), *extra])


def test_a_noisy_judge_s_noise_is_recovered(judged_run: RunFolder, noisy_judge: StandInChatServer,
                                            dataset: tuple[Path, list[Item]]) -> None:
    judgments_before = judged_run.judgments_path.read_bytes()
    noisy_judge.clear()
    assert consistency(judged_run, "--sample", "300", "--seed", "7") == 0
    assert noisy_judge.stats.requests == 300
    assert judged_run.judgments_path.read_bytes() == judgments_before  # never mixed into the run's judgments
    assert len((judged_run.path / REJUDGMENTS_FILE).read_text().splitlines()) == 300

    written = json.loads((judged_run.path / CONSISTENCY_FILE).read_text())["judge_models"][JUDGE]
    assert written["reference_judge_model"] == JUDGE and written["failed"] == 0
    assert {c: f["pairs_compared"] for c, f in written["per_config"].items()} == {"Hindi": 150, "Tamil": 75, "Bengali": 75}
    p = NOISE
    assert written["exact_agreement"] == pytest.approx((1 - p) ** 2 + p**2 / 2, abs=0.08)
    assert written["within_one_agreement"] == pytest.approx(1 - p**2 / 2, abs=0.05)
    assert written["mean_abs_diff"] == pytest.approx(2 * p - p**2, abs=0.1)
    assert 1 - math.sqrt(1 - written["mean_abs_diff"]) == pytest.approx(p, abs=0.08)
    # Two noisy readings of the same true scores correlate as var(true) / (var(true) + var(noise)).
    _, items = dataset
    true = [quality_score(dict(c), f"[quality={quality(i)}]") for i in items for c in i.checklist]
    assert written["spearman"] == pytest.approx(pvariance(true) / (pvariance(true) + p), abs=0.08)


def test_the_same_command_again_resumes_and_pays_nothing_twice(judged_run: RunFolder,
                                                                noisy_judge: StandInChatServer) -> None:
    assert consistency(judged_run, "--sample", "40", "--seed", "1") == 0
    first = json.loads((judged_run.path / CONSISTENCY_FILE).read_text())["judge_models"][JUDGE]
    noisy_judge.clear()
    assert consistency(judged_run, "--sample", "40", "--seed", "1") == 0
    assert noisy_judge.stats.requests == 0
    again = json.loads((judged_run.path / CONSISTENCY_FILE).read_text())["judge_models"][JUDGE]
    assert again["pairs"] == first["pairs"]


def test_a_second_judge_is_compared_with_the_run_s_and_reported_beside_it(judged_run: RunFolder) -> None:
    assert consistency(judged_run, "--sample", "200") == 0
    assert consistency(judged_run, "--sample", "200", "--judge-model", "clean-judge") == 0
    reports = read_reports(judged_run)
    assert set(reports) == {JUDGE, "clean-judge"}
    clean = reports["clean-judge"].overall
    # The clean judge gives the true score: it differs from the run's only by the run's noise.
    assert clean.within_one == 1.0
    assert clean.mean_abs_diff == pytest.approx(NOISE, abs=0.09)
    assert clean.exact == pytest.approx(1 - NOISE, abs=0.09)
    assert reports[JUDGE].overall.exact < clean.exact


def test_a_judge_without_noise_agrees_perfectly_with_itself(judged_run: RunFolder) -> None:
    request = json.loads(judged_run.request_path.read_text())
    responses = judged_run.path.parent / "responses.jsonl"
    assert main(["judge", "--dataset", request["dataset"], "--responses", str(responses),
                 "--out-dir", str(judged_run.path), "--judge-model", "clean-judge"]) == 0
    assert consistency(judged_run, "--sample", "50", "--judge-model", "clean-judge",
                       "--reference-judge-model", "clean-judge") == 0
    report = read_reports(judged_run)["clean-judge"]
    figures = report.overall
    assert report.reference_judge_model == "clean-judge"
    assert (figures.pairs, figures.exact, figures.within_one, figures.spearman, figures.mean_abs_diff) == (50, 1, 1, 1, 0)


def test_a_folder_with_nothing_judged_is_refused(tmp_path: Path, noisy_judge: StandInChatServer,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert consistency(RunFolder(tmp_path / "empty"), "--sample", "5") == 2
    assert "judgments.jsonl" in capsys.readouterr().err
    assert noisy_judge.stats.requests == 0 and not (tmp_path / "empty").exists()


def test_a_folder_another_process_holds_is_refused(judged_run: RunFolder, noisy_judge: StandInChatServer) -> None:
    noisy_judge.clear()
    with judged_run.lock():  # as a `judge` or another `consistency` on the same folder would
        assert consistency(judged_run, "--sample", "5") == 2
    assert noisy_judge.stats.requests == 0 and not (judged_run.path / CONSISTENCY_FILE).exists()


@pytest.mark.parametrize("sample", ["0", "-3", "many"])
def test_a_sample_size_that_is_not_a_positive_count_is_refused(judged_run: RunFolder, sample: str) -> None:
    with pytest.raises(SystemExit) as exited:
        consistency(judged_run, "--sample", sample)
    assert exited.value.code == 2
    assert not (judged_run.path / CONSISTENCY_FILE).exists()


def test_the_sample_is_stratified_seeded_and_exact_in_size() -> None:
    population = [("a", n) for n in range(50)] + [("b", n) for n in range(30)] + [("c", n) for n in range(20)]
    chosen = stratified_sample(population, 11, seed=5, stratum=lambda member: member[0])
    assert len(chosen) == 11 and len(set(chosen)) == 11
    counts = {name: sum(1 for member in chosen if member[0] == name) for name in "abc"}
    assert counts == {"a": 6, "b": 3, "c": 2}  # 5.5, 3.3, 2.2 by largest remainder
    assert stratified_sample(population, 11, seed=5, stratum=lambda member: member[0]) == chosen
    assert stratified_sample(population, 11, seed=6, stratum=lambda member: member[0]) != chosen
    assert sorted(stratified_sample(population, 500, seed=5, stratum=lambda member: member[0])) == sorted(population)
