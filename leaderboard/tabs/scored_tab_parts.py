"""Table parts every benchmark tab uses: tables whose score cells link to the items behind them, empty tables
with their real headers, numbers rounded for reading (percentages to one decimal, as the benchmarks' own scripts
print them; the downloads keep full precision), and a run's downloads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import gradio as gr
import numpy as np
import pandas as pd

from leaderboard.cell_links import row_links
from leaderboard.display import PERCENT_DECIMALS, linked_markdown, model_cell
from leaderboard.exports import EXPORT_FORMATS, export_judgments
from leaderboard.row_flags import badges_markdown

CellLink = Callable[[Mapping[str, Any], str], "str | None"]
"""(one row of a table, as a mapping with its `run_id`; a number column) -> the address of the items behind that
cell, or None where it links nowhere."""


def item_downloads(prefix: str) -> dict[str, gr.DownloadButton]:
    """One download button per export format for a run's items, in a row, hidden until a model is chosen."""
    with gr.Row():
        return {fmt: gr.DownloadButton(f"All items ({fmt.upper()})", elem_id=f"{prefix}-download-{fmt}", visible=False)
                for fmt in EXPORT_FORMATS}


def run_downloads(details: pd.DataFrame, downloads_dir: Path, name: str, version: str) -> dict[str, Any]:
    """One run's items in every export format, as download-button updates keyed by format."""
    return {fmt: gr.update(value=str(export_judgments(details, fmt, downloads_dir, name, version)), visible=True)
            for fmt in EXPORT_FORMATS}


def empty_table(columns: Sequence[str], labels: Mapping[str, str]) -> pd.DataFrame:
    """A table with no rows under its real headers (an empty grid would show "1 2 3")."""
    return pd.DataFrame(columns=[labels.get(column, column) for column in columns])


def rounded_table(frame: pd.DataFrame, labels: Mapping[str, str], **props: Any) -> Any:
    """Numbers rounded for reading, headers labelled, text shown as text (`props`: more of the table's settings)."""
    shown = frame.round(PERCENT_DECIMALS).rename(columns=lambda column: labels.get(column, column))
    return gr.update(value=shown, datatype=["number" if pd.api.types.is_numeric_dtype(shown[c]) else "str"
                                            for c in shown.columns], **props)


def linked_table(frame: pd.DataFrame, labels: Mapping[str, str], link: CellLink | None = None,
                 decimals: Mapping[str, int] | None = None, **props: Any) -> Any:
    """`rounded_table` with every number cell `link` gives an address a link to the items behind it (the cell
    stays a number, so the grid sorts it as one), the `flags` cell its badges, and `run_id` (which `link` reads)
    left out of what is shown. A column `decimals` names reads with that many decimals (a score 2, a percentage 1);
    any other number as the grid writes it."""
    decimals = decimals or {}
    shown = frame.drop(columns=["run_id"], errors="ignore")
    shown = shown.round({column: decimals.get(column, PERCENT_DECIMALS) for column in shown.columns})
    columns = list(shown.columns)
    numeric = [pd.api.types.is_numeric_dtype(shown[column]) and not pd.api.types.is_bool_dtype(shown[column])
               for column in columns]
    data = [[_plain(cell) for cell in row] for row in shown.itertuples(index=False)]
    places = [decimals.get(column) for column in columns]
    texts = [_row_texts(columns, values, numeric, places, row, link)
             for values, row in zip(data, frame.to_dict("records"))]
    markdown = [column == "flags" or (column == "model" and "revision" in frame)
                or (number and any(line[position].startswith("[") for line in texts))
                for position, (column, number) in enumerate(zip(columns, numeric))]
    value = {"headers": [labels.get(column, column) for column in columns], "data": data,
             "metadata": {"display_value": texts, "styling": None}}
    datatypes = ["markdown" if linked else "number" if number else "str" for linked, number in zip(markdown, numeric)]
    return gr.update(value=value, datatype=datatypes, **props)


def _plain(cell: Any) -> Any:
    """A cell as JSON carries it: None for a missing value, numpy scalars as Python ones."""
    if cell is None or cell is pd.NA or (isinstance(cell, float) and np.isnan(cell)):
        return None
    return cell.item() if isinstance(cell, np.generic) else cell


def _row_texts(columns: list[str], values: list[Any], numeric: list[bool], places: list[int | None],
               row: Mapping[str, Any], link: CellLink | None) -> list[str]:
    """How one row's cells read: the model linked to its revision on the Hub, the others as `_cell_text` says,
    a number linked where `link` says (the row's address carried once: `cell_links.row_links`)."""
    texts = [_cell_text(column, cell, number, place)
             for column, cell, number, place in zip(columns, values, numeric, places)]
    if "model" in columns and "revision" in row:
        texts[columns.index("model")] = model_cell(str(row["model"]), str(row["revision"]))
    if link is None:
        return texts
    addresses = [link(row, column) if number and text else None for column, text, number in zip(columns, texts, numeric)]
    return [linked_markdown(text, address) if address else text for text, address in zip(texts, row_links(addresses))]


def _cell_text(column: str, cell: Any, number: bool, places: int | None) -> str:
    """How one cell reads, unlinked: the flags as badges, a number with `places` decimals (None: as the grid
    writes it, 50 or 57.1), text as it is."""
    if column == "flags":
        return badges_markdown(cell)
    if cell is None:
        return ""
    if not number:
        return str(cell)
    if places is not None:
        return f"{float(cell):.{places}f}"
    return str(int(cell)) if float(cell).is_integer() else repr(float(cell))
