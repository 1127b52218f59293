"""How the board writes what it shows: decimals, short revisions, rank ranges and intervals, literal markdown, links.

Untrusted text in a markdown cell has every ASCII punctuation character backslash-escaped, so it is never shown
as HTML or markup; a Hub link is built only for a valid Hub repository id.
"""

from __future__ import annotations

import re
from typing import Callable
from urllib.parse import quote

import pandas as pd

HUB_URL = "https://huggingface.co"
DECIMALS = 2
PERCENT_DECIMALS = 1
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")

REVISION_CHARS = 7
_COMMIT = re.compile(r"^[0-9a-f]{8,64}$")
_PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_ASCII_PUNCTUATION = re.compile(r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")
ScoreLink = Callable[[str, str], "str | None"]
"""(run id, canonical column) -> the address of the items behind that cell, or None for a cell that is no score."""


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
    """The model cell: the id as literal text, linked to its revision on the Hub when the id is valid, the full id
    on hover (a Hub id has no quote to escape)."""
    url = hub_url(model_id, revision)
    return f'[{literal_markdown(model_id)}]({url} "{model_id}")' if url else literal_markdown(model_id)


def short_revision(revision: object) -> str:
    """A commit hash cut to 7 characters (the full one is in the link and the CSV); a branch or tag name as is."""
    if not isinstance(revision, str):
        return ""
    bare = revision.removeprefix("sha256:")
    return bare[:REVISION_CHARS] if _COMMIT.match(bare) else revision


def linked_markdown(text: str, address: str, title: str = "") -> str:
    """A cell reading `text` literally, linking to `address`, `title` on hover (its quotes replaced, so it cannot
    close itself); "" stays ""."""
    if not text:
        return ""
    hover = f' "{title.replace(chr(34), chr(39))}"' if title else ""
    return f"[{literal_markdown(text)}]({address}{hover})"


def format_rank_range(best: object, worst: object) -> str:
    """`best–worst`, or one rank when they agree; "" for an unranked run."""
    if best is None or worst is None or pd.isna(best) or pd.isna(worst):
        return ""
    return str(best) if best == worst else f"{best}–{worst}"


def decimals_of(unit: str) -> int:
    """How many decimals a figure in `unit` reads with: a percentage 1, a count none, a score 2."""
    return PERCENT_DECIMALS if unit == "%" else 0 if unit == "count" else DECIMALS


def format_interval(low: float | None, high: float | None, places: int = DECIMALS) -> str:
    """`low – high` to `places` decimals, or "" when the run has no interval."""
    if low is None or high is None or pd.isna(low) or pd.isna(high):
        return ""
    return f"{low:.{places}f} – {high:.{places}f}"
