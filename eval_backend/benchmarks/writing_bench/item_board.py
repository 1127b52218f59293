"""How a WritingBench item reads on the board: its table row, filters, and the item in full.

An item's full view is what the former Judgments tab showed: its header (language, index, id, variant,
domain / subdomain), the query (read from the dataset: details.parquet keeps only the short
prompt), the response, the reasoning folded away, and each of the five criteria with its score,
what it asks, the judge's reason (or error) and the rubric's bands folded beneath.
"""

from __future__ import annotations

import json
from typing import Any

from eval_backend.benchmarks.board_view import ItemField, ItemFilter, ItemPart, ItemView, Row
from eval_backend.benchmarks.writing_bench.items import BANDS

MAX_SCORE = 10
PROMPT_CHARS = 80
"""The table shows a prompt's start; the item in full shows its whole query."""
SCORE_BANDS = ((1.0, 4.0), (4.0, 7.0), (7.0, 10.0))
"""The "Show" filter's item-score ranges (the last one includes 10)."""


def _text(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def _score(row: Row) -> float | None:
    value = row.get("item_score")
    return None if value is None or value != value else float(value)


def short_prompt(row: Row) -> str:
    """The prompt's first PROMPT_CHARS characters, an ellipsis where it is cut."""
    prompt = _text(row.get("prompt"))
    return prompt if len(prompt) <= PROMPT_CHARS else prompt[: PROMPT_CHARS - 1] + "…"


def criteria(row: Row) -> tuple[ItemPart, ...]:
    """Each criterion as a part: "Name: 7/10", what it asks, the judge's reason or error, the rubric folded."""
    checklist = json.loads(row.get("checklist") or "[]")
    parts, number = [], 1
    while f"criterion_{number}" in row:
        entry = checklist[number - 1] if number - 1 < len(checklist) else {}
        score = row.get(f"score_{number}")
        shown = "no score" if score is None or score != score else f"{int(score)}/{MAX_SCORE}"
        lines = (("Asks", _text(entry.get("criteria_description"))), ("Judge's reason", _text(row.get(f"reason_{number}"))),
                 ("Judge error", _text(row.get(f"error_{number}"))))
        parts.append(ItemPart(heading=f"{_text(row.get(f'criterion_{number}'))}: {shown}",
                              lines=tuple(line for line in lines if line[1]),
                              folded=tuple((band, _text(entry.get(band))) for band in BANDS if entry.get(band))))
        number += 1
    return tuple(parts)


def item_view(row: Row) -> ItemView:
    """The item in full: its header, the query from the dataset, the response (or why there is none), the
    status and item score, the reasoning folded, the five criteria."""
    score = _score(row)
    response = row.get("response")
    return ItemView(
        question="",
        response=response if isinstance(response, str) else f"(no response: {_text(row.get('response_error')) or 'not generated'})",
        verdict=f"{_text(row.get('status'))}, item score {'none' if score is None else f'{score:.2f}'}",
        header=(f"{row.get('config')} #{row.get('index')} · {_text(row.get('id'))} · {_text(row.get('variant'))} · "
                f"{_text(row.get('domain'))} / {_text(row.get('subdomain'))}"),
        reasoning=_text(row.get("reasoning")),
        parts=criteria(row),
    )


def _in_band(low: float, high: float) -> ItemFilter:
    def keep(row: Row) -> bool:
        score = _score(row)
        return score is not None and low <= score and (score < high or high == MAX_SCORE)

    return ItemFilter(f"item score {low:g}–{high:g}", keep)


ITEM_FIELDS = (
    ItemField("status", "Status"),
    ItemField("item_score", "Item score"),
    ItemField("variant", "Variant"),
    ItemField("domain", "Domain"),
    ItemField("subdomain", "Subdomain"),
    ItemField("prompt", "Prompt", short_prompt),
)
ITEM_GROUPS = (ItemField("variant", "Variant"), ItemField("domain", "Domain"), ItemField("subdomain", "Subdomain"))
ITEM_FILTERS = (
    *(_in_band(low, high) for low, high in SCORE_BANDS),
    ItemFilter("no score (failed, pending, no response)", lambda row: _score(row) is None),
)
