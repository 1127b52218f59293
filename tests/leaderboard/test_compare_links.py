"""A link to the Compare view: what the board holds is restored, anything else in the address is dropped."""

from __future__ import annotations

from urllib.parse import urlencode

from eval_backend.benchmarks.registry import DEFAULT_BENCHMARK
from leaderboard.compare_links import CompareLink, parse_compare_link
from leaderboard.pairwise_matrix import MAX_MODELS

STRONG, REASONER = "acme__strong-7b/main", "acme__reasoner-3b/main"


def test_a_link_names_both_models_and_the_matrix(store) -> None:
    query = "?" + urlencode({"tab": "compare", "a": STRONG, "b": REASONER, "matrix": DEFAULT_BENCHMARK,
                             "figure": "overall", "top": "3"})
    assert parse_compare_link(query, {DEFAULT_BENCHMARK: store}) == CompareLink(STRONG, REASONER, DEFAULT_BENCHMARK,
                                                                                "overall", 3)


def test_what_the_board_does_not_hold_is_dropped_and_the_rest_kept(store) -> None:
    stores = {DEFAULT_BENCHMARK: store}
    query = urlencode({"a": "../../etc/passwd", "b": REASONER, "matrix": "<script>", "figure": "nope",
                       "top": str(MAX_MODELS + 1)})
    assert parse_compare_link(query, stores) == CompareLink(b=REASONER)
    assert parse_compare_link(urlencode({"top": "nan", "a": "x" * 10_000}), stores).empty
    assert parse_compare_link(None, stores).empty
    # a figure is read against the matrix's benchmark: QA's figure names are not WritingBench's
    assert parse_compare_link(urlencode({"matrix": "indic_qa", "figure": "judge"}), stores).figure == "judge"
    assert parse_compare_link(urlencode({"figure": "judge"}), stores).figure is None
