"""Aggregation as the seed's Step C, on a case computed by hand."""

from __future__ import annotations

import pytest

from eval_backend.benchmarks import BENCHMARKS
from eval_backend.records import INVALID_ANSWER, TRANSPORT_ERROR, ItemMeta, Judgment, ResponseRecord, Usage
from eval_backend.scoring import FAILED, NO_RESPONSE, PENDING, SCORED, item_results, judged_response_sha, summarize

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


A0, A1, A2 = meta("A", 0, "native", "d1"), meta("A", 1, "romanized", "d2"), meta("A", 2, "native", "d1")
B0, B1, B2 = meta("B", 0, "native", "d2"), meta("B", 1, "code_mixed", "d1"), meta("B", 2, "code_mixed", "d2")
ITEMS = [A0, A1, A2, B0, B1, B2]
RESPONSES = {
    A0.key: response("A", 0, "<think>x</think>\n\nessay A0"),
    A1.key: response("A", 1, "essay A1"),
    A2.key: response("A", 2, "essay A2"),
    B0.key: response("B", 0, "essay B0"),
    B2.key: response("B", 2, "essay B2"),
}
JUDGMENTS = [
    *judgments(A0, "old answer", [1, 1, 1, 1, 1]),  # judged an earlier response: ignored
    *judgments(A0, "essay A0", [8, 7, 7, 8, 7]),
    *judgments(A1, "essay A1", [2, 2, 2, 2, 2], judge="judge-b"),  # another judge: ignored
    *judgments(A1, "essay A1", [6, 6, 6, 6, 6]),
    *judgments(A2, "essay A2", [9, 9, None, 9, 9]),
    *judgments(B0, "essay B0", [10, 9, 8, 7, 6]),
    *judgments(B2, "essay B2", [5, 5, 5, 5]),  # only four of five judged yet
    *judgments(B2, "essay B2", [None] * 5, error_kind=TRANSPORT_ERROR)[4:],  # the fifth: endpoint down
]


def test_each_item_gets_its_status_and_the_mean_of_its_criteria() -> None:
    results = {r.meta.key: r for r in item_results(BENCHMARK, ITEMS, RESPONSES, JUDGMENTS, JUDGE)}
    assert results[A0.key].status == SCORED and results[A0.key].score == pytest.approx(7.4)
    assert results[A1.key].score == pytest.approx(6.0)
    assert results[A2.key].status == FAILED and results[A2.key].score is None
    assert results[B0.key].score == pytest.approx(8.0)
    assert results[B1.key].status == NO_RESPONSE
    assert results[B2.key].status == PENDING


def test_summary_means_breakdowns_and_counts() -> None:
    results = item_results(BENCHMARK, ITEMS, RESPONSES, JUDGMENTS, JUDGE)
    summary = summarize(BENCHMARK, results, Usage(1, 2, 3, 4), {"model": "m"})
    assert summary.configs == pytest.approx({"A": 6.7, "B": 8.0})
    assert summary.config_groups == {}  # neither A nor B is an Indic language config
    assert summary.overall == pytest.approx((6.7 + 8.0) / 2)
    assert summary.variants == pytest.approx({"native": 7.7, "romanized": 6.0})
    assert summary.domains == pytest.approx({"d1": 7.4, "d2": 7.0})
    assert summary.subdomains == pytest.approx({"d1-sub": 7.4, "d2-sub": 7.0})
    assert summary.config_variants["A"] == pytest.approx({"native": 7.4, "romanized": 6.0})
    assert summary.config_variants["B"] == pytest.approx({"native": 8.0})
    counts = summary.counts
    assert (counts.items, counts.responses, counts.missing_responses) == (6, 5, 1)
    assert (counts.scored_items, counts.failed_items, counts.pending_items) == (3, 1, 1)
    assert counts.judgments == 5 + 5 + 5 + 5 + 5 and counts.failed_judgments == 2
    assert counts.extra_attempts == 2 + 2  # two failed judgments, three attempts each
    assert summary.config_counts["B"].missing_responses == 1
    assert summary.usage == Usage(1, 2, 3, 4) and summary.provenance == {"model": "m"}


def test_intervals_bracket_the_means() -> None:
    summary = summarize(BENCHMARK, item_results(BENCHMARK, ITEMS, RESPONSES, JUDGMENTS, JUDGE), Usage(), {})
    low, high = summary.overall_ci
    assert low <= summary.overall <= high
    assert summary.config_ci["A"][0] == pytest.approx(6.0) and summary.config_ci["A"][1] == pytest.approx(7.4)
    assert summary.config_ci["B"] == pytest.approx((8.0, 8.0))


def test_a_run_with_nothing_judged_has_no_overall() -> None:
    results = item_results(BENCHMARK, ITEMS, {}, [], JUDGE)
    summary = summarize(BENCHMARK, results, Usage(), {})
    assert summary.overall is None and summary.overall_ci is None and summary.configs == {}
    assert summary.counts.missing_responses == len(ITEMS)


def test_the_indic_average_is_the_mean_of_the_indic_config_means() -> None:
    hindi, tamil, english = meta("Hindi", 0, "native", "d"), meta("Tamil", 0, "native", "d"), meta("english_original", 0, "native", "d")
    responses = {m.key: response(m.config, m.index, "t") for m in (hindi, tamil, english)}
    scored = [*judgments(hindi, "t", [6] * 5), *judgments(tamil, "t", [9] * 5), *judgments(english, "t", [1] * 5)]
    summary = summarize(BENCHMARK, item_results(BENCHMARK, [hindi, tamil, english], responses, scored, JUDGE), Usage(), {})
    assert summary.config_groups == {"indic": pytest.approx(7.5)}
    assert summary.overall == pytest.approx((6 + 9 + 1) / 3)
