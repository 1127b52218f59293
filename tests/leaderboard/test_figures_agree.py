"""The CLI's `compare`, the board and a download of the per-item table give the same figures.

Anyone who downloads two runs' tables from the board can recompute what the board shows (each
run's Indic average and its clustered interval) and what `compare` prints (their paired
difference and its interval), with the benchmark's cluster rule applied to the rubric the table
carries: the same numbers, from the one implementation in eval_backend/statistics.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.benchmarks.writing_bench.statistics import WRITING_STATISTICS
from eval_backend.cli import main
from eval_backend.statistics import Weighting, cluster_bootstrap_interval, compare_paired, headline, item_design
from leaderboard.exports import export_judgments
from leaderboard.results import ResultsStore
from leaderboard.scored_rankings import RANKED
from leaderboard.scored_tables import ranking_frame
from tests.support.run_folders import EvaluatedData


def _downloaded(store: ResultsStore, run_id: str, downloads: Path) -> pd.DataFrame:
    """The run's per-item table as the Judgments tab's parquet download holds it, read back."""
    path = export_judgments(store.details(run_id), "parquet", downloads, run_id, store.details_version(run_id))
    return pd.read_parquet(path)


def _indic_items(details: pd.DataFrame) -> tuple[np.ndarray, object]:
    """The Indic average's per-item values and design, the rubric (checklist) naming each item's cluster."""
    values = WRITING_STATISTICS.values(details)["indic"]
    counted = details[np.isfinite(values)]
    design = item_design(counted["config"].tolist(), counted["checklist"].tolist(), Weighting.EQUAL_STRATA)
    return values[np.isfinite(values)].to_numpy(float), design


def test_compare_the_board_and_a_download_agree_on_every_figure(
    evaluated: EvaluatedData, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = ResultsStore(evaluated.runs_dir)
    board = ranking_frame(store.snapshot().runs, BENCHMARKS["indic_writing_bench"])  # as its tab ranks it
    ranked = board[board["standing"] == RANKED].set_index("run_id")
    first, second = ranked.index[:2]
    items = {run_id: _indic_items(_downloaded(store, run_id, tmp_path / "downloads")) for run_id in (first, second)}

    for run_id, (values, design) in items.items():  # the board's figure and interval, from the download
        interval = cluster_bootstrap_interval(values, design)
        assert ranked.loc[run_id, "indic"] == pytest.approx(headline(values, design))
        assert (ranked.loc[run_id, "ci_low"], ranked.loc[run_id, "ci_high"]) == pytest.approx(
            (interval.low, interval.high))

    assert main(["compare", str(evaluated.runs_dir / first), str(evaluated.runs_dir / second), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    cli = next(c for c in printed["comparisons"] if c["figure"] == "indic" and c["scope"] == "all")
    (a, design), (b, _) = items[first], items[second]
    paired = compare_paired(a, b, design)
    assert cli["difference"] == pytest.approx(ranked.loc[first, "indic"] - ranked.loc[second, "indic"])
    assert (cli["difference"], cli["ci_low"], cli["ci_high"]) == pytest.approx(
        (paired.difference.estimate, paired.difference.low, paired.difference.high))
    assert (cli["p_value"], cli["wins"], cli["ties"], cli["losses"]) == pytest.approx(
        (paired.p_value, paired.wins, paired.ties, paired.losses))
    assert cli["n_clusters"] == design.n_clusters
