"""WritingBench's items: the dataset's configs, variants and rubric bands, and a row read as an `Item`.

Each config is a language (and two English ones); each request is rendered three times (its
variants) and judged by a rubric of five criteria, each with the seed's five score bands.
"""

from __future__ import annotations

from typing import Any, Mapping

from eval_backend.benchmarks.item_validation import ItemValidationError
from eval_backend.benchmarks.writing_bench.records import Item

INDIC_CONFIGS = (
    "Assamese", "Bengali", "Gujarati", "Hindi", "Kannada", "Malayalam",
    "Marathi", "Odia", "Punjabi", "Tamil", "Telugu",
)
KNOWN_CONFIGS = INDIC_CONFIGS + ("english_original", "indian_english")
VARIANTS = ("native", "code_mixed", "romanized")
BANDS = ("1-2", "3-4", "5-6", "7-8", "9-10")
CRITERIA_PER_ITEM = 5
"""The seed's rubric: five criteria per item, one details column group each."""

_STRING_FIELDS = ("id", "domain", "subdomain", "variant", "query")


def record_to_item(config: str, row: Mapping[str, Any]) -> Item:
    """Validate one dataset row and turn it into an Item.

    Raises ItemValidationError naming the config, the row's index and the bad field.
    """
    index = row.get("index")
    if not isinstance(index, int) or isinstance(index, bool):
        raise ItemValidationError(f"config {config!r}: a row has no integer 'index' (got {index!r})")
    where = f"config {config!r}, index {index}"
    for name in _STRING_FIELDS:
        if not isinstance(row.get(name), str) or not row[name]:
            raise ItemValidationError(f"{where}: field {name!r} is missing or not a non-empty string")
    if row["variant"] not in VARIANTS:
        raise ItemValidationError(f"{where}: field 'variant' is {row['variant']!r}, expected one of {VARIANTS}")
    checklist = _validated_checklist(row.get("checklist"), where)
    return Item(
        config=config,
        index=index,
        id=row["id"],
        domain=row["domain"],
        subdomain=row["subdomain"],
        language=str(row.get("language") or config),
        variant=row["variant"],
        prompt=str(row.get("prompt") or ""),
        query=row["query"],
        checklist=checklist,
    )


def _validated_checklist(checklist: Any, where: str) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(checklist, list) or len(checklist) != CRITERIA_PER_ITEM:
        count = len(checklist) if isinstance(checklist, list) else type(checklist).__name__
        raise ItemValidationError(f"{where}: field 'checklist' must hold {CRITERIA_PER_ITEM} criteria (got {count})")
    for position, entry in enumerate(checklist):
        for key in ("name", "criteria_description", *BANDS):
            if not isinstance(entry, Mapping) or not isinstance(entry.get(key), str) or not entry[key]:
                raise ItemValidationError(f"{where}: field 'checklist[{position}].{key}' is missing or empty")
    return tuple(checklist)
