"""The one display step: labels, fixed decimals, the interval and coverage cells, our own Hub links.

Canonical tables keep full precision and snake_case names; only this module turns them
into what people read. The model cell is markdown that we build: a link to the evaluated
revision on the Hub when the id is a valid Hub repository id, and every ASCII punctuation
character of the id backslash-escaped, so an id is always shown as literal text (never as
HTML or markup). Scores read with two decimals and percentages with one, whatever the
value (a cell's number stays a number; its text is sent beside it as the cell's display value).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import quote

import numpy as np
import pandas as pd

from leaderboard.cell_links import row_links
from leaderboard.row_flags import FEW_ITEMS_INTERVAL, badges_markdown, too_few_items

HUB_URL = "https://huggingface.co"
DECIMALS = 2
PERCENT_DECIMALS = 1
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")

LABELS = {
    "rank": "Rank",
    "rank_range": "Rank range",
    "model": "Model",
    "subset_average": "Chosen subset average (1–10)",
    "subset_ci": "Subset 95% CI",
    "revision": "Revision",
    "flags": "Flags",
    "indic_average": "Indic average (1–10)",
    "indic_ci": "95% CI",
    "config.english_original": "english_original",
    "config.indian_english": "indian_english",
    "overall": "All configs (1–10)",
    "overall_ci": "All configs 95% CI",
    "standing_note": "Why not ranked",
    "drop_code_mixed": "Code-mixed drop %",
    "drop_romanized": "Romanized drop %",
    "coverage": "Coverage (scored/expected)",
    "no_response_items": "No answer (floor)",
    "failed_items": "Failed items",
    "pending_items": "Pending items",
    "unclosed_thinking": "Cut off in thinking",
    "dataset_revision": "Dataset revision",
    "judge_model": "Judge",
    "created_at": "Date",
    "params_b": "Params (B)",
    "precision": "Precision",
    "model_type": "Model type",
    "decoding_mode": "Mode",
    "license": "License",
    "open_weights": "Open weights",
}
LEAD_COLUMNS = ["rank", "model", "indic_average", "rank_range", "indic_ci", "flags", "revision"]
"""What a reader needs first (a phone's first screen): rank, model, the headline score, its rank range."""
SUBSET_LEAD_COLUMNS = ["rank", "model", "subset_average", "rank_range", "subset_ci", "indic_average", "indic_ci",
                       "flags", "revision"]
"""The same on a ranking of a chosen subset: the subset's figure, then its rank range and interval."""
PERCENT_COLUMNS = {"drop_code_mixed", "drop_romanized"}
COUNT_COLUMNS = {"rank", "no_response_items", "failed_items", "pending_items", "unclosed_thinking"}
UNKNOWN_WHEN_MISSING = {"open_weights"}
"""Facts a run may not have recorded: a blank cell reads "unknown" (the license column holds the word already)."""
REVISION_CHARS = 7
_COMMIT = re.compile(r"^[0-9a-f]{8,64}$")
_ASCII_PUNCTUATION = re.compile(r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")
_PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")
OUTDATED_FLAG = " (older dataset)"
ScoreLink = Callable[[str, str], "str | None"]
"""(run id, canonical column) -> the address of the items behind that cell, or None for a cell that is no score."""


@dataclass(frozen=True)
class DisplayTable:
    """A table ready for gr.Dataframe: labelled frame (numbers rounded), one datatype per column, each cell's text."""

    frame: pd.DataFrame
    datatypes: list[str]
    texts: list[list[str]]

    @functools.cached_property
    def value(self) -> dict[str, Any]:
        """The gr.Dataframe value: each cell as it reads (built once; the board sorts on the server, so
        the page needs no numbers of its own, and a crowd is sent half the bytes)."""
        return {"headers": list(self.frame.columns), "data": self.texts}

    @property
    def text_datatypes(self) -> list[str]:
        """The datatypes of `value`'s cells: text, and our markdown model cell."""
        return ["markdown" if kind == "markdown" else "str" for kind in self.datatypes]


def is_hub_id(model_id: str) -> bool:
    """Whether `model_id` has the shape of a Hub repository id (`org/name`, safe characters only)."""
    return bool(_HUB_ID.match(model_id)) and ".." not in model_id and "--" not in model_id


def hub_url(model_id: str, revision: str = "main") -> str:
    """The Hub page of the model at this revision, or "" when the id is not a valid Hub id."""
    if not is_hub_id(model_id):
        return ""
    if revision in ("", "main"):
        return f"{HUB_URL}/{model_id}"
    return f"{HUB_URL}/{model_id}/tree/{quote(revision, safe='')}"


def literal_markdown(text: str) -> str:
    """`text` as markdown that renders exactly as the characters of `text` (no markup, no HTML).

    A decimal number (`7.48`, `-46.8`) means nothing in markdown and stays as it is: escaped, its point
    was 40 KB of a 500-model board's page, one backslash in each of its 10,000 score cells."""
    text = " ".join(str(text).split())
    return text if _PLAIN_NUMBER.fullmatch(text) else _ASCII_PUNCTUATION.sub(r"\\\1", text)


def model_cell(model_id: str, revision: str = "main") -> str:
    """The model cell: the id as literal text, linked to its revision on the Hub when the id is valid.

    The link's title is the id (a Hub id has no quote to escape): the full id on hover, where a
    narrow column wraps it.
    """
    url = hub_url(model_id, revision)
    return f'[{literal_markdown(model_id)}]({url} "{model_id}")' if url else literal_markdown(model_id)


def short_revision(revision: object) -> str:
    """A commit hash cut to 7 characters (the full one is in the link and the CSV); a branch or tag name as is."""
    if not isinstance(revision, str):
        return ""
    bare = revision.removeprefix("sha256:")
    return bare[:REVISION_CHARS] if _COMMIT.match(bare) else revision


def column_label(column: str) -> str:
    """The label of a canonical column: `config.Hindi` -> `Hindi`, `drop_romanized` -> ..."""
    if column in LABELS:
        return LABELS[column]
    if "." in column:
        return column.split(".", 1)[1].replace("_", " ")
    return column.replace("_", " ").capitalize()


def display_table(view: pd.DataFrame, score_link: ScoreLink | None = None) -> DisplayTable:
    """The view as people read it: merged cells, linked model, fixed decimals, labels, lead columns first.

    With `score_link` and a `run_id` column in the view, each score cell links to the items behind it.
    A run flagged `few_items` reads "too few items" for its intervals; flags read as badges.
    """
    run_ids = [str(run_id) for run_id in view["run_id"]] if "run_id" in view else []
    frame = view.drop(columns=["label", "standing", "run_id"], errors="ignore").copy()
    if "model" in frame:
        revisions = frame["revision"] if "revision" in frame else pd.Series("main", index=frame.index)
        frame["model"] = [model_cell(str(m), str(r)) for m, r in zip(frame["model"], revisions)]
    _merge(frame, "rank_best", "rank_worst", "rank_range", format_rank_range)
    _merge(frame, "indic_ci_low", "indic_ci_high", "indic_ci", format_interval)
    _merge(frame, "subset_ci_low", "subset_ci_high", "subset_ci", format_interval)
    _merge(frame, "overall_ci_low", "overall_ci_high", "overall_ci", format_interval)
    _merge(frame, "covered_items", "expected_items", "coverage", format_coverage)
    _merge(frame, "dataset_revision", "dataset_outdated", "dataset_revision", format_revision)
    if "flags" in frame:
        few = [too_few_items(codes) for codes in frame["flags"]]
        for column in ("indic_ci", "subset_ci", "overall_ci"):
            if column in frame:
                # With or without numbers: a figure on one cluster per language has no interval at all.
                frame[column] = [FEW_ITEMS_INTERVAL if too_few else cell for too_few, cell in zip(few, frame[column])]
    if "created_at" in frame:
        frame["created_at"] = frame["created_at"].astype(str).str.slice(0, 10)
    lead = SUBSET_LEAD_COLUMNS if "subset_average" in frame else LEAD_COLUMNS
    frame = frame[[c for c in lead if c in frame] + [c for c in frame.columns if c not in lead]]
    frame = frame.round({c: PERCENT_DECIMALS if c in PERCENT_COLUMNS else DECIMALS for c in frame.columns})
    datatypes = [_datatype(frame, column) for column in frame.columns]
    texts = [[_cell_text(column, cell) for column, cell in zip(frame.columns, row)]
             for row in frame.itertuples(index=False)]
    if score_link is not None and run_ids:
        datatypes = _link_scores(list(frame.columns), datatypes, texts, run_ids, score_link)
    return DisplayTable(frame.rename(columns=column_label), datatypes, texts)


def _link_scores(columns: list[str], datatypes: list[str], texts: list[list[str]], run_ids: list[str],
                 score_link: ScoreLink) -> list[str]:
    """Each score cell's text as a link to its items (in place); the datatypes with those columns markdown.

    A row's run address is written once (`cell_links.row_links`), and the links carry no hover title: repeated
    in every score cell of every row, the two were most of the page a 500-model board sends a first visit
    (bench/README.md, concurrent viewers); About says what a score's link opens."""
    scores = [position for position, column in enumerate(columns)
              if datatypes[position] == "number" and column not in COUNT_COLUMNS | PERCENT_COLUMNS | {"params_b"}]
    linked = set()
    for row, run_id in zip(texts, run_ids):
        addresses: list[str | None] = [None] * len(columns)
        for position in scores:
            addresses[position] = score_link(run_id, columns[position]) if row[position] else None
        for position, address in enumerate(row_links(addresses)):
            if address is not None:
                row[position] = linked_markdown(row[position], address)
                linked.add(position)
    return ["markdown" if position in linked else kind for position, kind in enumerate(datatypes)]


def linked_markdown(text: str, address: str, title: str = "") -> str:
    """A cell reading `text` literally, linking to `address` (percent-encoded), `title` on hover; "" stays "".

    The title has its quotes replaced, so it cannot close itself.
    """
    if not text:
        return ""
    hover = f' "{title.replace(chr(34), chr(39))}"' if title else ""
    return f"[{literal_markdown(text)}]({address}{hover})"


def scores_as_read(frame: pd.DataFrame, score_columns: list[str]) -> dict[str, Any]:
    """A gr.Dataframe value whose score cells read with two decimals while staying numbers (the grid sorts them)."""
    data = [[None if _missing(cell) else cell.item() if isinstance(cell, np.generic) else cell for cell in row]
            for row in frame.itertuples(index=False)]
    scores = {frame.columns.get_loc(column) for column in score_columns if column in frame}
    texts = [[format_score(cell) if position in scores and cell is not None else "" if cell is None else str(cell)
              for position, cell in enumerate(row)] for row in data]
    return {"headers": list(frame.columns), "data": data, "metadata": {"display_value": texts, "styling": None}}


def _cell_text(column: str, value: object) -> str:
    """How one cell reads: fixed decimals by the column's kind, a short revision, "" for nothing."""
    if _missing(value):
        return "unknown" if column in UNKNOWN_WHEN_MISSING else ""
    if column == "revision":
        return short_revision(value)
    if column == "flags":
        return badges_markdown(value)
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if not isinstance(value, (int, float)):
        return str(value)
    if column in COUNT_COLUMNS:
        return f"{int(value):,}"
    if column == "params_b":
        return f"{value:g}"
    return f"{value:.{PERCENT_DECIMALS if column in PERCENT_COLUMNS else DECIMALS}f}"


def _missing(value: object) -> bool:
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float) and math.isnan(value)


def _merge(frame: pd.DataFrame, first: str, second: str, name: str, format_cell: object) -> None:
    """Replace two columns with one text cell built from both (in place, at the first's position)."""
    if {first, second} <= set(frame.columns):
        position = frame.columns.get_loc(first)
        cells = [format_cell(a, b) for a, b in zip(frame.pop(first), frame.pop(second))]  # type: ignore[operator]
        frame.insert(position, name, cells)


def format_rank_range(best: object, worst: object) -> str:
    """`best–worst`, or one rank when they agree; "" for an unranked run."""
    if best is None or worst is None or pd.isna(best) or pd.isna(worst):
        return ""
    return str(best) if best == worst else f"{best}–{worst}"


def format_coverage(covered: object, expected: object) -> str:
    """`covered/expected` items with thousands separators; "" when unknown."""
    if covered is None or expected is None or pd.isna(covered) or pd.isna(expected):
        return ""
    return f"{int(covered):,}/{int(expected):,}"


def format_revision(revision: object, outdated: object) -> str:
    """The dataset revision, shortened, flagged when a newer one is on the board."""
    if not isinstance(revision, str) or not revision:
        return ""
    return short_revision(revision) + (OUTDATED_FLAG if pd.notna(outdated) and bool(outdated) else "")


def format_interval(low: float | None, high: float | None) -> str:
    """`low – high` rounded for display, or "" when the run has no interval."""
    if low is None or high is None or pd.isna(low) or pd.isna(high):
        return ""
    return f"{low:.{DECIMALS}f} – {high:.{DECIMALS}f}"


def format_score(value: float | None) -> str:
    """A score rounded for display ("–" for none)."""
    return "–" if value is None or pd.isna(value) else f"{value:.{DECIMALS}f}"


def _datatype(frame: pd.DataFrame, column: str) -> str:
    if column in ("model", "flags"):
        return "markdown"
    if pd.api.types.is_bool_dtype(frame[column]):
        return "str"
    return "number" if pd.api.types.is_numeric_dtype(frame[column]) else "str"
