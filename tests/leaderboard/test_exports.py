"""Downloads: every per-item judgment in three formats, and the board's current view (WritingBench's, on the one
tab every benchmark has: `rankings_section.rankings_view`)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from eval_backend.benchmarks.registry import BENCHMARKS
from eval_backend.details import read_details
from leaderboard.exports import EXPORT_FORMATS, export_judgments
from leaderboard.ranking_query import RankingQuery
from leaderboard.results import ResultsStore
from leaderboard.scored_tables import ranking_labels
from leaderboard.tabs.rankings_section import rankings_view
from tests.support.run_folders import EvaluatedData

RUN_ID = "flaky__judge-fails-2b/main"


def _read(path: Path, fmt: str) -> pd.DataFrame:
    if fmt == "jsonl":
        return pd.DataFrame([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()])
    return pd.read_csv(path) if fmt == "csv" else pd.read_parquet(path)


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_judgment_exports_hold_every_row_of_the_details(fmt: str, evaluated: EvaluatedData, tmp_path: Path) -> None:
    folder = evaluated.folders["flaky/judge-fails-2b"]
    details = read_details(folder.details_path)
    path = export_judgments(details, fmt, tmp_path, RUN_ID, "v1")
    assert path.is_relative_to(tmp_path) and path.suffix == f".{fmt}"
    exported = _read(path, fmt)
    assert list(exported.columns) == list(details.columns)
    assert list(zip(exported["config"], exported["index"])) == list(zip(details["config"], details["index"]))
    assert list(exported["status"]) == list(details["status"])


def test_an_export_is_written_once_per_version_of_the_details(evaluated: EvaluatedData, tmp_path: Path) -> None:
    details = read_details(evaluated.folders["acme/strong-7b"].details_path)
    first = export_judgments(details, "csv", tmp_path, RUN_ID, "v1")
    written = first.stat().st_mtime_ns
    assert export_judgments(details, "csv", tmp_path, RUN_ID, "v1") == first
    assert first.stat().st_mtime_ns == written
    newer = export_judgments(details.head(2), "csv", tmp_path, RUN_ID, "v2")
    assert newer != first and len(pd.read_csv(newer)) == 2 and len(pd.read_csv(first)) == len(details)
    assert not list(tmp_path.rglob("*.part"))


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="xlsx"):
        export_judgments(pd.DataFrame(), "xlsx", tmp_path, RUN_ID, "v1")


def test_view_csv_is_the_rows_on_screen_with_every_column(store: ResultsStore, table: pd.DataFrame,
                                                           tmp_path: Path) -> None:
    benchmark = BENCHMARKS["indic_writing_bench"]
    query = RankingQuery(search="acme", groups=("variant",))
    view = rankings_view(store.snapshot(), table, benchmark, query, tmp_path, "leaderboard", "wb.csv")
    path = Path(view.download["value"])
    assert path.is_relative_to(tmp_path) and path.name == "wb.csv"
    exported = pd.read_csv(path)
    # The rows on screen, in their order; every column of them but the run id, at full precision.
    assert list(exported["model"]) == ["acme/strong-7b", "acme/reasoner-3b"]
    assert list(exported.columns) == [column for column in table.columns if column != "run_id"]
    kept = table.set_index("model").loc[exported["model"]]
    assert exported["indic"].tolist() == pytest.approx(kept["indic"].tolist())
    assert exported["variant.romanized"].tolist() == pytest.approx(kept["variant.romanized"].tolist())
    # The screen shows the chosen column group only; the CSV keeps the others (languages here) too.
    headers, labels = view.table["value"]["headers"], ranking_labels(table, benchmark)
    assert labels["variant.romanized"] in headers and labels["language.Hindi"] not in headers
    assert "language.Hindi" in exported.columns
