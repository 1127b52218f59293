"""WritingBench declares what its one tab needs (#39): its breakdowns read from the summaries its engine writes, its
tab's address (`?tab=leaderboard`), introduction and figures; the declared tables draw them with no code of its own."""

from __future__ import annotations

import pytest

from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH as WB
from eval_backend.benchmarks.writing_bench.scoring import SUBDOMAIN_SEPARATOR
from leaderboard.results import ResultsStore
from leaderboard.ranking_query import RANKED, sorted_rows
from leaderboard.score_links import score_link
from leaderboard.scored_tables import (
    breakdown_frame, breakdown_groups, column_decimals, column_groups, higher_is_better, ranking_frame,
    ranking_labels, subset_breakdowns, tab_id,
)
from tests.support.run_folders import EvaluatedData


def test_its_tab_keeps_its_address_and_declares_every_breakdown_of_its_summary() -> None:
    assert tab_id(WB) == "leaderboard" and "Indic average" in (WB.board.intro or "")
    assert [b.name for b in WB.board.breakdowns] == ["language", "variant", "domain", "subdomain", "config_variant"]
    assert {spec.breakdown for spec in WB.board.figures} - {None} <= {b.name for b in WB.board.breakdowns}
    assert {spec.name: spec.chosen for spec in WB.board.figures if spec.chosen} == {"radar": 3, "language-variants": 1}
    # A ranking may be restricted to languages, renderings and domains: the fields its item values carry (one
    # "rank on" box per field: language x rendering names an item's language too).
    assert [b.name for b in subset_breakdowns(WB)] == ["language", "variant", "domain"]


@pytest.mark.parametrize("name, summary_key", [("language", "configs"), ("variant", "variants"),
                                               ("domain", "domains"), ("subdomain", "subdomains")])
def test_each_breakdown_reads_its_scores_from_the_summary(evaluated: EvaluatedData, name: str,
                                                          summary_key: str) -> None:
    runs = ResultsStore(evaluated.runs_dir).snapshot().runs
    breakdown = next(b for b in WB.board.breakdowns if b.name == name)
    frame = breakdown_frame(runs, WB, breakdown)
    assert len(frame) == sum(len(run.summary.get(summary_key) or {}) for run in runs) > 0
    for row in frame.to_dict("records"):
        run = next(run for run in runs if run.run_id == row["run_id"])
        assert row[WB.headline] == pytest.approx(run.summary[summary_key][row[name]])
    assert breakdown_groups(runs, breakdown) == list(dict.fromkeys(
        group for run in runs for group in run.summary.get(summary_key) or {}))
    if name == "subdomain":
        assert all(SUBDOMAIN_SEPARATOR in group for group in frame[name])


def test_language_by_rendering_shows_each_rendering_s_score(evaluated: EvaluatedData) -> None:
    runs = ResultsStore(evaluated.runs_dir).snapshot().runs
    breakdown = next(b for b in WB.board.breakdowns if b.name == "config_variant")
    frame = breakdown_frame(runs, WB, breakdown)
    run = next(run for run in runs if run.summary.get("config_variants"))
    hindi = frame[(frame["run_id"] == run.run_id) & (frame["config_variant"] == "Hindi")].iloc[0]
    for variant, score in run.summary["config_variants"]["Hindi"].items():
        assert hindi[variant] == pytest.approx(score)


def test_each_rendering_s_drop_from_native_is_a_column_of_the_renderings_group_sorted_smallest_first(
        evaluated: EvaluatedData) -> None:
    runs = ResultsStore(evaluated.runs_dir).snapshot().runs
    ranking = ranking_frame(runs, WB)
    drops = ["variant_drop.code_mixed", "variant_drop.romanized"]
    group = column_groups(ranking, WB)["variant"]  # the renderings in the summaries' order, then their drops
    assert sorted(group[:3]) == ["variant.code_mixed", "variant.native", "variant.romanized"] and group[3:] == drops
    for row in ranking.to_dict("records"):
        scores = next(run for run in runs if run.run_id == row["run_id"]).summary["variants"]
        for variant in ("code_mixed", "romanized"):
            expected = 100 * (scores["native"] - scores[variant]) / scores["native"]
            assert row[f"variant_drop.{variant}"] == pytest.approx(expected)
    assert ranking["variant_drop.romanized"].nunique() > 1  # the stand-in runs drop by different amounts
    labels, places = ranking_labels(ranking, WB), column_decimals(ranking, WB)
    assert [labels[column] for column in drops] == ["code_mixed drop %", "romanized drop %"]
    assert [places[column] for column in drops] == [1, 1] and places["variant.native"] == 2
    # Best first is the smallest drop; a rendering's own score still sorts the largest first.
    ranked = ranking[ranking["standing"] == RANKED]
    by_drop = sorted_rows(ranked, "variant_drop.romanized", higher_is_better(ranking, WB))
    assert list(by_drop["variant_drop.romanized"]) == sorted(ranked["variant_drop.romanized"])
    by_score = sorted_rows(ranked, "variant.romanized", higher_is_better(ranking, WB))
    assert list(by_score["variant.romanized"]) == sorted(ranked["variant.romanized"], reverse=True)
    # A drop opens no items: it is no group's score.
    link = score_link("leaderboard", {"variant": "variant"}, ())
    assert link(ranked["run_id"].iloc[0], "variant_drop.romanized") is None
