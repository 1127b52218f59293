"""Indic WritingBench scored by the engine's one path (`eval_backend.scorer_runs`): each item's status and
score, and the summary's means, breakdowns, counts, coverage and intervals, as the seed's Step C, on a case
computed by hand."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from eval_backend.benchmarks.plugin import ScoredItem
from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.writing_bench.plugin import FLOOR_SCORE
from eval_backend.benchmarks.writing_bench.records import ItemMeta, Judgment
from eval_backend.benchmarks.writing_bench.scoring import item_score
from eval_backend.coverage import Coverage
from eval_backend.item_status import FAILED, NO_RESPONSE, PENDING, SCORED
from eval_backend.records import (
    INVALID_ANSWER,
    SYSTEM_ERROR,
    TRANSPORT_ERROR,
    ItemKey,
    ResponseRecord,
    Usage,
    sha256_text,
    to_json_dict,
)
from eval_backend.scorer_runs import scored_items, summarize
from eval_backend.statistics import cluster_bootstrap_interval, item_design

BENCHMARK = BENCHMARKS["indic_writing_bench"]
JUDGE = "judge-a"
CRITERIA = ["0", "1", "2", "3", "4"]


def meta(config: str, index: int, variant: str, domain: str) -> ItemMeta:
    return ItemMeta(config, index, f"{config}-{index}", config, variant, domain, f"{domain}-sub", "p", ())


def response(config: str, index: int, text: str) -> ResponseRecord:
    return ResponseRecord(config=config, index=index, response=text)


def judgments(item: ItemMeta, text: str, scores: list[int | None], judge: str = JUDGE, **extra) -> list[Judgment]:
    sha = sha256_text(BENCHMARK.judged_text(text))
    return [
        Judgment(
            config=item.config, index=item.index, id=item.id, variant=item.variant, domain=item.domain,
            subdomain=item.subdomain, criterion_index=n, criterion=f"c{n}", score=score,
            reason=None if score is None else "r", judge_model=judge, attempts=1 if score else 3,
            usage=Usage(10, 5, 15, 1), response_sha256=sha, prompt_sha256="p",
            error=None if score else "bad", error_kind=None if score else extra.get("error_kind", INVALID_ANSWER),
        )
        for n, score in enumerate(scores)
    ]


def scored(items: list[ItemMeta], responses: dict, judged: list[Judgment]) -> list[ScoredItem]:
    """The engine's scored items, in the items' order, judged by `JUDGE`."""
    return scored_items(BENCHMARK, items, responses, judged, JUDGE)


def results(items: list[ItemMeta], responses: dict, judged: list[Judgment]) -> dict[ItemKey, ScoredItem]:
    """The engine's scored items by item key."""
    return {entry.item.key: entry for entry in scored(items, responses, judged)}


def status(item: ItemMeta, responses: dict, judged: list[Judgment]) -> str:
    return scored([item], responses, judged)[0].status


def summary(items: list[ItemMeta], responses: dict, judged: list[Judgment], usage: Usage = Usage(),
            provenance: dict | None = None, **coverage: Any) -> dict[str, Any]:
    """summary.json as the engine writes it for this run (`coverage`: its `expected` and `dataset_configs`)."""
    return summarize(BENCHMARK, scored(items, responses, judged), usage, provenance or {}, **coverage)[0]


H0, H1, H2 = meta("Hindi", 0, "native", "d1"), meta("Hindi", 1, "romanized", "d2"), meta("Hindi", 2, "native", "d1")
T0, T1 = meta("Tamil", 0, "native", "d2"), meta("Tamil", 1, "code_mixed", "d1")
T2 = meta("Tamil", 2, "code_mixed", "d2")
E0 = meta("english_original", 0, "native", "d1")
ITEMS = [H0, H1, H2, T0, T1, T2, E0]
RESPONSES = {
    H0.key: response("Hindi", 0, "<think>x</think>\n\nessay H0"),
    H1.key: response("Hindi", 1, "essay H1"),
    H2.key: response("Hindi", 2, "essay H2"),
    T0.key: response("Tamil", 0, "essay T0"),
    # The model's own failure: its prompt did not fit (a line from before error_kind existed).
    T1.key: ResponseRecord("Tamil", 1, None, error="prompt of 9000 tokens does not fit the context of 8192"),
    T2.key: response("Tamil", 2, "essay T2"),
    E0.key: response("english_original", 0, "essay E0"),
}
JUDGMENTS = [
    *judgments(H0, "old answer", [1, 1, 1, 1, 1]),  # judged an earlier response: ignored
    *judgments(H0, "essay H0", [8, 7, 7, 8, 7]),
    *judgments(H1, "essay H1", [2, 2, 2, 2, 2], judge="judge-b"),  # another judge: ignored
    *judgments(H1, "essay H1", [6, 6, 6, 6, 6]),
    *judgments(H2, "essay H2", [9, 9, None, 9, 9]),
    *judgments(T0, "essay T0", [10, 9, 8, 7, 6]),
    *judgments(T2, "essay T2", [5, 5, 5, 5]),  # only four of five judged yet
    *judgments(T2, "essay T2", [None] * 5, error_kind=TRANSPORT_ERROR)[4:],  # the fifth: endpoint down
    *judgments(E0, "essay E0", [2, 2, 2, 2, 2]),
]


def test_each_item_gets_its_status_and_the_mean_of_its_criteria() -> None:
    by_key = results(ITEMS, RESPONSES, JUDGMENTS)
    assert by_key[H0.key].status == SCORED and item_score(by_key[H0.key]) == pytest.approx(7.4)
    assert item_score(by_key[H1.key]) == pytest.approx(6.0)
    assert by_key[H2.key].status == FAILED and item_score(by_key[H2.key]) is None
    assert item_score(by_key[T0.key]) == pytest.approx(8.0)
    assert by_key[T1.key].status == NO_RESPONSE and item_score(by_key[T1.key]) == FLOOR_SCORE
    assert by_key[T2.key].status == PENDING and item_score(by_key[T2.key]) is None


def test_an_unanswered_item_gets_the_floor_on_every_criterion_marked_no_response() -> None:
    result = scored([T1], RESPONSES, [])[0]
    assert result.judged_text is None and list(result.judges) == CRITERIA
    assert [record.values for record in result.judges.values()] == [{"score": FLOOR_SCORE}] * 5
    # No judge was called: each floor is the no-answer policy's verdict, with no attempt behind it.
    assert all(record.judge_model == NO_RESPONSE and record.attempts == 0 for record in result.judges.values())
    row = BENCHMARK.details_row(result, {})
    assert all(row[f"reason_{n}"].startswith("no_response: prompt of 9000 tokens") for n in range(1, 6))


def test_an_empty_answer_is_the_model_s_failure_too() -> None:
    thinking_only = {H0.key: response("Hindi", 0, "<think>long plan</think>\n\n   ")}
    assert status(H0, thinking_only, []) == NO_RESPONSE


def test_a_system_failure_or_a_missing_line_is_pending_not_scored() -> None:
    crashed = {H0.key: ResponseRecord("Hindi", 0, None, error="CUDA out of memory", error_kind=SYSTEM_ERROR)}
    assert [entry.status for entry in scored([H0, H1], crashed, [])] == [PENDING, PENDING]
    pending = summary([H0, H1], crashed, [])
    assert pending["overall"] is None and not pending["complete"]
    # Without the dataset's configs recorded, the benchmark's known configs (13) stand in, not the run's own (1):
    # `summarize` now applies the fallback that scoring a run folder always applied.
    assert pending["coverage"] == to_json_dict(Coverage(expected=2, pending=2, configs=1,
                                                        dataset_configs=len(BENCHMARK.known_configs)))


def test_no_answer_on_two_items_scores_lower_than_those_items_judged() -> None:
    items = [meta("Hindi", n, "native", "d") for n in range(4)]
    answered = {m.key: response("Hindi", m.index, f"essay {m.index}") for m in items}
    judged = [j for m in items for j in judgments(m, f"essay {m.index}", [4] * 5)]
    unanswered = {m.key: ResponseRecord("Hindi", m.index, None, error="too long") for m in items[:2]}
    full = summary(items, answered, judged)
    holes = summary(items, {**answered, **unanswered}, judged)
    assert full["overall"] == pytest.approx(4.0)
    assert holes["overall"] == pytest.approx((1 + 1 + 4 + 4) / 4) and holes["overall"] < full["overall"]
    assert holes["complete"] and holes["coverage"]["no_response"] == 2


def test_responses_and_judgments_of_an_older_item_revision_are_not_current() -> None:
    item = dataclasses.replace(H0, query_sha256="q-new", item_sha256="i-new")
    answer = dataclasses.replace(RESPONSES[H0.key], query_sha256="q-new")
    stale_answer = dataclasses.replace(answer, query_sha256="q-old")
    judged = [dataclasses.replace(j, item_sha256="i-new") for j in judgments(H0, "essay H0", [8] * 5)]
    stale = [dataclasses.replace(j, item_sha256="i-old") for j in judged]
    assert status(item, {H0.key: answer}, judged) == SCORED
    assert status(item, {H0.key: stale_answer}, judged) == PENDING
    assert status(item, {H0.key: answer}, stale) == PENDING
    legacy = [dataclasses.replace(j, item_sha256=None) for j in judged]  # written before the hash existed
    assert status(item, {H0.key: answer}, legacy) == SCORED


def test_summary_means_breakdowns_and_counts() -> None:
    run = summary(ITEMS, RESPONSES, JUDGMENTS, Usage(1, 2, 3, 4), {"model": "m"})
    assert run["configs"] == pytest.approx({"Hindi": 6.7, "Tamil": 4.5, "english_original": 2.0})
    assert run["config_groups"] == {"indic": pytest.approx((6.7 + 4.5) / 2)}
    assert run["headline_group"] == "indic"
    assert run["overall"] == pytest.approx((6.7 + 4.5 + 2.0) / 3)
    assert run["metrics"] == pytest.approx({"indic": (6.7 + 4.5) / 2, "overall": (6.7 + 4.5 + 2.0) / 3})
    # The breakdowns pool the Indic configs only: E0 (native, d1, 2.0) is in none of them.
    assert run["variants"] == pytest.approx({"native": 7.7, "romanized": 6.0, "code_mixed": 1.0})
    assert run["domains"] == pytest.approx({"d1": 4.2, "d2": 7.0})
    assert run["subdomains"] == pytest.approx({"d1 / d1-sub": 4.2, "d2 / d2-sub": 7.0})
    assert run["config_variants"]["Hindi"] == pytest.approx({"native": 7.4, "romanized": 6.0})
    assert run["config_variants"]["english_original"] == pytest.approx({"native": 2.0})
    counts = run["counts"]
    assert (counts["items"], counts["responses"], counts["missing_responses"]) == (7, 6, 1)
    assert (counts["scored_items"], counts["failed_items"], counts["pending_items"]) == (4, 1, 1)
    assert counts["no_response_items"] == 1
    assert counts["judgments"] == 6 * 5 and counts["failed_judgments"] == 2  # the floors are no judgments
    assert counts["ruled_judgments"] == 0 and counts["pending_judgments"] == 0
    assert counts["extra_attempts"] == 2 + 2  # two failed judgments, three attempts each
    assert run["config_counts"]["Tamil"]["missing_responses"] == 1
    assert run["usage"] == to_json_dict(Usage(1, 2, 3, 4)) and run["provenance"] == {"model": "m"}
    # Without the dataset's configs recorded, the benchmark's known configs (13) stand in, not the run's own (3),
    # as in the test above.
    assert run["coverage"] == to_json_dict(Coverage(expected=7, scored=4, failed=1, no_response=1, pending=1,
                                                    configs=3, dataset_configs=len(BENCHMARK.known_configs)))
    assert not run["complete"]


def test_coverage_counts_the_dataset_s_items_not_the_run_s() -> None:
    items = [meta("Hindi", n, "native", "d") for n in range(2)]
    answers = {m.key: response("Hindi", m.index, "t") for m in items}
    judged = [j for m in items for j in judgments(m, "t", [7] * 5)]
    limited = summary(items, answers, judged, expected={"Hindi": 5}, dataset_configs=["Hindi", "Tamil"])
    assert limited["coverage"] == to_json_dict(Coverage(expected=5, scored=2, pending=3, configs=1, dataset_configs=2))
    assert not limited["complete"] and Coverage(**limited["coverage"]).partial
    whole = summary(items, answers, judged, expected={"Hindi": 2}, dataset_configs=["Hindi"])
    assert whole["complete"] and not Coverage(**whole["coverage"]).partial


def test_subdomains_of_different_domains_are_kept_apart() -> None:
    letters = [meta("Hindi", 0, "native", "Work"), meta("Hindi", 1, "native", "Home")]
    letters = [dataclasses.replace(m, subdomain="Letters") for m in letters]
    answers = {m.key: response("Hindi", m.index, "t") for m in letters}
    judged = [*judgments(letters[0], "t", [9] * 5), *judgments(letters[1], "t", [3] * 5)]
    assert summary(letters, answers, judged)["subdomains"] == {"Home / Letters": 3.0, "Work / Letters": 9.0}


def test_unclosed_thinking_is_counted() -> None:
    cut = {H0.key: dataclasses.replace(response("Hindi", 0, "<think>and on and on"), unclosed_thinking=True)}
    assert summary([H0], cut, [])["counts"]["unclosed_thinking"] == 1


def test_the_summary_records_the_decoding_mode_its_replies_record() -> None:
    def answered(mode: str | None, *keys: ItemMeta) -> dict:
        generation = {"backend": "vllm", **({"decoding_mode": mode} if mode else {})}
        return {m.key: dataclasses.replace(response(m.config, m.index, "t"), generation=generation) for m in keys}

    def mode_of(answers: dict) -> object:
        return summary([H0, H1], answers, [])["decoding_mode"]

    assert mode_of(answered("batch-invariant", H0, H1)) == "batch-invariant"
    assert mode_of({**answered("fixed-batches", H0), **answered("reference", H1)}) == ["fixed-batches", "reference"]
    assert mode_of(answered(None, H0, H1)) is None  # replies generated before the mode was recorded


def _with_own_rubrics(items: list[ItemMeta]) -> list[ItemMeta]:
    """The items, each with a rubric of its own: no two are renderings of one request."""
    return [dataclasses.replace(item, checklist=({"name": item.id},)) for item in items]


def test_intervals_bracket_the_means() -> None:
    run = summary(_with_own_rubrics(ITEMS), RESPONSES, JUDGMENTS)
    low, high = run["overall_ci"]
    assert low <= run["overall"] <= high
    assert run["intervals"]["overall"] == run["overall_ci"]
    assert run["config_ci"]["Hindi"][0] == pytest.approx(6.0) and run["config_ci"]["Hindi"][1] == pytest.approx(7.4)
    assert run["config_intervals"]["Hindi"]["overall"] == run["config_ci"]["Hindi"]
    indic_low, indic_high = run["config_group_ci"]["indic"]
    assert indic_low <= run["config_groups"]["indic"] <= indic_high
    assert run["intervals"]["indic"] == run["config_group_ci"]["indic"]


def test_a_figure_resting_on_one_cluster_has_no_interval() -> None:
    # english_original has one scored item; Hindi's two are renderings of one request (one rubric).
    hindi = [dataclasses.replace(item, checklist=({"name": "one request"},)) for item in (H0, H1)]
    run = summary([*hindi, *_with_own_rubrics([T0, T1, E0])], RESPONSES, JUDGMENTS)
    assert run["configs"]["english_original"] == 2.0 and run["config_ci"]["english_original"] is None
    assert run["configs"]["Hindi"] == pytest.approx(6.7) and run["config_ci"]["Hindi"] is None
    assert run["config_ci"]["Tamil"] is not None and run["overall_ci"] is not None


def _rendered_requests(linked: bool) -> list[ScoredItem]:
    """20 Hindi requests rendered three times, each rendering scored as its request (1 to 10); linked, the
    three renderings share their request's rubric, as the published dataset has them."""
    items, responses, judged = [], {}, []
    for index in range(60):
        request = index // 3
        item = dataclasses.replace(meta("Hindi", index, ("native", "code_mixed", "romanized")[index % 3], "d"),
                                   checklist=({"name": f"request {request if linked else index}"},))
        items.append(item)
        responses[item.key] = response("Hindi", index, f"essay {index}")
        judged += judgments(item, f"essay {index}", [1 + (request * 7) % 10] * 5)
    return scored(items, responses, judged)


def test_the_renderings_of_one_request_are_resampled_together() -> None:
    linked = summarize(BENCHMARK, _rendered_requests(linked=True), Usage(), {})[0]
    alone = summarize(BENCHMARK, _rendered_requests(linked=False), Usage(), {})[0]
    assert linked["overall"] == alone["overall"]
    scores = np.array([item_score(entry) for entry in _rendered_requests(linked=True)])
    design = item_design(["Hindi"] * 60, [index // 3 for index in range(60)])
    clustered = cluster_bootstrap_interval(scores, design)
    assert linked["overall_ci"] == pytest.approx((clustered.low, clustered.high))
    naive = cluster_bootstrap_interval(scores, design.unclustered())
    assert alone["overall_ci"] == pytest.approx((naive.low, naive.high))
    # Three identical renderings carry one request's information: sqrt(3) times the naive width.
    width = lambda interval: interval[1] - interval[0]  # noqa: E731
    assert 1.4 < width(linked["overall_ci"]) / width(alone["overall_ci"]) < 2.1


def test_a_run_with_nothing_judged_has_no_overall() -> None:
    run = summary(ITEMS, {}, [])
    assert run["overall"] is None and run["overall_ci"] is None and run["configs"] == {}
    assert run["counts"]["pending_items"] == len(ITEMS) and run["coverage"]["pending"] == len(ITEMS)


def test_the_indic_average_is_the_mean_of_the_indic_config_means() -> None:
    hindi, tamil = meta("Hindi", 0, "native", "d"), meta("Tamil", 0, "native", "d")
    english = meta("english_original", 0, "native", "d")
    responses = {m.key: response(m.config, m.index, "t") for m in (hindi, tamil, english)}
    judged = [*judgments(hindi, "t", [6] * 5), *judgments(tamil, "t", [9] * 5), *judgments(english, "t", [1] * 5)]
    run = summary([hindi, tamil, english], responses, judged)
    assert run["config_groups"] == {"indic": pytest.approx(7.5)}
    assert run["overall"] == pytest.approx((6 + 9 + 1) / 3)
