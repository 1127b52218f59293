"""Judge consistency across the board: every checked run's re-judged pairs, pooled per judge model."""

from __future__ import annotations

import logging
import statistics
from collections import defaultdict
from typing import Any, Sequence

import pandas as pd

from eval_backend.agreement import Agreement, spearman
from eval_backend.consistency import ScoredPair, pair_agreement, read_reports
from leaderboard.results import UNREADABLE, RunResult

logger = logging.getLogger(__name__)

CONSISTENCY_COLUMNS = ["judge_model", "reference_judge_model", "runs", "pairs", "exact_agreement",
                       "within_one_agreement", "spearman", "mean_abs_diff", "ranking_spearman"]


def consistency_frame(runs: Sequence[RunResult]) -> pd.DataFrame:
    """Judge consistency per re-judging model (and the judge it was compared with), over every scored pair of every
    run's consistency.json (not averaged over runs). `ranking_spearman` says how far the models' order moves with the
    judge: the rank correlation, across runs, of each run's mean score by the two judges. A report that cannot be
    read is logged and left out; it never breaks the page."""
    pooled: dict[tuple[str, str], list[ScoredPair]] = defaultdict(list)
    run_means: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for run in runs:
        try:
            reports = read_reports(run.folder)
        except UNREADABLE as exc:
            logger.warning("skipping the consistency report of %s: %s", run.run_id, exc)
            continue
        for report in reports.values():
            if not report.pairs:
                continue
            key = (report.judge_model, report.reference_judge_model)
            pooled[key].extend(report.pairs)
            run_means[key].append((statistics.fmean(p.reference for p in report.pairs),
                                   statistics.fmean(p.rejudged for p in report.pairs)))
    rows = [_consistency_row(key, pair_agreement(pairs), run_means[key]) for key, pairs in sorted(pooled.items())]
    return pd.DataFrame(rows, columns=CONSISTENCY_COLUMNS)


def _consistency_row(key: tuple[str, str], figures: Agreement, means: list[tuple[float, float]]) -> dict[str, Any]:
    return {"judge_model": key[0], "reference_judge_model": key[1], "runs": len(means), "pairs": figures.pairs,
            "exact_agreement": figures.exact, "within_one_agreement": figures.within_one,
            "spearman": figures.spearman, "mean_abs_diff": figures.mean_abs_diff,
            "ranking_spearman": spearman([first for first, _ in means], [second for _, second in means])}
