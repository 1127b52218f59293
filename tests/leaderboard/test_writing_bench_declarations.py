"""WritingBench declares what its one tab needs (#39): its breakdowns read from the summaries its engine writes, its
tab's address (`?tab=leaderboard`), introduction and figures; the declared tables draw them with no code of its own."""

from __future__ import annotations

import pytest

from eval_backend.benchmarks.writing_bench.plugin import INDIC_WRITING_BENCH as WB
from eval_backend.benchmarks.writing_bench.scoring import SUBDOMAIN_SEPARATOR
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import breakdown_frame, breakdown_groups, subset_breakdowns, tab_id
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
