"""What the tabs of scored benchmarks (QA, Saraiki) share: the rankings' CSV, a run's downloads, rounded tables.

Percentages are shown to one decimal, as the benchmarks' own scripts print them; the downloads
keep full precision.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Mapping

import gradio as gr
import pandas as pd

from leaderboard.display import PERCENT_DECIMALS
from leaderboard.exports import EXPORT_FORMATS, export_judgments, export_view_csv
from leaderboard.results import Snapshot


def rankings_download(snapshot: Snapshot, ranking: pd.DataFrame, downloads_dir: Path, prefix: str,
                      file_name: str) -> Any:
    """The download button of the rankings' CSV, written once per state of the results; hidden with no runs."""
    if not snapshot.runs:
        return gr.update(value=None, visible=False)
    version = hashlib.sha256(repr(snapshot.signature).encode()).hexdigest()[:16]
    csv = export_view_csv(ranking.drop(columns=["run_id"]), downloads_dir, f"{prefix}-{version}", file_name=file_name)
    return gr.update(value=str(csv), visible=True)


def run_downloads(details: pd.DataFrame, downloads_dir: Path, name: str, version: str) -> dict[str, Any]:
    """One run's items in every export format, as download-button updates keyed by format."""
    return {fmt: gr.update(value=str(export_judgments(details, fmt, downloads_dir, name, version)), visible=True)
            for fmt in EXPORT_FORMATS}


def rounded_table(frame: pd.DataFrame, labels: Mapping[str, str]) -> Any:
    """Numbers rounded for reading, headers labelled, text shown as text."""
    shown = frame.round(PERCENT_DECIMALS).rename(columns=lambda column: labels.get(column, column))
    return gr.update(value=shown, datatype=["number" if pd.api.types.is_numeric_dtype(shown[c]) else "str"
                                            for c in shown.columns])
