"""Aggregation as the seed's Step C, on a case computed by hand."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from eval_backend.benchmarks import BENCHMARKS
from eval_backend.benchmarks.base import FLOOR_SCORE
from eval_backend.coverage import Coverage
from eval_backend.item_status import FAILED, NO_RESPONSE, PENDING, SCORED
from eval_backend.records import (
    INVALID_ANSWER,
    SYSTEM_ERROR,
    TRANSPORT_ERROR,
    ItemMeta,
    Judgment,
    ResponseRecord,
    Usage,
)
from eval_backend.statistics import cluster_bootstrap_interval, item_design
from eval_backend.writing_bench_scoring import ItemResult, item_results, judged_response_sha, summarize

BENCHMARK = BENCHMARKS["indic_writing_bench"]
JUDGE = "judge-a"


def meta(config: str, index: int, variant: str, domain: str) -> ItemMeta:
    return ItemMeta(config, index, f"{config}-{index}", config, variant, domain, f"{domain}-sub", "p", ())


def response(config: str, index: int, text: str) -> ResponseRecord:
    return ResponseRecord(config=config, index=index, response=text)


def judgments(item: ItemMeta, text: str, scores: list[int | None], judge: str = JUDGE, **extra) -> list[Judgment]:
    sha = judged_response_sha(BENCHMARK, response(item.config, item.index, text))
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
    results = {r.meta.key: r for r in item_results(BENCHMARK, ITEMS, RESPONSES, JUDGMENTS, JUDGE)}
    assert results[H0.key].status == SCORED and results[H0.key].score == pytest.approx(7.4)
    assert results[H1.key].score == pytest.approx(6.0)
    assert results[H2.key].status == FAILED and results[H2.key].score is None
    assert results[T0.key].score == pytest.approx(8.0)
    assert results[T1.key].status == NO_RESPONSE and results[T1.key].score == FLOOR_SCORE
    assert results[T2.key].status == PENDING and results[T2.key].score is None


def test_an_unanswered_item_gets_the_floor_on_every_criterion_marked_no_response() -> None:
    result = item_results(BENCHMARK, [T1], RESPONSES, [], JUDGE)[0]
    assert [j.score for j in result.judgments] == [FLOOR_SCORE] * 5
    assert all(j.error_kind == NO_RESPONSE and j.attempts == 0 for j in result.judgments)
    assert result.judgments[0].reason.startswith("no_response: prompt of 9000 tokens")


def test_an_empty_answer_is_the_model_s_failure_too() -> None:
    thinking_only = {H0.key: response("Hindi", 0, "<think>long plan</think>\n\n   ")}
    assert item_results(BENCHMARK, [H0], thinking_only, [], JUDGE)[0].status == NO_RESPONSE


def test_a_system_failure_or_a_missing_line_is_pending_not_scored() -> None:
    crashed = {H0.key: ResponseRecord("Hindi", 0, None, error="CUDA out of memory", error_kind=SYSTEM_ERROR)}
    results = item_results(BENCHMARK, [H0, H1], crashed, [], JUDGE)
    assert [r.status for r in results] == [PENDING, PENDING]
    summary = summarize(BENCHMARK, results, Usage(), {})
    assert summary.overall is None and not summary.complete
    assert summary.coverage == Coverage(expected=2, pending=2, configs=1, dataset_configs=1)


def test_no_answer_on_two_items_scores_lower_than_those_items_judged() -> None:
    items = [meta("Hindi", n, "native", "d") for n in range(4)]
    answered = {m.key: response("Hindi", m.index, f"essay {m.index}") for m in items}
    judged = [j for m in items for j in judgments(m, f"essay {m.index}", [4] * 5)]
    unanswered = {m.key: ResponseRecord("Hindi", m.index, None, error="too long") for m in items[:2]}
    two_unanswered = {**answered, **unanswered}
    full = summarize(BENCHMARK, item_results(BENCHMARK, items, answered, judged, JUDGE), Usage(), {})
    holes = summarize(BENCHMARK, item_results(BENCHMARK, items, two_unanswered, judged, JUDGE), Usage(), {})
    assert full.overall == pytest.approx(4.0)
    assert holes.overall == pytest.approx((1 + 1 + 4 + 4) / 4) and holes.overall < full.overall
    assert holes.complete and holes.coverage.no_response == 2


def test_responses_and_judgments_of_an_older_item_revision_are_not_current() -> None:
    item = dataclasses.replace(H0, query_sha256="q-new", item_sha256="i-new")
    answer = dataclasses.replace(RESPONSES[H0.key], query_sha256="q-new")
    stale_answer = dataclasses.replace(answer, query_sha256="q-old")
    scored = [dataclasses.replace(j, item_sha256="i-new") for j in judgments(H0, "essay H0", [8] * 5)]
    stale = [dataclasses.replace(j, item_sha256="i-old") for j in scored]
    assert item_results(BENCHMARK, [item], {H0.key: answer}, scored, JUDGE)[0].status == SCORED
    assert item_results(BENCHMARK, [item], {H0.key: stale_answer}, scored, JUDGE)[0].status == PENDING
    assert item_results(BENCHMARK, [item], {H0.key: answer}, stale, JUDGE)[0].status == PENDING
    legacy = [dataclasses.replace(j, item_sha256=None) for j in scored]  # written before the hash existed
    assert item_results(BENCHMARK, [item], {H0.key: answer}, legacy, JUDGE)[0].status == SCORED


def test_summary_means_breakdowns_and_counts() -> None:
    results = item_results(BENCHMARK, ITEMS, RESPONSES, JUDGMENTS, JUDGE)
    summary = summarize(BENCHMARK, results, Usage(1, 2, 3, 4), {"model": "m"})
    assert summary.configs == pytest.approx({"Hindi": 6.7, "Tamil": 4.5, "english_original": 2.0})
    assert summary.config_groups == {"indic": pytest.approx((6.7 + 4.5) / 2)}
    assert summary.headline_group == "indic"
    assert summary.overall == pytest.approx((6.7 + 4.5 + 2.0) / 3)
    # The breakdowns pool the Indic configs only: E0 (native, d1, 2.0) is in none of them.
    assert summary.variants == pytest.approx({"native": 7.7, "romanized": 6.0, "code_mixed": 1.0})
    assert summary.domains == pytest.approx({"d1": 4.2, "d2": 7.0})
    assert summary.subdomains == pytest.approx({"d1 / d1-sub": 4.2, "d2 / d2-sub": 7.0})
    assert summary.config_variants["Hindi"] == pytest.approx({"native": 7.4, "romanized": 6.0})
    assert summary.config_variants["english_original"] == pytest.approx({"native": 2.0})
    counts = summary.counts
    assert (counts.items, counts.responses, counts.missing_responses) == (7, 6, 1)
    assert (counts.scored_items, counts.failed_items, counts.pending_items) == (4, 1, 1)
    assert counts.judgments == 6 * 5 and counts.failed_judgments == 2  # the floors are no judgments
    assert counts.extra_attempts == 2 + 2  # two failed judgments, three attempts each
    assert summary.config_counts["Tamil"].missing_responses == 1
    assert summary.usage == Usage(1, 2, 3, 4) and summary.provenance == {"model": "m"}
    assert summary.coverage == Coverage(expected=7, scored=4, failed=1, no_response=1, pending=1, configs=3,
                                        dataset_configs=3)
    assert not summary.complete


def test_coverage_counts_the_dataset_s_items_not_the_run_s() -> None:
    items = [meta("Hindi", n, "native", "d") for n in range(2)]
    answers = {m.key: response("Hindi", m.index, "t") for m in items}
    judged = [j for m in items for j in judgments(m, "t", [7] * 5)]
    results = item_results(BENCHMARK, items, answers, judged, JUDGE)
    limited = summarize(BENCHMARK, results, Usage(), {}, expected={"Hindi": 5}, dataset_configs=["Hindi", "Tamil"])
    assert limited.coverage == Coverage(expected=5, scored=2, pending=3, configs=1, dataset_configs=2)
    assert not limited.complete and limited.coverage.partial
    whole = summarize(BENCHMARK, results, Usage(), {}, expected={"Hindi": 2}, dataset_configs=["Hindi"])
    assert whole.complete and not whole.coverage.partial


def test_subdomains_of_different_domains_are_kept_apart() -> None:
    letters = [meta("Hindi", 0, "native", "Work"), meta("Hindi", 1, "native", "Home")]
    letters = [dataclasses.replace(m, subdomain="Letters") for m in letters]
    answers = {m.key: response("Hindi", m.index, "t") for m in letters}
    judged = [*judgments(letters[0], "t", [9] * 5), *judgments(letters[1], "t", [3] * 5)]
    summary = summarize(BENCHMARK, item_results(BENCHMARK, letters, answers, judged, JUDGE), Usage(), {})
    assert summary.subdomains == {"Home / Letters": 3.0, "Work / Letters": 9.0}


def test_unclosed_thinking_is_counted() -> None:
    cut = {H0.key: dataclasses.replace(response("Hindi", 0, "<think>and on and on"), unclosed_thinking=True)}
    summary = summarize(BENCHMARK, item_results(BENCHMARK, [H0], cut, [], JUDGE), Usage(), {})
    assert summary.counts.unclosed_thinking == 1


def test_the_summary_records_the_decoding_mode_its_replies_record() -> None:
    def answered(mode: str | None, *keys: ItemMeta) -> dict:
        generation = {"backend": "vllm", **({"decoding_mode": mode} if mode else {})}
        return {m.key: dataclasses.replace(response(m.config, m.index, "t"), generation=generation) for m in keys}

    def mode_of(answers: dict) -> object:
        return summarize(BENCHMARK, item_results(BENCHMARK, [H0, H1], answers, [], JUDGE), Usage(), {}).decoding_mode

    assert mode_of(answered("batch-invariant", H0, H1)) == "batch-invariant"
    assert mode_of({**answered("fixed-batches", H0), **answered("reference", H1)}) == ["fixed-batches", "reference"]
    assert mode_of(answered(None, H0, H1)) is None  # replies generated before the mode was recorded


def _with_own_rubrics(items: list[ItemMeta]) -> list[ItemMeta]:
    """The items, each with a rubric of its own: no two are renderings of one request."""
    return [dataclasses.replace(item, checklist=({"name": item.id},)) for item in items]


def test_intervals_bracket_the_means() -> None:
    items = _with_own_rubrics(ITEMS)
    summary = summarize(BENCHMARK, item_results(BENCHMARK, items, RESPONSES, JUDGMENTS, JUDGE), Usage(), {})
    low, high = summary.overall_ci
    assert low <= summary.overall <= high
    assert summary.config_ci["Hindi"][0] == pytest.approx(6.0) and summary.config_ci["Hindi"][1] == pytest.approx(7.4)
    indic_low, indic_high = summary.config_group_ci["indic"]
    assert indic_low <= summary.config_groups["indic"] <= indic_high


def test_a_figure_resting_on_one_cluster_has_no_interval() -> None:
    # english_original has one scored item; Hindi's two are renderings of one request (one rubric).
    hindi = [dataclasses.replace(item, checklist=({"name": "one request"},)) for item in (H0, H1)]
    items = [*hindi, *_with_own_rubrics([T0, T1, E0])]
    summary = summarize(BENCHMARK, item_results(BENCHMARK, items, RESPONSES, JUDGMENTS, JUDGE), Usage(), {})
    assert summary.configs["english_original"] == 2.0 and summary.config_ci["english_original"] is None
    assert summary.configs["Hindi"] == pytest.approx(6.7) and summary.config_ci["Hindi"] is None
    assert summary.config_ci["Tamil"] is not None and summary.overall_ci is not None


def _rendered_requests(linked: bool) -> list[ItemResult]:
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
    return item_results(BENCHMARK, items, responses, judged, JUDGE)


def test_the_renderings_of_one_request_are_resampled_together() -> None:
    linked = summarize(BENCHMARK, _rendered_requests(linked=True), Usage(), {})
    alone = summarize(BENCHMARK, _rendered_requests(linked=False), Usage(), {})
    assert linked.overall == alone.overall
    scores = np.array([r.score for r in _rendered_requests(linked=True)])
    design = item_design(["Hindi"] * 60, [index // 3 for index in range(60)])
    clustered = cluster_bootstrap_interval(scores, design)
    assert linked.overall_ci == pytest.approx((clustered.low, clustered.high))
    naive = cluster_bootstrap_interval(scores, design.unclustered())
    assert alone.overall_ci == pytest.approx((naive.low, naive.high))
    # Three identical renderings carry one request's information: sqrt(3) times the naive width.
    width = lambda interval: interval[1] - interval[0]  # noqa: E731
    assert 1.4 < width(linked.overall_ci) / width(alone.overall_ci) < 2.1


def test_a_run_with_nothing_judged_has_no_overall() -> None:
    results = item_results(BENCHMARK, ITEMS, {}, [], JUDGE)
    summary = summarize(BENCHMARK, results, Usage(), {})
    assert summary.overall is None and summary.overall_ci is None and summary.configs == {}
    assert summary.counts.pending_items == len(ITEMS) and summary.coverage.pending == len(ITEMS)


def test_the_indic_average_is_the_mean_of_the_indic_config_means() -> None:
    hindi, tamil, english = meta("Hindi", 0, "native", "d"), meta("Tamil", 0, "native", "d"), meta("english_original", 0, "native", "d")
    responses = {m.key: response(m.config, m.index, "t") for m in (hindi, tamil, english)}
    scored = [*judgments(hindi, "t", [6] * 5), *judgments(tamil, "t", [9] * 5), *judgments(english, "t", [1] * 5)]
    summary = summarize(BENCHMARK, item_results(BENCHMARK, [hindi, tamil, english], responses, scored, JUDGE), Usage(), {})
    assert summary.config_groups == {"indic": pytest.approx(7.5)}
    assert summary.overall == pytest.approx((6 + 9 + 1) / 3)
